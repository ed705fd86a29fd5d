import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Relationship predicates with unsaved changes, deleted related rows and parts left to memory select what
/// `Predicate.evaluate` selects on the context's models.
@Suite struct RelationshipPredicateChangesTests {
    let container: ModelContainer
    let context: ModelContext

    /// Mammal (Dog, Cat, Cow), Bird (Sparrow), Fish (none); Newt has no category.
    init() throws {
        container = try makeMemoryContainer(AnimalCategory.self, Person.self, Library.self)
        context = ModelContext(container)
        let mammal = AnimalCategory(name: "Mammal")
        mammal.animals = ["Dog", "Cat", "Cow"].map { Animal(name: $0, diet: .carnivorous) }
        let bird = AnimalCategory(name: "Bird")
        bird.animals = [Animal(name: "Sparrow", diet: .omnivorous)]
        [mammal, bird, AnimalCategory(name: "Fish")].forEach(context.insert)
        context.insert(Animal(name: "Newt", diet: .carnivorous))
        try context.save()
    }

    func category(_ name: String) throws -> AnimalCategory {
        try #require(
            try context.fetch(FetchDescriptor<AnimalCategory>(predicate: #Predicate { $0.name == name })).first)
    }

    func animal(_ name: String) throws -> Animal {
        try #require(try context.fetch(FetchDescriptor<Animal>(predicate: #Predicate { $0.name == name })).first)
    }

    /// The names a fetch selects, after checking that they are the models `evaluate` selects among all of them.
    func fetched<T: PersistentModel>(
        _ predicate: Predicate<T>, _ name: (T) -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let models = try context.fetch(FetchDescriptor(predicate: predicate))
        let all = try context.fetch(FetchDescriptor<T>())
        let expected = try all.filter(predicate.evaluate)
        #expect(
            Set(models.map(ObjectIdentifier.init)) == Set(expected.map(ObjectIdentifier.init)),
            sourceLocation: sourceLocation)
        return models.map(name).sorted()
    }

    @Test func unsavedChangesOfRelatedModels() throws {
        try category("Mammal").name = "Beast"
        let beasts = #Predicate<Animal> { $0.category?.name == "Beast" }
        #expect(try fetched(beasts, \.name) == ["Cat", "Cow", "Dog"], "a renamed category, not saved")
        var stored = FetchDescriptor(predicate: beasts)
        stored.includePendingChanges = false
        #expect(try context.fetch(stored).isEmpty, "the store still has the old name")

        try animal("Newt").category = try category("Bird")
        let pairs = #Predicate<AnimalCategory> { $0.animals.count == 2 }
        #expect(try fetched(pairs, \.name) == ["Bird"], "an animal moved, not saved")
        let cow = try animal("Cow")
        try category("Beast").animals.removeAll { $0 === cow }
        #expect(try fetched(pairs, \.name) == ["Beast", "Bird"])
        #expect(try fetched(#Predicate<Animal> { $0.category == nil }, \.name) == ["Cow"])

        let fish = try category("Fish")
        context.insert(Animal(name: "Trout", diet: .carnivorous))
        try animal("Trout").category = fish
        #expect(try fetched(#Predicate<AnimalCategory> { $0.animals.isEmpty }, \.name).isEmpty)
        #expect(
            try context.fetchCount(FetchDescriptor(predicate: #Predicate<AnimalCategory> { $0.animals.isEmpty })) == 0)
    }

    @Test func sortingByUnsavedValuesOfRelatedModels() throws {
        try category("Bird").name = "Reptile"
        let sortBy = [SortDescriptor(\Animal.category?.name), SortDescriptor(\Animal.name)]
        var descriptor = FetchDescriptor(sortBy: sortBy)
        descriptor.fetchLimit = 3
        #expect(try context.fetch(descriptor).map(\.name) == ["Newt", "Cat", "Cow"], "Mammal before Reptile")
        let all = try context.fetch(FetchDescriptor<Animal>())
        #expect(try context.fetch(FetchDescriptor(sortBy: sortBy)) == all.sorted(using: sortBy))
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).map(\.name) == ["Newt", "Sparrow", "Cat"], "the store's order")
    }

    @Test func deletedRelatedModels() throws {
        let bird = try category("Bird")
        let sparrow = try #require(bird.animals.first)
        context.delete(bird)
        let birds = #Predicate<Animal> { $0.category?.name == "Bird" }
        #expect(try fetched(birds, \.name).isEmpty, "the cascade deleted Sparrow at once")
        #expect(
            sparrow.isDeleted && sparrow.category === bird, "until the save, a deleted model stays in its relationships"
        )
        try context.save()
        #expect(try fetched(birds, \.name).isEmpty)
        #expect(try fetched(#Predicate<Animal> { $0.category == nil }, \.name) == ["Newt"], "the cascade took Sparrow")

        let (alice, ben) = (Person(name: "Alice"), Person(name: "Ben"))
        let message = Message(text: "hi")
        message.sender = alice
        message.recipient = ben
        context.insert(message)
        try context.save()
        context.delete(alice)
        try context.save()
        #expect(try fetched(#Predicate<Message> { $0.sender == nil && $0.recipient?.name == "Ben" }, \.text) == ["hi"])
    }

