/// The values of one `Record`, as both sides create them and as the raw side reads them back.
struct RecordValues: Equatable {
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
}

/// The data every workload uses, the same for both sides: deterministic, so that the two sides' results can be
/// compared.
enum SampleData {
    /// The number of groups: workload 3 selects one of them, about 1% of the rows.
    static let groups = 100
    /// The group workload 3 selects.
    static let selectedGroup = 42
    /// Workload 4 counts the rows whose `amount` is below this (about half of them).
    static let amountLimit = 5_000
    /// Children per parent in workload 8's graph.
    static let childrenPerParent = 100
    /// Workload 9 reads this many pages of `pageSize` models.
    static let pageCount = 50
    static let pageSize = 20

    private static let cities = ["Amsterdam", "Barcelona", "Copenhagen", "Dublin", "Edinburgh", "Florence"]

    /// `count` records after the first `existing` ones (all of them by default). Their keys are a permutation of
    /// `existing..<existing + count`, so that key order differs from insertion order.
    static func records(_ count: Int, after existing: Int = 0) -> [RecordValues] {
        let multiplier = keyMultiplier(count)
        return (0..<count).map { record(existing + $0, key: existing + $0 * multiplier % count) }
    }

    private static func record(_ index: Int, key: Int) -> RecordValues {
        RecordValues(
            key: key,
            group: index % groups,
            amount: index * 37 % 10_000,
            rank: index / 10,
            price: Double(index % 10_000) / 4,
            weight: Double(index) * 0.001,
            ratio: Double(index % 7) / 7,
            name: padded("Customer ", index),
            city: padded(cities[index % cities.count] + " ", index % 997),
            note: padded("Order note ", index * 7 % 100_000))
    }

    /// The number of parents of workload 8's graph: one per `childrenPerParent` rows, at least one.
    static func parentCount(rows: Int) -> Int { max(1, rows / childrenPerParent) }

    static func parentName(_ index: Int) -> String { padded("Parent ", index) }
    static func childName(_ index: Int) -> String { padded("Child ", index) }

    /// `prefix` followed by `number`, zero-padded to 20 characters (long enough that Swift stores the string
    /// on the heap, as it would most real text).
    static func padded(_ prefix: String, _ number: Int) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, 20 - prefix.count - digits.count)) + digits
    }

    /// A multiplier coprime with `count`, which makes `index * multiplier % count` a permutation.
    private static func keyMultiplier(_ count: Int) -> Int {
        var multiplier = 7_919
        while gcd(multiplier, count) != 1 { multiplier += 1 }
        return multiplier
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

extension RecordValues {
    /// A number that depends on every value: both sides sum it over what they read, and the sums must agree.
    var digest: Int {
        var digest = key
        digest = digest &* 31 &+ group
        digest = digest &* 31 &+ amount
        digest = digest &* 31 &+ rank
        digest = digest &* 31 &+ Int(truncatingIfNeeded: price.bitPattern)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: weight.bitPattern)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: ratio.bitPattern)
        digest = digest &* 31 &+ name.utf8.count
        digest = digest &* 31 &+ city.utf8.count
        return digest &* 31 &+ note.utf8.count
    }
}

/// The values of one model of workload 12's hierarchy: `kind` 0 is an `Asset`, 1 a `Stock`, 2 a `Bond`; the
/// subclasses' attributes are `nil` for the other kinds.
struct AssetValues: Equatable {
    var kind: Int
    var key: Int
    var name: String
    var price: Double
    var ticker: String?
    var shares: Int?
    var coupon: Double?
    var maturity: Int?

    /// `count` models, a third of each kind, in turn.
    static func all(_ count: Int) -> [AssetValues] {
        (0..<count).map { index in
            let kind = index % 3
            return AssetValues(
                kind: kind, key: index, name: SampleData.padded("Asset ", index), price: Double(index % 1_000) / 8,
                ticker: kind == 1 ? SampleData.padded("T", index) : nil, shares: kind == 1 ? index % 500 : nil,
                coupon: kind == 2 ? Double(index % 40) / 8 : nil, maturity: kind == 2 ? 2030 + index % 20 : nil)
        }
    }

    /// A number that depends on every value, as `RecordValues.digest`.
    var digest: Int {
        var digest = kind &* 31 &+ key
        digest = digest &* 31 &+ name.utf8.count
        digest = digest &* 31 &+ Int(truncatingIfNeeded: price.bitPattern)
        digest = digest &* 31 &+ (ticker?.utf8.count ?? -1)
        digest = digest &* 31 &+ (shares ?? -1)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: (coupon ?? -1).bitPattern)
        return digest &* 31 &+ (maturity ?? -1)
    }
}
