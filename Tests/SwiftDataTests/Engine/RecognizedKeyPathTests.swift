import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQL

/// The shelf of `KeyPathBook`: a to-many relationship for `.count`, and the target of a to-one chain.
@Model final class KeyPathShelf {
    var label: String
    @Relationship(inverse: \KeyPathBook.shelf) var books: [KeyPathBook] = []
    init(label: String) { self.label = label }
}

/// A model with every kind of property a key path in the README and the articles reaches.
@Model final class KeyPathBook {
    var title: String
    var subtitle: String?
    var isRead: Bool = false
    var mood: Mood = Mood.calm
    var place = Address(street: "", city: "")
    var shelf: KeyPathShelf?
    init(title: String) { self.title = title }
}

/// `RecognizedKeyPath` against each key-path form the README and the DocC articles promise: what it recognizes,
/// what the SQL translator takes from it (`RelationshipKeyPath`, a whole chain to an attribute) and whether the fetch
/// sees it reading related models.
@Suite struct RecognizedKeyPathTests {
    let schema = Schema([KeyPathBook.self, KeyPathShelf.self] + mediaModels)

    func recognize<T: PersistentModel>(_ keyPath: PartialKeyPath<T>) throws -> RecognizedKeyPath {
        let entity = try #require(schema.entity(for: T.self))
        return RecognizedKeyPath(keyPath, from: entity, in: schema)
    }

