import Foundation
import SwiftData
import Testing

/// Declarations of Apple's SwiftData that programs written for it use, each used as Apple documents it.
@Suite struct DocumentedDeclarationsTests {
    @Test func anEntityWithSubentitiesIsBuiltByHand() {
        let dog = Schema.Entity("Dog", properties: Schema.Attribute(name: "breed", valueType: String.self))
        let animal = Schema.Entity(
            "Animal", subentities: dog, properties: Schema.Attribute(name: "name", valueType: String.self))
        #expect(animal.subentities.map(\.name) == ["Dog"])
        #expect(dog.superentity === animal)
        #expect(Set(dog.attributes.map(\.name)) == ["name", "breed"], "the subentity inherits the attributes")
    }

    @Test func settingAttributesAndRelationshipsReplacesAnEntitysOwn() {
        let entity = Schema.Entity(
            "Note", properties: Schema.Attribute(name: "title", valueType: String.self),
            Schema.Attribute(name: "body", valueType: String.self))
        let title = Schema.Attribute(name: "title", valueType: String.self)
        entity.attributes = [title, Schema.Attribute(name: "words", valueType: Int.self)]
        #expect(entity.storedProperties.map(\.name) == ["title", "words"])
        #expect(entity.attributesByName["words"] != nil && entity.attributesByName["body"] == nil)
        #expect(entity.relationships.isEmpty)
        entity.relationships = []
        #expect(entity.attributes.count == 2, "setting the relationships keeps the attributes")
    }

    @Test func snapshotCodingKeys() {
        let identifier = DataStoreSnapshotCodingKey.persistentIdentifier
        let property = DataStoreSnapshotCodingKey.modeledProperty("title")
        #expect(identifier.stringValue == "persistentIdentifier" && identifier.intValue == nil)
        #expect(property.stringValue == "title" && property.description == "title")
        #expect(DataStoreSnapshotCodingKey(stringValue: "title")?.stringValue == "title")
        let identifierKey = DataStoreSnapshotCodingKey(stringValue: "persistentIdentifier")
        if case .persistentIdentifier? = identifierKey {} else { Issue.record("that string names the identifier") }
        #expect(DataStoreSnapshotCodingKey(intValue: 0) == nil)
        let value: any DataStoreSnapshotValue = "text"
        #expect(value as? String == "text")
    }

    @Test func aSaveResultCarriesAHistoryToken() {
        let token = DefaultHistoryToken(positions: ["store": 3])
        let result = DataStoreSaveChangesResult<DefaultSnapshot>(
            for: "store", remappedIdentifiers: [:], snapshotsToReregister: [:], historyToken: token)
        #expect((result.historyToken as? DefaultHistoryToken) == token)
        #expect(DataStoreSaveChangesResult<DefaultSnapshot>(for: "store").historyToken == nil)
        let type: DefaultStore.TokenType.Type = DefaultHistoryToken.self
        #expect(type == DefaultHistoryToken.self)
    }

    @Test func resultsSectionsAreEquatable() {
        func equatable<T: Equatable>(_: T.Type) -> Bool { true }
        #expect(equatable(ResultsSection<RLoose, Int>.self))
    }
}
