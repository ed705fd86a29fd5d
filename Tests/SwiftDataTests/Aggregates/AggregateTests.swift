import Foundation
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

@Model final class Outlet {
    var name: String
    @Relationship(inverse: \Purchase.shop) var purchases: [Purchase] = []

    init(name: String) { self.name = name }
}

@Model final class Purchase {
    var item: String
    var quantity: Int
    var total: Decimal
    var weight: Double?
    var day: Date
    var tiny: Int8 = 0
    var note: PurchaseNote?
    var shop: Outlet?

    /// Not stored: a computed value cannot be aggregated in SQL.
    var doubled: Int { quantity * 2 }

    init(_ item: String, quantity: Int, total: String, weight: Double? = nil, day: Double = 0, shop: Outlet? = nil) {
        self.item = item
        self.quantity = quantity
        self.total = Decimal(string: total)!
        self.weight = weight
        self.day = Date(timeIntervalSinceReferenceDate: day)
        self.shop = shop
    }
}

/// A `Codable` value, stored as JSON.
struct PurchaseNote: Codable, Hashable {
    var text: String
}

/// Aggregates and groups over a `FetchDescriptor`, on every store: Swift types in and out, SQL's `NULL` over no
/// values as `nil` where Swift's `min()` gives `nil`, unsaved changes included as `fetchCount` includes them, and
/// named errors for what cannot be aggregated.
@Suite struct AggregateTests {
    /// A context with three shops and six purchases, saved.
    static func purchases(on store: StoreKind) throws -> ModelContext {
        let context = ModelContext(try store.makeContainer(Purchase.self, Outlet.self))
        let north = Outlet(name: "North")
        let south = Outlet(name: "South")
        let empty = Outlet(name: "Empty")
        for shop in [north, south, empty] { context.insert(shop) }
        let purchases = [
            Purchase("apple", quantity: 3, total: "0.1", weight: 1.5, day: 100, shop: north),
            Purchase("pear", quantity: 1, total: "0.2", weight: nil, day: 300, shop: north),
            Purchase("plum", quantity: 5, total: "10.25", weight: 2, day: 200, shop: south),
            Purchase("fig", quantity: 2, total: "0.7", weight: 0.25, day: 50, shop: south),
            Purchase("kiwi", quantity: 4, total: "99.99", weight: nil, day: 400, shop: south),
            Purchase("date", quantity: 7, total: "1", weight: 3, day: 500, shop: nil),
        ]
        for purchase in purchases { context.insert(purchase) }
        try context.save()
        return context
    }

    @Test(arguments: StoreKind.all) func aggregatesHaveSwiftTypesAndExactDecimals(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let all = FetchDescriptor<Purchase>()
        let total: Decimal = try context.fetchAggregate(all, .sum(\.total))
        #expect(total == Decimal(string: "112.24")!)
        let (count, weighed, quantity, mean, lightest, latest, first) = try context.fetchAggregate(
            all, .count, .count(\.weight), .sum(\.quantity), .average(\.quantity), .minimum(\.weight),
            .maximum(\.day), .minimum(\.item))
        #expect(count == 6)
        #expect(weighed == 4)
        #expect(quantity == 22)
        #expect(mean == 22.0 / 6)
        #expect(lightest == 0.25)
        #expect(latest == Date(timeIntervalSinceReferenceDate: 500))
        #expect(first == "apple")
        let averageTotal: Decimal? = try context.fetchAggregate(all, .average(\.total))
        #expect(averageTotal == Decimal(string: "112.24")! / 6)
        let weight: Double = try context.fetchAggregate(all, .sum(\.weight))
        #expect(weight == 6.75)
    }

