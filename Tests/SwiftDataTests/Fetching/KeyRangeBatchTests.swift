import Foundation
import SwiftData
import Testing

@testable import SwiftDataSQL

@Model final class RangeItem {
    var index: Int
    /// `index % parity`, set by the test.
    var group: Int

    init(index: Int, group: Int) {
        self.index = index
        self.group = group
    }
}

/// A batch of a batched fetch or of `enumerate` whose keys ascend and fill most of the range between its first and
/// last is read as that range of keys, skipping the rows of other keys. These tests would fail if a range read
/// passed on a row the batch did not ask for (one the predicate did not select, or one that came to match it after
/// the keys were read), lost one it did, or were not used for such a batch.
@Suite struct KeyRangeBatchTests {
    /// A store with `count` items, `group` being `index % parity`, saved in index (so key) order.
    func savedItems(_ kind: StoreKind, count: Int, parity: Int) throws -> ModelContainer {
        let container = try kind.makeContainer(RangeItem.self)
        let context = ModelContext(container)
        for index in 0..<count { context.insert(RangeItem(index: index, group: index % parity)) }
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func enumerateReadsBatchesByRangeWithTheSameModels(_ kind: StoreKind) throws {
        // Every other item: each batch's keys span twice their number, less one.
        let container = try savedItems(kind, count: 40, parity: 2)
        let log = kind == .sqlite ? StatementLog(container) : nil
        let context = ModelContext(container)
        let other = ModelContext(container)
        let descriptor = FetchDescriptor<RangeItem>(predicate: #Predicate { $0.group == 0 })
        var seen: [Int] = []
        try context.enumerate(descriptor, batchSize: 5) { item in
            if seen.isEmpty {
                // After the keys were read: an item the fetch did not select now matches, and one it selected in a
                // later batch is gone.
                let items = try other.fetch(FetchDescriptor<RangeItem>())
                items.first { $0.index == 21 }?.group = 0
                if let gone = items.first(where: { $0.index == 30 }) { other.delete(gone) }
                try other.save()
            }
            seen.append(item.index)
        }
        #expect(seen == Array(stride(from: 0, to: 40, by: 2)).filter { $0 != 30 })
        if let log {
            let batches = log.selects.filter { $0.contains("RangeItem") && $0.contains(">=") }
            #expect(batches.count == 4, "each batch of five keys is read as a range: \(log.selects)")
            #expect(!log.selects.contains { $0.contains(" IN (") })
        }
    }

    @Test(arguments: StoreKind.all) func aSparseBatchIsReadByItsKeys(_ kind: StoreKind) throws {
        // Every fifth item: a range would read five rows per model, so the keys are listed.
        let container = try savedItems(kind, count: 50, parity: 5)
        let log = kind == .sqlite ? StatementLog(container) : nil
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<RangeItem>(predicate: #Predicate { $0.group == 0 })
        let results = try context.fetch(descriptor, batchSize: 4)
        #expect(results.map(\.index) == Array(stride(from: 0, to: 50, by: 5)))
        if let log {
            #expect(log.selects.contains { $0.contains(" IN (") })
            #expect(!log.selects.contains { $0.contains("RangeItem") && $0.contains(">=") })
        }
    }

    @Test(arguments: StoreKind.all) func aBatchedFetchSortedAgainstKeyOrderKeepsItsOrder(_ kind: StoreKind) throws {
        // Sorted by descending index, each batch's keys descend: they are listed, and the order is the sort's.
        let container = try savedItems(kind, count: 12, parity: 1)
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<RangeItem>(sortBy: [SortDescriptor(\.index, order: .reverse)])
        let results = try context.fetch(descriptor, batchSize: 5)
        #expect(results.map(\.index) == Array((0..<12).reversed()))
    }

    @Test func whichBatchesAreReadAsRanges() {
        #expect(KeySelect.readsRange(of: [1, 2, 3, 4]))
        #expect(KeySelect.readsRange(of: [1, 3, 5, 7]), "a span of 7 for 4 keys")
        #expect(!KeySelect.readsRange(of: [1, 3, 5, 9]), "a span of 9 for 4 keys")
        #expect(!KeySelect.readsRange(of: [1, 3, 2, 4]), "not ascending")
        #expect(!KeySelect.readsRange(of: [1, 1, 2, 3]), "a repeated key")
        #expect(!KeySelect.readsRange(of: [7]), "one key is looked up")
        #expect(!KeySelect.readsRange(of: []))
        #expect(!KeySelect.readsRange(of: [Int64.min, Int64.max]), "a span beyond Int64")
    }

    @Test func aRangeKeepsOnlyItsKeys() {
        var select = KeySelect(SQLStatement(), keeping: [2, 3, 5, 8][...])
        let kept = (1...9).filter { select.keeps(Int64($0)) }
        #expect(kept == [2, 3, 5, 8])
        var all = KeySelect(SQLStatement())
        #expect((1...3).allSatisfy { all.keeps(Int64($0)) })
    }
}
