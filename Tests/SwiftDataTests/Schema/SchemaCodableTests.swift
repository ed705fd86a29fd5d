import Foundation
import SwiftData
import Testing

/// A model with indexes of both kinds.
@Model final class Place {
    #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
    #Index<Place>([\.name, \.latitude])
    #Unique<Place>([\.name])

    var name: String
    var latitude: Double
    var longitude: Double
    var elevation: Int?

    init(name: String, latitude: Double, longitude: Double, elevation: Int? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
    }
}

/// Schemas, entities and their properties are `Codable` as Apple's are, and round-trip; `Codable` structs are
/// composite attributes; `Schema.Unique` and `Schema.Index` describe constraints and indexes.
@Suite struct SchemaCodableTests {
    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }

    @Test func attributesRoundTrip() throws {
        let attribute = Schema.Attribute(
            name: "title", originalName: "name", options: [.unique, .spotlight], valueType: String?.self,
            defaultValue: "untitled", hashModifier: "v2")
        let decoded = try roundTrip(attribute)
        #expect(decoded == attribute)
        #expect(decoded.originalName == "name")
        #expect(ObjectIdentifier(decoded.valueType) == ObjectIdentifier(String?.self))
        #expect(decoded.isOptional && decoded.isUnique)
        #expect(decoded.defaultValue as? String == "untitled")
        #expect(decoded.hashModifier == "v2")

        let transformed = Schema.Attribute(
            name: "hue", options: [.transformable(by: HueTransformer.self)], valueType: Hue.self)
        #expect(try roundTrip(transformed).isTransformable)
    }

    @Test func relationshipsRoundTripWithoutKeyPaths() throws {
        let schema = Schema([Person.self, Message.self])
        let sender = try #require(schema.entitiesByName["Message"]?.relationshipsByName["sender"])
        let decoded = try roundTrip(sender)
        #expect(decoded == sender)
        #expect(decoded.destination == "Person" && decoded.inverseName == "sent")
        #expect(decoded.isToOneRelationship && decoded.deleteRule == .nullify)
        #expect(decoded.keypath == nil)
    }

    @Test func codableStructsAreCompositeAttributes() throws {
        let entity = try #require(Schema([Sample.self]).entitiesByName["Sample"])
        let address = try #require(entity.attributesByName["address"] as? Schema.CompositeAttribute)
        #expect(address.properties.map(\.name) == ["street", "city"])
        #expect(address.properties.allSatisfy { $0.valueType == String.self })
        let optional = try #require(entity.attributesByName["optionalAddress"] as? Schema.CompositeAttribute)
        #expect(optional.isOptional && optional.properties.count == 2)
        for name in ["shape", "tags", "scores", "mood", "date", "string"] {
            #expect(!(entity.attributesByName[name] is Schema.CompositeAttribute), "\(name)")
        }
        let decoded = try roundTrip(Schema.CompositeAttribute(name: "home", valueType: Address.self))
        #expect(decoded.properties.map(\.name) == ["street", "city"])
        #expect(decoded == Schema.CompositeAttribute(name: "home", valueType: Address.self))
    }

    @Test func compositeValuesPersistAndAreQueried() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Sample.self, in: directory))
            let sample = Sample()
            sample.address = Address(street: "1 Rue Cler", city: "Paris")
            context.insert(sample)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Sample.self, in: directory))
        let found = try context.fetch(FetchDescriptor<Sample>(predicate: #Predicate { $0.address.city == "Paris" }))
        #expect(found.map(\.address) == [Address(street: "1 Rue Cler", city: "Paris")])
    }

    @Test func schemasRoundTrip() throws {
        let schema = Schema(
            [Sample.self, Person.self, Message.self, Library.self, Node.self, Student.self, Place.self],
            version: Schema.Version(2, 1, 0))
        let decoded = try roundTrip(schema)
        #expect(decoded == schema)
        #expect(decoded.version == Schema.Version(2, 1, 0))
        #expect(decoded.entities.map(\.name) == schema.entities.map(\.name))
        let person = try #require(decoded.entitiesByName["Person"])
        #expect(person.relationshipsByName["passport"]?.inverseName == "holder")
        #expect(person.relationshipsByName["sent"]?.inverseName == "sender")
        #expect(decoded.entitiesByName["Place"]?.indices == [["name"], ["name", "latitude"]])
        #expect(decoded.entitiesByName["Place"]?.uniquenessConstraints == [["name"]])

        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        try schema.save(to: file)
        #expect(try Schema.load(from: file) == schema)
        try Data("not a schema".utf8).write(to: file)
        #expect(throws: SwiftDataError.unknownSchema) { try Schema.load(from: file) }
    }

    @Test func uniqueConstraintsAndIndexes() throws {
        let unique = Schema.Unique<Place>([\.name], [\.latitude, \.longitude])
        #expect(try roundTrip(unique) == unique)
        #expect(unique.isUnique)
        let index = Schema.Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
        #expect(try roundTrip(index) == index)
        #expect(Schema.Index<Place>([\.name]) == Schema.Index<Place>(.binary([\.name])))

        let entity = Schema.Entity("Place", properties: unique, Schema.Index<Place>([\.name, \.elevation]))
        #expect(entity.uniquenessConstraints == [["name"], ["latitude", "longitude"]])
        #expect(entity.indices == [["name", "elevation"]])
        #expect(entity.storedProperties.isEmpty)

        let fromModel = try #require(Schema([Place.self]).entitiesByName["Place"])
        #expect(fromModel.indices == [["name"], ["name", "latitude"]])
        #expect(fromModel.uniquenessConstraints == [["name"]])
    }
}