    func chain<T: PersistentModel>(_ keyPath: PartialKeyPath<T>) throws -> RelationshipKeyPath? {
        RelationshipKeyPath(keyPath, from: try #require(schema.entity(for: T.self)), in: schema)
    }

    @Test func attributesOptionalOrNotAreRecognizedWhole() throws {
        for (keyPath, name) in [
            (\KeyPathBook.title, "title"), (\KeyPathBook.subtitle, "subtitle"),
            (\KeyPathBook.isRead, "isRead"), (\KeyPathBook.mood, "mood"), (\KeyPathBook.place, "place"),
        ]
            as [(PartialKeyPath<KeyPathBook>, String)]
        {
            let recognized = try recognize(keyPath)
            #expect(recognized.attribute?.name == name)
            #expect(recognized.isComplete && recognized.relationships.isEmpty && recognized.sortKey == nil)
            #expect(!recognized.readsRelatedModels)
            #expect(try chain(keyPath) == nil, "an attribute of the model itself is no chain")
        }
    }

    @Test func aToOneChainThroughAnOptionalIsAChainToTheAttribute() throws {
        let recognized = try recognize(\KeyPathBook.shelf?.label)
        #expect(recognized.relationships.map(\.name) == ["shelf"])
        #expect(recognized.attribute?.name == "label")
        #expect(recognized.isComplete && recognized.readsRelatedModels)
        let chain = try #require(try chain(\KeyPathBook.shelf?.label))
        #expect(chain.relationships.map(\.name) == ["shelf"] && chain.attribute.name == "label" && chain.sortKey == nil)
    }

    @Test func theSortKeysOfModelSortDescriptorsAreRecognized() throws {
        let localized = try #require(
            SortDescriptor(\KeyPathBook.shelf?.label, comparator: .localizedStandard).keyPath)
        let recognized = try recognize(localized)
        #expect(recognized.attribute?.name == "label" && recognized.sortKey == .localizedStandard)
        #expect(recognized.isComplete)
        #expect(try chain(localized)?.sortKey == .localizedStandard)

        let bool = try recognize(try #require(SortDescriptor(\KeyPathBook.isRead).keyPath))
        #expect(bool.attribute?.name == "isRead" && bool.sortKey == .bool && bool.isComplete)
    }

    @Test func aRelationshipItselfIsRecognizedAsOne() throws {
        for (keyPath, name) in [(\KeyPathBook.shelf, "shelf")] as [(PartialKeyPath<KeyPathBook>, String)] {
            let recognized = try recognize(keyPath)
            guard case .relationship(let relationship)? = recognized.property else {
                Issue.record("\(keyPath) is not recognized as a relationship")
                continue
            }
            #expect(relationship.name == name && recognized.isComplete && recognized.readsRelatedModels)
            #expect(try chain(keyPath) == nil)
        }
        let books = try recognize(\KeyPathShelf.books)
        guard case .relationship(let relationship)? = books.property else {
            Issue.record("\\KeyPathShelf.books is not recognized as a relationship")
            return
        }
        #expect(relationship.name == "books" && books.isComplete)
    }

    @Test func aToManyCountEndsAtTheRelationshipWithTheCountLeftOver() throws {
        let recognized = try recognize(\KeyPathShelf.books.count)
        guard case .relationship(let relationship)? = recognized.property else {
            Issue.record("\\KeyPathShelf.books.count does not end at the relationship")
            return
        }
        #expect(relationship.name == "books")
        #expect(!recognized.isComplete && recognized.readsRelatedModels)
        #expect(try chain(\KeyPathShelf.books.count) == nil, "SQL does not sort by it: it sorts in memory")
    }

    @Test func aCodableMemberEndsAtItsAttributeWithTheMemberLeftOver() throws {
        let recognized = try recognize(\KeyPathBook.place.city)
        #expect(recognized.attribute?.name == "place")
        #expect(!recognized.isComplete && !recognized.readsRelatedModels)
        #expect(try chain(\KeyPathBook.place.city) == nil)
    }

    @Test func aForceUnwrappedToOneIsNoChain() throws {
        let recognized = try recognize(\KeyPathBook.shelf!.label)
        #expect(!recognized.isComplete && recognized.readsRelatedModels)
        #expect(try chain(\KeyPathBook.shelf!.label) == nil)
    }

    @Test func theOwnKeyPathsOfAHierarchysPropertiesAreRecognized() throws {
        #expect(try recognize(\Movie.title).attribute?.name == "title", "inherited from the root")
        #expect(try recognize(\Documentary.director).attribute?.name == "director", "inherited from the middle")
        #expect(try recognize(\Documentary.subject).attribute?.name == "subject")
        let shelf = try recognize(\Movie.shelf)
        #expect(shelf.readsRelatedModels && shelf.isComplete, "an inherited relationship")
    }

    /// A chain through a property of a class with subclasses, or through a subclass, is described with accessors
    /// other than the schema's: it is not recognized, so such a sort runs in memory (correctly, and more slowly).
    @Test func chainsThroughAHierarchyAreNotRecognized() throws {
        for keyPath in [\Review.media?.title, \Movie.shelf?.name, \Feature.studio?.name] as [AnyKeyPath] {
            let root = try #require(schema.entitiesByName[String(describing: type(of: keyPath).rootType)])
            let recognized = RecognizedKeyPath(keyPath, from: root, in: schema)
            #expect(!recognized.isComplete, "\(keyPath)")
            #expect(RelationshipKeyPath(keyPath, from: root, in: schema) == nil)
        }
        // The chain from a model outside the hierarchy is recognized up to the hierarchy's property.
        #expect(try recognize(\Review.media?.title).relationships.map(\.name) == ["media"])
    }

    @Test func theModelItselfIsTheIdentity() throws {
        let recognized = try recognize(\KeyPathBook.self)
        #expect(recognized.isIdentity && recognized.isComplete && recognized.property == nil)
        #expect(!recognized.readsRelatedModels)
    }

    @Test func propertiesOutsideTheSchemaAreNotRecognized() throws {
        let recognized = try recognize(\KeyPathBook.persistentModelID)
        #expect(recognized.property == nil && !recognized.isComplete && !recognized.isIdentity)
        let length = try recognize(\KeyPathBook.title.count)
        #expect(length.attribute?.name == "title" && !length.isComplete)
    }
}
