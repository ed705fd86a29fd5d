import SwiftData

/// The entity of workloads 1 to 7 and 9: an `Int` key, three more `Int`s, three `Double`s and three `String`s
/// of about 20 characters. `key` and `group` (which workload 3 selects on) are indexed.
@Model final class Record {
    #Index<Record>([\.key], [\.group])

    var key: Int
    var group: Int
    var amount: Int
    var rank: Int
    var price: Double
    var weight: Double
    var ratio: Double
    var name: String
    var city: String
    var note: String

    init(_ values: RecordValues) {
        key = values.key
        group = values.group
        amount = values.amount
        rank = values.rank
        price = values.price
        weight = values.weight
        ratio = values.ratio
        name = values.name
        city = values.city
        note = values.note
    }
}

/// The owner side of workload 8's graph: a to-many relationship with an inverse.
@Model final class Parent {
    var name: String
    var rank: Int
    @Relationship(deleteRule: .cascade, inverse: \Child.parent) var children: [Child] = []

    init(name: String, rank: Int) {
        self.name = name
        self.rank = rank
    }
}

/// The member side of workload 8's graph.
@Model final class Child {
    var name: String
    var value: Int
    var parent: Parent?

    init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}

/// Workload 12's hierarchy: a class whose models are stored with its subclasses' in one table.
@Model class Asset {
    var key: Int
    var name: String
    var price: Double

    init(_ values: AssetValues) {
        key = values.key
        name = values.name
        price = values.price
    }
}

/// A subclass with attributes of its own.
@Model final class Stock: Asset {
    var ticker: String
    var shares: Int

    override init(_ values: AssetValues) {
        ticker = values.ticker ?? ""
        shares = values.shares ?? 0
        super.init(values)
    }
}

/// Another subclass with attributes of its own.
@Model final class Bond: Asset {
    var coupon: Double
    var maturity: Int

    override init(_ values: AssetValues) {
        coupon = values.coupon ?? 0
        maturity = values.maturity ?? 0
        super.init(values)
    }
}