    /// `delete(model:where:)` through relationships runs in SQL; one whose untranslated part would be evaluated on
    /// bare rows, which have no relationships, is refused rather than deleting the wrong models.
    @Test func batchDeletesThroughRelationships() throws {
        let (_, log) = try capturingLog {
            try context.delete(model: Animal.self, where: #Predicate { $0.category?.name == "Mammal" })
            #expect(try fetched(#Predicate<Animal> { $0.category != nil }, \.name) == ["Sparrow"])
            try context.save()
            #expect(try context.fetch(FetchDescriptor<Animal>()).map(\.name).sorted() == ["Newt", "Sparrow"])
            #expect(throws: SwiftDataError.unsupportedPredicate) {
                try context.delete(
                    model: Animal.self, where: #Predicate { $0.category.flatMap { $0.name.count == 4 } == true })
            }
            let bird = try category("Bird").persistentModelID
            #expect(throws: SwiftDataError.unsupportedPredicate) {
                try context.delete(
                    model: AnimalCategory.self, where: #Predicate { $0.persistentModelID == bird || $0.name.count == 4 }
                )
            }
            #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 2 && !context.hasChanges)
        }
        #expect(log.count == 2, "\(log)")
        #expect(
            log.allSatisfy {
                $0.hasPrefix("SwiftData warning: part of a predicate on Animal")
                    || $0.hasPrefix("SwiftData warning: part of a predicate on AnimalCategory")
            }, "\(log)")
    }

    /// With `.noAction`, a row can keep the key of a deleted row. Reading that model's values stops the program (as
    /// Apple's does); SQL reads no values, as of `nil`, and does not stop.
    @Test func keysOfDeletedRowsUnderNoAction() throws {
        let (city, annex) = (Library(name: "City"), Library(name: "Annex"))
        let book = Book(title: "Dune")
        book.archive = annex
        [city, annex].forEach(context.insert)
        context.insert(book)
        try context.save()
        context.delete(annex)
        try context.save()

        let fresh = ModelContext(container)
        let orphaned = try fresh.fetch(FetchDescriptor(predicate: #Predicate<Book> { $0.archive?.name == nil }))
        #expect(orphaned.map(\.title) == ["Dune"])
        #expect(try fresh.fetch(FetchDescriptor(predicate: #Predicate<Book> { $0.archive == nil })).isEmpty)
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: #Predicate<Library> { $0.archived.isEmpty })) == 1)
    }

    /// A part SQL cannot express (`String.count`) runs in memory on the candidates SQL selects; the relationships it
    /// reads load lazily, in a few batched queries.
    @Test func partsLeftToMemoryFaultRelationshipsIn() throws {
        let (_, log) = try capturingLog {
            let fresh = ModelContext(container)
            let store = try sqliteStore(container)
            let entity = try fresh.binding(for: AnimalCategory.self).entity
            let short = #Predicate<AnimalCategory> { $0.animals.contains { $0.name.count == 3 } }
            #expect(!store.plan(FetchRequest(entity: entity, predicate: short, properties: [])).coverage.predicate)
            let log = StatementLog(container)
            #expect(try fresh.fetch(FetchDescriptor(predicate: short)).map(\.name) == ["Mammal"])
            #expect(log.selects.count == 2, "the categories, then the animals of all of them: \(log.selects)")

            let narrowed = #Predicate<Animal> { $0.category?.name == "Mammal" && $0.name.count == 3 }
            #expect(try fresh.fetch(FetchDescriptor(predicate: narrowed)).map(\.name) == ["Dog", "Cat", "Cow"])
            let animalEntity = try fresh.binding(for: Animal.self).entity
            let plan = store.plan(FetchRequest(entity: animalEntity, predicate: narrowed, properties: []))
            #expect(plan.predicate?.condition != nil && plan.predicate?.isExact == false, "SQL narrows the candidates")
        }
        #expect(log.count == 2, "\(log)")
        #expect(
            log.allSatisfy {
                $0.hasPrefix("SwiftData warning: part of a predicate on Animal")
                    || $0.hasPrefix("SwiftData warning: part of a predicate on AnimalCategory")
            }, "\(log)")
    }
}
