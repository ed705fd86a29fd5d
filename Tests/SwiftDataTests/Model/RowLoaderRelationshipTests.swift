import Foundation
import SwiftData
import Testing

@testable import ExampleModels

/// A model whose row holds to-one relationships besides its attributes (`Animal`: two attributes, then its
/// category's key) loads the row in one call of its generated `_$loadRow`, which leaves the relationships to the
/// context: they resolve to the registered model, a model that loads when first read, no model, or a link to the
/// owner whose members are loading.
@Suite struct RowLoaderRelationshipTests {
    /// Fills a store with two categories of three animals each, and two animals without a category.
    private func makeStore(in directory: TemporaryDirectory) throws {
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        for name in ["birds", "fish"] {
            let category = AnimalCategory(name: name)
            context.insert(category)
            category.animals = (0..<3).map { Animal(name: "\(name) \($0)", diet: .omnivorous) }
        }
        context.insert(Animal(name: "stray 0", diet: .carnivorous))
        context.insert(Animal(name: "stray 1", diet: .herbivorous))
        try context.save()
    }

    @Test func fetchedRowsResolveTheirToOneRelationships() throws {
        let directory = TemporaryDirectory()
        try makeStore(in: directory)
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        // Animals first: their categories are not registered yet.
        let animals = try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(
            animals.map(\.name) == [
                "birds 0", "birds 1", "birds 2", "fish 0", "fish 1", "fish 2", "stray 0", "stray 1",
            ])
        #expect(animals.map(\.diet) == Array(repeating: .omnivorous, count: 6) + [.carnivorous, .herbivorous])
        #expect(animals.map { $0.category?.name } == ["birds", "birds", "birds", "fish", "fish", "fish", nil, nil])
        #expect(animals.allSatisfy { !$0.hasChanges })
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
        #expect(animals[0].category === categories[0] && animals[3].category === categories[1])
        // Walking the categories links each animal's category to its owner, the same model.
        for category in categories {
            #expect(category.animals.count == 3)
            for animal in category.animals {
                #expect(animal.category === category)
                #expect(animals.contains { $0 === animal })
            }
        }
    }

    @Test func membersLoadedByAWalkLinkToTheirOwner() throws {
        let directory = TemporaryDirectory()
        try makeStore(in: directory)
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
        // Categories first: the animals load with the walk, each new, its category a link to the walked owner.
        var walked: [Animal] = []
        for category in categories {
            let members = category.animals.sorted { $0.name < $1.name }
            #expect(members.map(\.name) == (0..<3).map { "\(category.name) \($0)" })
            for animal in members { #expect(animal.category === category) }
            walked += members
        }
        let fetched = try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(fetched.count == 8)
        for animal in walked { #expect(fetched.contains { $0 === animal }) }
        #expect(fetched.filter { $0.category == nil }.map(\.name) == ["stray 0", "stray 1"])
        // Changing a walked member's category is recorded as a change and kept in step with the inverse.
        walked[0].category = categories[1]
        #expect(walked[0].hasChanges)
        #expect(categories[1].animals.contains { $0 === walked[0] })
        #expect(!categories[0].animals.contains { $0 === walked[0] })
    }

    @Test func aValueOfTheWrongTypeInARowWithRelationshipsNamesItsProperty() throws {
        let directory = TemporaryDirectory()
        try makeStore(in: directory)
        _ = try sqlite(directory.store(), "UPDATE Animal SET name = x'41' WHERE name = 'fish 1'")
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Animal>()) }
        #expect(error.modelName == "Animal")
        #expect(error.propertyName == "name")
    }

    /// A to-one relationship's column that holds no key names the model and the relationship, as an attribute does.
    @Test func aKeyOfTheWrongTypeNamesItsRelationship() throws {
        let directory = TemporaryDirectory()
        try makeStore(in: directory)
        _ = try sqlite(directory.store(), "UPDATE Animal SET category = 'birds' WHERE name = 'birds 1'")
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Animal>()) }
        #expect(error.modelName == "Animal")
        #expect(error.propertyName == "category")
    }
}
