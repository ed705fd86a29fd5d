import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// What a fetch works out before it reads rows, taken from shortcuts where it can: the relationships of the
/// properties it reads come from the model's binding when it reads all of them, and the checks of unsaved changes
/// that read the predicate and the sort are skipped when the context has none. These tests fail if a shortcut
/// gives another answer than the long way.
@Suite struct FetchSetUpTests {
    let container: ModelContainer

    /// Dog and Cat are mammals, Sparrow a bird, Newt has no category.
    init() throws {
        container = try makeMemoryContainer(AnimalCategory.self)
        let context = ModelContext(container)
        let mammal = AnimalCategory(name: "Mammal")
        mammal.animals = ["Dog", "Cat"].map { Animal(name: $0, diet: .carnivorous) }
        let bird = AnimalCategory(name: "Bird")
        bird.animals = [Animal(name: "Sparrow", diet: .omnivorous)]
        [mammal, bird].forEach(context.insert)
        context.insert(Animal(name: "Newt", diet: .carnivorous))
        try context.save()
    }

    func categories(_ animals: [Animal]) -> [String] {
        animals.map { "\($0.name):\($0.category?.name ?? "-")" }
    }

    @Test func toOneRelationshipsLoadWhetherAFetchReadsEveryPropertyOrSome() throws {
        let expected = ["Cat:Mammal", "Dog:Mammal", "Newt:-", "Sparrow:Bird"]
        let all = FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)])
        #expect(categories(try ModelContext(container).fetch(all)) == expected)
        // Some attributes only: the foreign key still comes along, at another position among the properties read.
        var some = all
        some.propertiesToFetch = [\.name]
        let context = ModelContext(container)
        let partial = try context.fetch(some)
        #expect(categories(partial) == expected)
        // A second fetch of every property refreshes the same models, still related.
        #expect(try context.fetch(all).map(ObjectIdentifier.init) == partial.map(ObjectIdentifier.init))
        #expect(categories(partial) == expected)
    }

    @Test func unsavedChangesOfOtherModelsStillReachPredicatesAndSorts() throws {
        let context = ModelContext(container)
        let predicate = #Predicate<Animal> { $0.category?.name == "Mammal" }
        let sorted = FetchDescriptor<Animal>(
            predicate: #Predicate { $0.category != nil }, sortBy: [SortDescriptor(\.category?.name)])
        // No unsaved changes: the store runs both.
        #expect(try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name).sorted() == ["Cat", "Dog"])
        #expect(try context.fetch(sorted).map(\.name).first == "Sparrow")
        // An unsaved change of a category only (no animal changed): the predicate and the sort see it.
        let bird = try #require(
            try context.fetch(FetchDescriptor<AnimalCategory>(predicate: #Predicate { $0.name == "Bird" })).first)
        bird.name = "Mammal"
        #expect(
            try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name).sorted() == ["Cat", "Dog", "Sparrow"])
        bird.name = "Zebra finch"
        #expect(try context.fetch(sorted).map(\.name).last == "Sparrow")
        // Saved, the store runs them again, with the same answers.
        try context.save()
        #expect(try context.fetch(sorted).map(\.name).last == "Sparrow")
    }
}
