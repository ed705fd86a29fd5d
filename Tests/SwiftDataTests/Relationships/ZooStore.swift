import SwiftData

@testable import ExampleModels

extension StoreLocation {
    /// A store of `categories` animal categories of three animals each, saved one after another (so their keys follow
    /// each other), and an animal without a category saved last: the store the tests of loading a relationship's
    /// members walk.
    func zoo(categories: Int) throws -> ModelContainer {
        let container = try container(AnimalCategory.self)
        let context = ModelContext(container)
        for index in 0..<categories {
            let category = AnimalCategory(name: "c\(index)")
            category.animals = (0..<3).map { Animal(name: "a\(index)-\($0)", diet: .omnivorous) }
            context.insert(category)
            try context.save()
        }
        context.insert(Animal(name: "stray", diet: .carnivorous))
        try context.save()
        return container
    }
}
