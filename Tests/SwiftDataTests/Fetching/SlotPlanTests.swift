import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Fetches that differ only in the integers or UUIDs they compare with (a fetch by a key, with ever other keys)
/// share one select, with each request's values bound, once two requests showed where those values go. These tests
/// would fail if a request got another's values, or if such fetches were translated every time.
@Suite struct SlotPlanTests {
    func savedItems() throws -> (ModelContext, SQLiteStore) {
        let container = try makeMemoryContainer(PlanItem.self)
        let context = ModelContext(container)
        for index in 0..<10 { context.insert(PlanItem(a: index, b: 9 - index, name: "a\(index)")) }
        try context.save()
        return (context, try sqliteStore(container))
    }

    @Test func fetchesByEverOtherKeyAreTranslatedTwiceAndSelectTheirOwnRows() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        for key in [3, 7, 1, 9, 0, 3, 12] {
            var descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a == key })
            descriptor.fetchLimit = 1
            #expect(try context.fetch(descriptor).map(\.name) == (key < 10 ? ["a\(key)"] : []))
            let counted = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a == key })
            #expect(try context.fetchCount(counted) == (key < 10 ? 1 : 0))
        }
        // Two requests showed where the key goes, in the select and in the count (which share each request's
        // translation); the others bind theirs.
        #expect(store.translations.load(ordering: .relaxed) == before + 2)
    }

    @Test func severalSlotsAndWindowsAreBoundInTheirOwnPlaces() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        for (low, high, limit) in [(2, 6, 2), (0, 3, 5), (5, 9, 1), (1, 8, 3), (4, 4, 2)] {
            var descriptor = FetchDescriptor<PlanItem>(
                predicate: #Predicate { $0.a >= low && $0.a <= high && $0.a != 3 }, sortBy: [SortDescriptor(\.a)])
            descriptor.fetchLimit = limit
            let expected = (low...high).filter { $0 != 3 }.prefix(limit).map { "a\($0)" }
            #expect(try context.fetch(descriptor).map(\.name) == expected, "\(low)...\(high), \(limit)")
        }
        // The literal 3 is the same in every request: bound requests must hold it too.
        #expect(store.translations.load(ordering: .relaxed) == before + 2)
    }

    @Test func aValueInTwoSlotsOrInAComputationIsNeverBoundBlindly() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        // One captured value compared twice: its two slots always hold the same value, so where each goes is never
        // learned, and each request is prepared on its own.
        for key in [2, 5, 8] {
            let descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a == key || $0.b == key })
            #expect(Set(try context.fetch(descriptor).map(\.name)) == ["a\(key)", "a\(9 - key)"])
        }
        #expect(store.translations.load(ordering: .relaxed) == before + 3)
        // A value that goes into a computation is no slot of its own: the sum is a constant of the predicate.
        for key in [1, 4, 6] {
            let descriptor = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.a == key + 1 })
            #expect(try context.fetch(descriptor).map(\.name) == ["a\(key + 1)"])
        }
    }

    @Test func identifiersAreSlotsToo() throws {
        let container = try makeMemoryContainer(SlotTicket.self)
        let context = ModelContext(container)
        let codes = (0..<5).map { _ in UUID() }
        for (index, code) in codes.enumerated() { context.insert(SlotTicket(code: code, number: index)) }
        try context.save()
        let store = try sqliteStore(container)
        let before = store.translations.load(ordering: .relaxed)
        for (index, code) in codes.enumerated().reversed() {
            let fetched = try ModelContext(container).fetch(
                FetchDescriptor<SlotTicket>(predicate: #Predicate { $0.code == code }))
            #expect(fetched.map(\.number) == [index])
        }
        #expect(store.translations.load(ordering: .relaxed) == before + 2)
    }
}

@Model final class SlotTicket {
    var code: UUID
    var number: Int

    init(code: UUID, number: Int) {
        self.code = code
        self.number = number
    }
}