    @Test(arguments: StoreKind.all) func theDescriptorsPredicateAndWindowSelectTheModels(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let south = FetchDescriptor<Purchase>(predicate: #Predicate { $0.shop?.name == "South" })
        #expect(try context.fetchAggregate(south, .sum(\.quantity)) == 11)
        var firstTwo = FetchDescriptor<Purchase>(sortBy: [SortDescriptor(\.day)])
        firstTwo.fetchLimit = 2
        #expect(try context.fetchAggregate(firstTwo, .sum(\.quantity)) == 5)
        firstTwo.fetchOffset = 5
        let (count, latest) = try context.fetchAggregate(firstTwo, .count, .maximum(\.day))
        #expect(count == 1 && latest == Date(timeIntervalSinceReferenceDate: 500))
    }

    @Test(arguments: StoreKind.all) func noModelsGiveZeroSumsAndNilExtremes(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let none = FetchDescriptor<Purchase>(predicate: #Predicate { $0.quantity > 100 })
        let (count, sum, total, mean, meanTotal, least) = try context.fetchAggregate(
            none, .count, .sum(\.quantity), .sum(\.total), .average(\.quantity), .average(\.total), .minimum(\.item))
        #expect(count == 0)
        #expect(sum == 0)
        #expect(total == 0)
        #expect(mean == nil)
        #expect(meanTotal == nil)
        #expect(least == nil)
    }

    @Test(arguments: StoreKind.all) func groupsByARelatedAttributeWithConditionAndSort(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let groups = try context.fetchGroups(
            FetchDescriptor<Purchase>(), by: \.shop?.name, aggregates: .count, .sum(\.total), .maximum(\.weight))
        #expect(groups.map(\.key) == [nil, "North", "South"])
        #expect(groups.map(\.values.0) == [1, 2, 3])
        #expect(groups.map(\.values.1) == ["1", "0.3", "110.94"].map { Decimal(string: $0)! })
        #expect(groups.map(\.values.2) == [3, 1.5, 2])

        let busy = try context.fetchGroups(
            FetchDescriptor<Purchase>(), by: \.shop?.name, aggregates: .sum(\.quantity),
            having: .count >= 2 && !(.maximum(\.weight) > 1.75), sortBy: [.aggregate(.sum(\.quantity), order: .reverse)]
        )
        #expect(busy.map(\.key) == ["North"])
        let sorted = try context.fetchGroups(
            FetchDescriptor<Purchase>(), by: \.shop?.name, aggregates: .sum(\.quantity),
            sortBy: [.aggregate(.sum(\.quantity), order: .reverse)])
        #expect(sorted.map(\.key) == ["South", nil, "North"])
        #expect(sorted.map(\.values) == [11, 7, 4])
        let byKey = try context.fetchGroups(
            FetchDescriptor<Purchase>(), by: \.shop?.name, aggregates: .count,
            sortBy: [.key(\.shop?.name, order: .reverse)])
        #expect(byKey.map(\.key) == ["South", "North", nil])
    }

    @Test(arguments: StoreKind.all) func groupsByTwoKeys(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let groups = try context.fetchGroups(
            FetchDescriptor<Purchase>(predicate: #Predicate { $0.shop != nil }), by: \.shop?.name, \.quantity,
            aggregates: .count)
        #expect(groups.map(\.key.0) == ["North", "North", "South", "South", "South"])
        #expect(groups.map(\.key.1) == [1, 3, 2, 4, 5])
        #expect(groups.map(\.values) == [1, 1, 1, 1, 1])
    }

    @Test(arguments: StoreKind.all) func unsavedChangesAreIncludedAsFetchCountIncludesThem(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        context.insert(Purchase("lime", quantity: 10, total: "5", shop: nil))
        let apple = FetchDescriptor<Purchase>(predicate: #Predicate { $0.item == "apple" })
        let first = try #require(try context.fetch(apple).first)
        context.delete(first)
        let all = FetchDescriptor<Purchase>()
        #expect(try context.fetchAggregate(all, .count, .sum(\.quantity)) == (6, 29))
        #expect(try context.fetchGroups(all, by: \.shop?.name, aggregates: .count).map(\.values) == [2, 1, 3])
        var stored = all
        stored.includePendingChanges = false
        #expect(try context.fetchAggregate(stored, .count, .sum(\.quantity)) == (6, 22))
    }

    @Test(arguments: StoreKind.all) func whatIsNoStoredAttributeThrowsANamedError(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        let all = FetchDescriptor<Purchase>()
        let attempts: [() throws -> Void] = [
            { _ = try context.fetchAggregate(all, .sum(\Purchase.doubled)) },
            { _ = try context.fetchAggregate(all, .maximum(\Purchase.shop?.purchases.count)) },
            { _ = try context.fetchGroups(all, by: \Purchase.note, aggregates: .count) },
            { _ = try context.fetchGroups(all, by: \Purchase.item, aggregates: .count, sortBy: [.key(\.quantity)]) },
        ]
        for attempt in attempts {
            let error = try #require(throws: SwiftDataError.self) { try attempt() }
            #expect(error.modelName == "Purchase")
        }
    }

    @Test(arguments: StoreKind.all) func aSumThatDoesNotFitThrows(store: StoreKind) throws {
        let context = try Self.purchases(on: store)
        for purchase in try context.fetch(FetchDescriptor<Purchase>()) { purchase.tiny = 100 }
        try context.save()
        let error = try #require(throws: SwiftDataError.self) {
            _ = try context.fetchAggregate(FetchDescriptor<Purchase>(), .sum(\.tiny))
        }
        #expect(error.modelName == "Purchase" && error.propertyName == "tiny")
        #expect(error.reason?.contains("Purchase.tiny") == true)
        let mean: Double? = try context.fetchAggregate(FetchDescriptor<Purchase>(), .average(\.tiny))
        #expect(mean == 100)
    }

    @Test func aStoreOfYourOwnGetsAggregatesComputedFromItsSnapshots() throws {
        let container = try ModelContainer(
            for: Counter.self, configurations: MemorySnapshotConfiguration(box: SnapshotBox()))
        let context = ModelContext(container)
        for (index, label) in ["c", "a", "d", "b", "a"].enumerated() {
            let counter = Counter(label: label)
            counter.value = index
            context.insert(counter)
        }
        try context.save()
        let fresh = ModelContext(container)
        let some = FetchDescriptor<Counter>(predicate: #Predicate { $0.value > 0 })
        let (count, sum, last) = try fresh.fetchAggregate(some, .count, .sum(\.value), .maximum(\.label))
        #expect(count == 4 && sum == 10 && last == "d")
        let groups = try fresh.fetchGroups(some, by: \.label, aggregates: .sum(\.value))
        #expect(groups.map(\.key) == ["a", "b", "d"])
        #expect(groups.map(\.values) == [5, 3, 2])
    }

    /// Without unsaved changes the store computes aggregates and groups in its SQL: no fetch of models is prepared.
    @Test func theStoreComputesThemWithoutFetchingModels() throws {
        let context = try Self.purchases(on: .sqlite)
        let store = try #require(context.container.stores.first as? SQLiteStore)
        let before = store.preparations.load(ordering: .relaxed)
        _ = try context.fetchAggregate(FetchDescriptor<Purchase>(), .sum(\.total), .average(\.total), .count)
        _ = try context.fetchGroups(
            FetchDescriptor<Purchase>(), by: \.shop?.name, aggregates: .count, having: .count > 1,
            sortBy: [.aggregate(.maximum(\.day))])
        #expect(store.preparations.load(ordering: .relaxed) == before)
        context.insert(Purchase("lime", quantity: 10, total: "5"))
        #expect(try context.fetchAggregate(FetchDescriptor<Purchase>(), .count) == 7)
        #expect(store.preparations.load(ordering: .relaxed) > before, "unsaved changes: computed from fetched models")
    }
}
