import Foundation
import SwiftData
import Testing

/// A badge's code: stored through `BadgeCodeTransformer`, as its letters.
final class BadgeCode {
    let letters: String
    init(_ letters: String) { self.letters = letters }
}

/// Stores a `BadgeCode` as its letters in UTF-8.
final class BadgeCodeTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? BadgeCode).map { Data($0.letters.utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { BadgeCode(String(decoding: $0, as: UTF8.self)) }
    }
}

/// A model whose unique attribute is stored through a value transformer.
@Model final class Badge {
    @Attribute(.unique, .transformable(by: BadgeCodeTransformer.self)) var code: BadgeCode
    var holder: String

    init(code: String, holder: String) {
        self.code = BadgeCode(code)
        self.holder = holder
    }
}

/// A model whose unique attribute is stored as its encoded `Codable` form.
@Model final class BoardingPass {
    /// A seat, stored as JSON.
    struct Seat: Codable, Hashable {
        var row: String
        var number: Int
    }

    @Attribute(.unique, .codable) var seat: Seat
    var holder: String

    init(row: String, number: Int, holder: String) {
        seat = Seat(row: row, number: number)
        self.holder = holder
    }
}

/// A new model whose unique attribute has a custom stored form (`.transformable`, `.codable`) takes the stored row
/// holding the same value, as any unique attribute's does: the save looks the row up by the value as the row holds it.
/// Before, it looked the value up in another form, found no row, and the insert failed on the store's unique index.
@Suite struct TransformableUniqueUpsertTests {
    @Test(arguments: StoreKind.all) func aTransformableUniqueValueFindsItsStoredRow(store: StoreKind) throws {
        let container = try store.makeContainer(Badge.self)
        let context = ModelContext(container)
        let first = Badge(code: "AB", holder: "Ann")
        context.insert(first)
        context.insert(Badge(code: "CD", holder: "Cy"))
        try context.save()

        let second = Badge(code: "AB", holder: "Bob")
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID == first.persistentModelID, "the new model takes the stored row")
        let stored = try ModelContext(container).fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.holder)]))
        #expect(stored.map(\.holder) == ["Bob", "Cy"])
        #expect(stored.map(\.code.letters) == ["AB", "CD"])
    }

    @Test(arguments: StoreKind.all) func twoNewModelsWithOneTransformableValueBecomeOne(store: StoreKind) throws {
        let container = try store.makeContainer(Badge.self)
        let context = ModelContext(container)
        let first = Badge(code: "AB", holder: "Ann")
        let second = Badge(code: "AB", holder: "Bob")
        context.insert(first)
        context.insert(second)
        try context.save()
        #expect(first.modelContext == nil && second.modelContext === context)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Badge>()).map(\.holder) == ["Bob"])
    }

    @Test(arguments: StoreKind.all) func aCodableUniqueValueFindsItsStoredRow(store: StoreKind) throws {
        let container = try store.makeContainer(BoardingPass.self)
        let context = ModelContext(container)
        let first = BoardingPass(row: "A", number: 1, holder: "Ann")
        context.insert(first)
        try context.save()

        let second = BoardingPass(row: "A", number: 1, holder: "Bob")
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID == first.persistentModelID)
        #expect(try ModelContext(container).fetch(FetchDescriptor<BoardingPass>()).map(\.holder) == ["Bob"])
    }
}
