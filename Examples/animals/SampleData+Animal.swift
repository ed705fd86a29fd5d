import SwiftData

extension Animal {
    /// The sample animals of each sample category, by category name. New models on every call: a model deleted by
    /// `reloadSampleData` cannot be inserted again.
    static var samples: [String: [Animal]] {
        [
            "Amphibian": [Animal(name: "Newt", diet: .carnivorous), Animal(name: "Tree frog", diet: .carnivorous)],
            "Bird": [
                Animal(name: "House sparrow", diet: .omnivorous), Animal(name: "Emperor penguin", diet: .carnivorous),
            ],
            "Fish": [Animal(name: "Clownfish", diet: .omnivorous)],
            "Invertebrate": [Animal(name: "Honey bee", diet: .herbivorous)],
            "Mammal": [
                Animal(name: "Dog", diet: .carnivorous), Animal(name: "Cat", diet: .carnivorous),
                Animal(name: "Red kangaroo", diet: .herbivorous), Animal(name: "Southern gibbon", diet: .herbivorous),
            ],
            "Reptile": [Animal(name: "Green sea turtle", diet: .herbivorous)],
        ]
    }
}
