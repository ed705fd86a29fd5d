import Foundation
import SwiftData

// Apple's SwiftDataAnimals sample model, as written.

@Model
final class AnimalCategory {
    @Attribute(.unique) var name: String
    // `.cascade` tells SwiftData to delete all animals contained in the
    // category when deleting it.
    @Relationship(deleteRule: .cascade, inverse: \Animal.category) var animals: [Animal] = []

    init(name: String) {
        self.name = name
    }
}
