import Foundation
import SwiftData
import Testing

/// A model saved in turn with `InterleavedPin`.
@Model final class InterleavedCard {
    var number: Int

    init(number: Int) { self.number = number }
}

/// A model saved in turn with `InterleavedCard`.
@Model final class InterleavedPin {
    var number: Int

    init(number: Int) { self.number = number }
}

/// A save groups the rows it writes by entity: rows of entities that come in turn (a card, a pin, a card, ...) each
/// reach their own entity's batch, none lost or written to another entity's table.
@Suite struct SaveInterleavedEntitiesTests {
    /// Inserted and then changed in turn, cards and pins are all stored with their values.
    @Test(arguments: StoreKind.all) func modelsOfEntitiesInTurnAreAllWritten(store: StoreKind) throws {
        let container = try store.makeContainer(InterleavedCard.self, InterleavedPin.self)
        let context = ModelContext(container)
        var cards: [InterleavedCard] = []
        var pins: [InterleavedPin] = []
        for number in 0..<6 {
            let card = InterleavedCard(number: number)
            let pin = InterleavedPin(number: 100 + number)
            context.insert(card)
            context.insert(pin)
            cards.append(card)
            pins.append(pin)
        }
        try context.save()
        #expect(try Self.stored(container) == (Array(0..<6), Array(100..<106)))

        for (card, pin) in zip(cards, pins) {
            card.number += 10
            pin.number += 10
        }
        try context.save()
        #expect(try Self.stored(container) == (Array(10..<16), Array(110..<116)))
    }

    /// The numbers of the stored cards and pins, read by a context of their own, in order.
    private static func stored(_ container: ModelContainer) throws -> ([Int], [Int]) {
        let context = ModelContext(container)
        let cards = try context.fetch(FetchDescriptor<InterleavedCard>(sortBy: [SortDescriptor(\.number)]))
        let pins = try context.fetch(FetchDescriptor<InterleavedPin>(sortBy: [SortDescriptor(\.number)]))
        return (cards.map(\.number), pins.map(\.number))
    }
}
