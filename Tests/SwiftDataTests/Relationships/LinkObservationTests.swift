import Foundation
import Observation
import SwiftData
import Testing

@testable import ExampleModels

/// A to-one relationship that the context links instead of holding (see `_PersistentState`) still answers with the
/// same model, so linking it tells no observer that it changed; a real change still does.
@Suite struct LinkObservationTests {
    private func makeStore() throws -> ModelContainer {
        let container = try makeMemoryContainer(AnimalCategory.self)
        let context = ModelContext(container)
        let category = AnimalCategory(name: "birds")
        context.insert(category)
        category.animals = [Animal(name: "Robin", diet: .omnivorous), Animal(name: "Wren", diet: .carnivorous)]
        try context.save()
        return container
    }

    /// Walking an owner's members links each member's inverse to the owner it already held.
    @Test func walkingTheInverseDoesNotNotifyObserversOfTheToOne() throws {
        let context = ModelContext(try makeStore())
        let animal = try #require(
            try context.fetch(FetchDescriptor<Animal>(predicate: #Predicate { $0.name == "Robin" })).first)
        let category = try #require(animal.category)
        let fired = Flag()
        withObservationTracking {
            _ = animal.category
        } onChange: {
            fired.set()
        }
        #expect(category.animals.contains { $0 === animal })
        #expect(!fired.isSet, "linking animal.category to the same category is no change")
        #expect(animal.category === category)
        // A real change is still reported.
        withObservationTracking {
            _ = animal.category
        } onChange: {
            fired.set()
        }
        animal.category = nil
        #expect(fired.isSet)
    }

    /// A save links the saved to-one relationships whose targets hold their models back.
    @Test func savingDoesNotNotifyObserversOfALinkedToOne() throws {
        let context = ModelContext(try makeStore())
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>())
        let category = try #require(categories.first)
        let animal = Animal(name: "Finch", diet: .herbivorous)
        context.insert(animal)
        animal.category = category
        #expect(category.animals.contains { $0 === animal })
        let fired = Flag()
        withObservationTracking {
            _ = animal.category
        } onChange: {
            fired.set()
        }
        try context.save()
        #expect(!fired.isSet, "linking animal.category after the save is no change")
        #expect(animal.category === category)
    }
}
