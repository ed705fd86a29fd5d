import Foundation
import SwiftData
import Testing

/// A value whose encoding always fails.
struct Unencodable: Codable, Hashable {
    var text: String

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(text, .init(codingPath: [], debugDescription: "it never encodes"))
    }
}

/// A model whose second attribute cannot be encoded.
@Model final class BrokenRow {
    var name: String
    var payload: Unencodable

    init(name: String, payload: Unencodable) {
        self.name = name
        self.payload = payload
    }
}

/// A model whose unique attribute cannot be encoded.
@Model final class BrokenUniqueRow {
    @Attribute(.unique) var payload: Unencodable

    init(payload: Unencodable) { self.payload = payload }
}

/// A model of every kind of attribute a row writes, converted ones among plain ones, and a to-one relationship.
@Model final class MixedRow {
    var name: String
    var count: Int
    var note: String?
    var mood: Mood
    var optionalMood: Mood?
    var level: Level = Level.low
    var address = Address(street: "", city: "")
    @Attribute(.transformable(by: HueTransformer.self)) var hue: Hue
    @Attribute(.codable) var swatches: [String] = []
    @Attribute(.externalStorage) var picture = Data()
    var owner: RowOwner?

    init(name: String, count: Int, mood: Mood, hue: Hue) {
        self.name = name
        self.count = count
        self.mood = mood
        self.hue = hue
    }
}

/// The owner of `MixedRow`s.
@Model final class RowOwner {
    var name: String
    @Relationship(inverse: \MixedRow.owner) var rows: [MixedRow] = []

    init(name: String) { self.name = name }
}

/// A save binds each attribute of a row through the model's generated code or Core's conversion: every kind of
/// value reads back, in inserts and in updates of some attributes, and an error binding one names the model and the
/// property.
@Suite struct RowWriteTests {
    @Test(arguments: StoreKind.all) func everyKindOfAttributeReadsBack(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try makeContainer(MixedRow.self, RowOwner.self, in: location))
            let owner = RowOwner(name: "owner")
            context.insert(owner)
            for index in 0..<3 {
                let row = MixedRow(name: "row \(index)", count: index, mood: .grumpy, hue: Hue(degrees: Double(index)))
                row.note = index == 0 ? nil : "note \(index)"
                row.optionalMood = index == 1 ? .happy : nil
                row.level = .high
                row.address = Address(street: "\(index) Main St", city: "Springfield")
                row.swatches = ["red", "\(index)"]
                row.picture = Data(repeating: UInt8(index), count: 100_000)
                row.owner = index == 2 ? nil : owner
                context.insert(row)
            }
            try context.save()
            // Updates of some attributes: plain ones alone, and with converted ones.
            let rows = try context.fetch(FetchDescriptor<MixedRow>(sortBy: [SortDescriptor(\.count)]))
            rows[0].count = 10
            rows[0].note = "changed"
            rows[1].mood = .calm
            rows[1].hue = Hue(degrees: 90)
            rows[1].picture = Data([1, 2, 3])
            rows[2].owner = owner
            try context.save()
        }
        let context = ModelContext(try makeContainer(MixedRow.self, RowOwner.self, in: location))
        let rows = try context.fetch(FetchDescriptor<MixedRow>(sortBy: [SortDescriptor(\.name)]))
        try #require(rows.count == 3)
        #expect(rows.map(\.count) == [10, 1, 2])
        #expect(rows.map(\.note) == ["changed", "note 1", "note 2"])
        #expect(rows.map(\.mood) == [.grumpy, .calm, .grumpy])
        #expect(rows.map(\.optionalMood) == [nil, .happy, nil])
        #expect(rows.allSatisfy { $0.level == .high })
        #expect(rows.map(\.address.street) == ["0 Main St", "1 Main St", "2 Main St"])
        #expect(rows.map(\.hue.degrees) == [0, 90, 2])
        #expect(rows.map(\.swatches) == [["red", "0"], ["red", "1"], ["red", "2"]])
        #expect(
            rows.map(\.picture) == [
                Data(repeating: 0, count: 100_000), Data([1, 2, 3]), Data(repeating: 2, count: 100_000),
            ])
        #expect(rows.map { $0.owner?.name } == ["owner", "owner", "owner"])
    }

    @Test(arguments: StoreKind.all) func anEncodingErrorNamesTheModelAndTheProperty(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(BrokenRow.self))
        context.insert(BrokenRow(name: "broken", payload: Unencodable(text: "x")))
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error == SwiftDataError.modelValidationFailure)
        #expect(error.modelName == "BrokenRow")
        #expect(error.propertyName == "payload")
        #expect(error.reason?.contains("it never encodes") == true, "\(error)")
    }

    @Test(arguments: StoreKind.all) func anEncodingErrorOfAUniqueValueNamesTheModelAndTheProperty(store: StoreKind)
        throws
    {
        let context = ModelContext(try store.makeContainer(BrokenUniqueRow.self))
        context.insert(BrokenUniqueRow(payload: Unencodable(text: "x")))
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error == SwiftDataError.modelValidationFailure)
        #expect(error.modelName == "BrokenUniqueRow")
        #expect(error.propertyName == "payload")
        // Nothing was written: the store holds no row.
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<BrokenUniqueRow>()) == 0)
    }
}
