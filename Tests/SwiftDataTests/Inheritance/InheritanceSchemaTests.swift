import Foundation
import SwiftData
import Testing

/// A subclass that forgot `@Model`: its properties would not be persisted, so a container refuses it.
final class Trailer: Media {
    var seconds = 0
}

/// The schema of a model hierarchy, in the shape of Apple's: superentities, subentities, inherited properties.
@Suite("Model inheritance: schema")
struct InheritanceSchemaTests {
    @Test func entitiesFormTheHierarchy() throws {
        let schema = Schema(mediaModels)
        let media = try #require(schema.entity(for: Media.self))
        let movie = try #require(schema.entity(for: Movie.self))
        let documentary = try #require(schema.entity(for: Documentary.self))
        let podcast = try #require(schema.entity(for: Podcast.self))
        #expect(media.superentity == nil && media.superentityName == nil)
        #expect(movie.superentity === media && movie.superentityName == "Media")
        #expect(documentary.superentity === movie)
        #expect(podcast.superentity === media)
        #expect(media.subentities == [movie, podcast])
        let feature = try #require(schema.entity(for: Feature.self))
        #expect(movie.subentities == [documentary, feature])
        #expect(documentary.subentities.isEmpty)
    }

    @Test func subentitiesInheritProperties() throws {
        let schema = Schema(mediaModels)
        let documentary = try #require(schema.entity(for: Documentary.self))
        #expect(documentary.storedProperties.map(\.name) == ["subject", "clips"])
        #expect(
            documentary.inheritedProperties.map(\.name) == ["title", "year", "reviews", "shelf", "director", "runtime"])
        #expect(documentary.properties.count == 8)
        #expect(Set(documentary.attributesByName.keys) == ["title", "year", "director", "runtime", "subject"])
        #expect(Set(documentary.relationshipsByName.keys) == ["reviews", "shelf", "clips"])
        // Inherited properties are the superentity's own descriptions.
        let movie = try #require(schema.entity(for: Movie.self))
        #expect(
            documentary.inheritedProperties[4] as? Schema.Attribute === movie.storedProperties[0] as? Schema.Attribute)
    }

    @Test func subclassKeyPathsNameInheritedProperties() throws {
        let schema = Schema(mediaModels)
        let documentary = try #require(schema.entity(for: Documentary.self))
        #expect(documentary.propertyIndex(for: \Documentary.title) == 0)
        #expect(documentary.propertyIndex(for: \Documentary.director) == 4)
        #expect(documentary.propertyIndex(for: \Documentary.clips) == 7)
        #expect(documentary.relationship(at: 3)?.name == "shelf")
        #expect(documentary.attribute(at: 6)?.name == "subject")
    }

    /// `relationship(at:)` and `attribute(at:)` (which every fetch asks of each property it reads) find the property
    /// of that index, whether the entity was read from its class, inherits, or was decoded, and nothing past the end.
    @Test func propertiesAreFoundByIndexAtEveryLevel() throws {
        let schema = Schema(mediaModels)
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        for entity in schema.entities + decoded.entities {
            let count = entity.indexedProperties.count
            #expect(count > 0)
            for index in -1...count {
                let relationship = entity.orderedRelationships.first { $0.index == index }
                let attribute = entity.orderedAttributes.first { $0.index == index }
                #expect(entity.relationship(at: index) === relationship, "\(entity.name) #\(index)")
                #expect(entity.attribute(at: index) === attribute, "\(entity.name) #\(index)")
                #expect((relationship == nil) != (attribute == nil) || !(0..<count).contains(index))
            }
        }
        let documentary = try #require(decoded.entitiesByName["Documentary"])
        #expect(documentary.relationship(at: 3)?.name == "shelf" && documentary.attribute(at: 3) == nil)
        #expect(documentary.attribute(at: 0)?.name == "title" && documentary.relationship(at: 0) == nil)
    }

    @Test func aSubclassBringsItsSuperclasses() throws {
        let schema = Schema([Documentary.self])
        #expect(Set(schema.entities.map(\.name)).isSuperset(of: ["Documentary", "Movie", "Media"]))
        #expect(schema.entity(for: Documentary.self)?.superentity?.superentity === schema.entity(for: Media.self))
        #expect(schema.entity(for: Podcast.self) == nil, "subclasses are in a schema when listed")
    }

    @Test func relationshipsToTheRootPairWithItsInverses() throws {
        let schema = Schema(mediaModels)
        let review = try #require(schema.entity(for: Review.self))
        let shelf = try #require(schema.entity(for: MediaShelf.self))
        let movie = try #require(schema.entity(for: Movie.self))
        #expect(review.relationshipsByName["media"]?.inverse?.name == "reviews")
        #expect(shelf.relationshipsByName["items"]?.inverse?.name == "shelf")
        // A subentity's inherited relationship is the same description, with the same inverse.
        #expect(movie.relationshipsByName["shelf"]?.inverse?.name == "items")
    }

    @Test func aCodedSchemaKeepsTheHierarchy() throws {
        let schema = Schema(mediaModels)
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        #expect(decoded == schema)
        let documentary = try #require(decoded.entitiesByName["Documentary"])
        #expect(documentary.superentity === decoded.entitiesByName["Movie"])
        #expect(documentary.superentity?.superentity === decoded.entitiesByName["Media"])
        #expect(decoded.entitiesByName["Media"]?.subentities.map(\.name).sorted() == ["Movie", "Podcast"])
        #expect(
            documentary.inheritedProperties.map(\.name) == ["title", "year", "reviews", "shelf", "director", "runtime"])
        #expect(documentary.relationship(at: 7)?.name == "clips")
    }

    @Test func aSubclassWithoutModelIsRefused() {
        #expect(throws: SwiftDataError.self) {
            _ = try ModelContainer(
                for: Trailer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
    }
}
