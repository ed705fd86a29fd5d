import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// A constant a predicate compares with, of a type the store cannot vouch for (no exact fingerprint), so a
/// predicate that holds it is planned for each fetch.
private struct Bound: Codable, Sendable {
    var value: Int
}

/// A descriptor keeps the plan of its last fetch and uses it again without asking the store. These tests would fail
/// if a kept plan were used for a request it does not fit: after the descriptor's predicate, sort, window or
/// properties changed, from another store, or when the store made the plan for one request only.
@Suite struct FetchPlanMemoTests {
    /// Items a0 ... a9 with `a` 0 ... 9 and `b` 9 ... 0 (see `FetchPlanCacheTests.savedItems`).
    func savedItems(prefix: String = "a") throws -> (ModelContext, SQLiteStore) {
        let container = try makeMemoryContainer(PlanItem.self)
        let context = ModelContext(container)
        for index in 0..<10 {
            context.insert(PlanItem(a: index, b: 9 - index, name: "\(prefix)\(index)"))
        }
        try context.save()
        return (context, try sqliteStore(container))
    }

    /// The names the descriptor fetches, fetching it twice (and checking both agree), so that the descriptor keeps
    /// its plan for the next fetch.
    func names(_ context: ModelContext, _ descriptor: FetchDescriptor<PlanItem>) throws -> [String] {
        let first = try context.fetch(descriptor).map(\.name)
        let second = try context.fetch(descriptor).map(\.name)
        #expect(first == second)
        return second
    }

    @Test func aRepeatedDescriptorAsksTheStoreOnce() throws {
        let (context, store) = try savedItems()
        let limit = 3
        let descriptor = FetchDescriptor<PlanItem>(
            predicate: #Predicate { $0.a < limit }, sortBy: [SortDescriptor(\.a)])
        let before = store.preparations.load(ordering: .relaxed)
        // The first fetch keeps its plan, the next ones use it.
        #expect(try names(context, descriptor) == ["a0", "a1", "a2"])
        #expect(store.preparations.load(ordering: .relaxed) == before + 1)
        #expect(try names(context, descriptor) == ["a0", "a1", "a2"])
        // A copy shares the kept plan.
        let copy = descriptor
        #expect(try names(context, copy) == ["a0", "a1", "a2"])
        #expect(store.preparations.load(ordering: .relaxed) == before + 1)
        #expect(try context.fetchCount(descriptor) == 3)
        #expect(try context.fetchCount(descriptor) == 3)
        #expect(
            store.preparations.load(ordering: .relaxed) == before + 2,
            "a count reads no properties: a request of another shape, kept in turn")
    }

    @Test func aChangedPredicateSelectsItsOwnRows() throws {
        let (context, _) = try savedItems()
        var descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a < 3 }, sortBy: [SortDescriptor(\.a)])
        let original = descriptor
        #expect(try names(context, descriptor) == ["a0", "a1", "a2"])
        // Same shape, another captured value: the kept plan binds the old one.
        for limit in [5, 1] {
            descriptor.predicate = #Predicate { $0.a < limit }
            #expect(try names(context, descriptor) == (0..<limit).map { "a\($0)" })
        }
        descriptor.predicate = #Predicate { $0.b < 2 }
        #expect(try names(context, descriptor) == ["a8", "a9"])
        descriptor.predicate = nil
        #expect(try names(context, descriptor).count == 10)
        // The copy taken before the changes keeps its own predicate.
        #expect(try names(context, original) == ["a0", "a1", "a2"])
        #expect(try context.fetchCount(original) == 3)
    }

    @Test func aChangedSortOrdersByItsOwnKeys() throws {
        let (context, _) = try savedItems()
        var descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a < 3 }, sortBy: [SortDescriptor(\.a)])
        #expect(try names(context, descriptor) == ["a0", "a1", "a2"])
        descriptor.sortBy = [SortDescriptor(\.a, order: .reverse)]
        #expect(try names(context, descriptor) == ["a2", "a1", "a0"])
        descriptor.sortBy = [SortDescriptor(\.b)]
        #expect(try names(context, descriptor) == ["a2", "a1", "a0"])
        descriptor.sortBy = [SortDescriptor(\.name)]
        #expect(try names(context, descriptor) == ["a0", "a1", "a2"])
    }

    @Test func aChangedWindowOrPropertiesIsPlannedForItself() throws {
        let (context, _) = try savedItems()
        var descriptor = FetchDescriptor<PlanItem>(sortBy: [SortDescriptor(\.a)])
        #expect(try names(context, descriptor).count == 10)
        descriptor.fetchLimit = 2
        #expect(try names(context, descriptor) == ["a0", "a1"])
        descriptor.fetchLimit = 4
        #expect(try names(context, descriptor) == ["a0", "a1", "a2", "a3"])
        descriptor.fetchOffset = 3
        #expect(try names(context, descriptor) == ["a3", "a4", "a5", "a6"])
        descriptor.fetchOffset = 8
        #expect(try names(context, descriptor) == ["a8", "a9"])
        descriptor.fetchLimit = nil
        #expect(try names(context, descriptor) == ["a8", "a9"])
        descriptor.fetchOffset = nil
        #expect(try names(context, descriptor).count == 10)
        descriptor.propertiesToFetch = [\.name]
        let items = try context.fetch(descriptor)
        #expect(items.map(\.name) == (0..<10).map { "a\($0)" })
        #expect(items.map(\.b) == Array((0..<10).reversed()))
    }

    @Test func oneDescriptorFetchesFromEachStoreItsOwnRows() throws {
        let (first, _) = try savedItems(prefix: "first")
        let (second, secondStore) = try savedItems(prefix: "second")
        let descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a < 2 }, sortBy: [SortDescriptor(\.a)])
        let before = secondStore.preparations.load(ordering: .relaxed)
        for _ in 0..<2 {
            #expect(try names(first, descriptor) == ["first0", "first1"])
            #expect(try names(second, descriptor) == ["second0", "second1"])
        }
        #expect(
            secondStore.preparations.load(ordering: .relaxed) == before + 2,
            "a plan kept from one store is not used with another")
    }

    @Test func aPlanMadeForOneRequestIsNotKept() throws {
        let (context, store) = try savedItems()
        var bound = Bound(value: 2)
        func descriptor() -> FetchDescriptor<PlanItem> {
            let captured = bound
            return FetchDescriptor(predicate: #Predicate { $0.a < captured.value }, sortBy: [SortDescriptor(\.a)])
        }
        let fetched = descriptor()
        let before = store.preparations.load(ordering: .relaxed)
        #expect(try names(context, fetched) == ["a0", "a1"])
        #expect(try names(context, fetched) == ["a0", "a1"])
        #expect(store.preparations.load(ordering: .relaxed) == before + 4)
        bound.value = 4
        #expect(try names(context, descriptor()) == ["a0", "a1", "a2", "a3"])
    }
}
