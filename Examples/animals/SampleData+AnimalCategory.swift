import SwiftData

extension AnimalCategory {
    /// The names of the sample categories.
    static let sampleNames = ["Amphibian", "Bird", "Fish", "Invertebrate", "Mammal", "Reptile"]

    /// Inserts the sample categories and their animals, as the sample's "Insert Sample Data" button does.
    static func insertSampleData(modelContext: ModelContext) {
        let animals = Animal.samples
        for name in sampleNames {
            // Add the animal category to the model context.
            let category = AnimalCategory(name: name)
            modelContext.insert(category)
            // Add its animals to the model context, and set their category.
            for animal in animals[name] ?? [] {
                modelContext.insert(animal)
                animal.category = category
            }
        }
    }

    /// Deletes every category (their animals go with them, by the cascade rule), then inserts the samples again,
    /// before any save: the sample's "Reload Sample Data" button, exactly. The new categories have the names of
    /// deleted ones (`name` is unique); the delete never touches them. Animals without a category stay.
    static func reloadSampleData(modelContext: ModelContext) throws {
        try modelContext.delete(model: AnimalCategory.self)
        insertSampleData(modelContext: modelContext)
    }
}
