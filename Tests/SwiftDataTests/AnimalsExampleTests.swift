import Foundation
import SwiftData
import Testing

@testable import ExampleModels

/// The `animals` example, run as a user runs it.
@Suite struct AnimalsExampleTests {
    let animals = ExampleRunner(program: "animals")

    func output(_ arguments: String...) throws -> String {
        let result = try animals.run(arguments: arguments)
        #expect(result.status == 0, "animals \(arguments.joined(separator: " ")): \(result.errors)")
        #expect(!result.errors.contains("warning"), "everything runs in SQL: \(result.errors)")
        return result.output
    }

    @Test func sampleDataAndEveryCommandPersist() throws {
        #expect(try output() == "No categories. Add the samples with: animals insert-sample-data\n")
        #expect(try output("insert-sample-data") == "Inserted 6 categories and 11 animals.\n")
        let categories = try output("categories")
        #expect(categories.hasPrefix("Amphibian — 2 animals\nBird — 2 animals\nFish — 1 animal\n"))
        #expect(categories.contains("Mammal — 4 animals"))
        #expect(
            try output("list", "Mammal")
                == "Cat (Carnivore)\nDog (Carnivore)\nRed kangaroo (Herbivore)\nSouthern gibbon (Herbivore)\n")

        #expect(
            try output("add", "Hawk", "--diet", "carnivore", "--category", "Bird")
                == "Added Hawk (Carnivore) to Bird.\n")
        #expect(try output("add", "Newt", "--diet", "Carnivore") == "Added Newt (Carnivore).\n")
        #expect(try output("list", "--none") == "Newt (Carnivore)\n")
        #expect(try animals.run("show", "Newt").errors.contains("2 animals are named 'Newt'"))
        #expect(try output("show", "Newt", "--in", "Amphibian").contains("category: Amphibian"))
        #expect(
            try output("edit", "Dog", "--name", "Hound", "--diet", "omnivore", "--category", "Bird")
                == "Saved Hound (Omnivore), in Bird.\n")
        #expect(try output("list", "Bird").contains("Hawk (Carnivore)\nHound (Omnivore)\n"))
        #expect(try output("delete", "Newt", "--in", "Amphibian") == "Deleted Newt.\n")
        #expect(try output("edit", "Newt", "--category", "Fish") == "Saved Newt (Carnivore), in Fish.\n")
        #expect(try output("edit", "Hawk", "--no-category") == "Saved Hawk (Carnivore), without a category.\n")
        #expect(try output("list", "--none") == "Hawk (Carnivore)\n")
        #expect(try output("delete", "Hawk") == "Deleted Hawk.\n")
        #expect(try output("list", "--none") == "Every animal has a category.\n")

        #expect(try output("delete-category", "Mammal") == "Deleted Mammal and its 3 animals.\n")
        #expect(!(try output()).contains("Mammal"))
        #expect(try animals.run("list", "Mammal").status == 1, "the cascade rule deleted its animals with it")
        #expect(try output("reload-sample-data") == "Reloaded the sample data: 6 categories and 11 animals.\n")
        #expect(try output("list", "Mammal").hasPrefix("Cat (Carnivore)\nDog (Carnivore)\n"))
        #expect(try output("list", "Bird") == "Emperor penguin (Carnivore)\nHouse sparrow (Omnivore)\n")
    }

    @Test func badInputGetsAClearMessage() throws {
        for arguments in [
            ["bogus"], ["list"], ["add", "Hawk"], ["add", "Hawk", "--diet", "plants"], ["add", "--diet", "carnivore"],
            ["edit", "Dog"], ["show", "Dog", "--colour", "red"], ["list", "Bird", "--none"], ["categories", "x"],
        ] {
            let result = try animals.run(arguments: arguments)
            #expect(result.status == 2, "animals \(arguments.joined(separator: " "))")
            #expect(result.errors.contains("usage: animals"))
        }
        #expect(try animals.run("insert-sample-data").status == 0)
        for arguments in [
            ["show", "Unicorn"], ["list", "Dragons"], ["delete-category", "Dragons"], ["insert-sample-data"],
        ] {
            let result = try animals.run(arguments: arguments)
            #expect(result.status == 1, "animals \(arguments.joined(separator: " "))")
            #expect(result.errors.hasPrefix("animals: ") && !result.errors.contains("usage:"))
        }
        #expect(
            try animals.run("add", "Hawk", "--diet", "carnivore", "--category", "Dragons").errors
                == "animals: there is no category named 'Dragons'; "
                + "the categories are Amphibian, Bird, Fish, Invertebrate, Mammal, Reptile\n")
    }

    /// "Reload Sample Data" through the program, after the data was changed: the categories are deleted (their
    /// animals with them) and inserted again before one save, with the same unique names.
    @Test func reloadingSampleDataThroughTheProgram() throws {
        #expect(try output("insert-sample-data") == "Inserted 6 categories and 11 animals.\n")
        _ = try output("add", "Hawk", "--diet", "carnivore", "--category", "Bird")
        _ = try output("add", "Stray", "--diet", "omnivore")
        _ = try output("edit", "Dog", "--name", "Hound")
        _ = try output("delete-category", "Fish")
        #expect(try output("reload-sample-data") == "Reloaded the sample data: 6 categories and 12 animals.\n")
        #expect(
            try output()
                == "Amphibian — 2 animals\nBird — 2 animals\nFish — 1 animal\nInvertebrate — 1 animal\n"
                + "Mammal — 4 animals\nReptile — 1 animal\n")
        #expect(
            try output("list", "Mammal")
                == "Cat (Carnivore)\nDog (Carnivore)\nRed kangaroo (Herbivore)\nSouthern gibbon (Herbivore)\n")
        #expect(try output("list", "Bird") == "Emperor penguin (Carnivore)\nHouse sparrow (Omnivore)\n")
        #expect(try output("list", "--none") == "Stray (Omnivore)\n", "an animal without a category stays")
        #expect(try output("reload-sample-data") == "Reloaded the sample data: 6 categories and 12 animals.\n")
    }

    /// The sample's own functions, in memory: the delete and the insert happen before one save.
    @Test func reloadingSampleDataReplacesTheCategoriesAndTheirAnimals() throws {
        let context = ModelContext(try makeMemoryContainer(AnimalCategory.self))
        AnimalCategory.insertSampleData(modelContext: context)
        context.insert(Animal(name: "Stray", diet: .omnivorous))
        try context.save()
        let oldMammals = try context.fetch(
            FetchDescriptor<AnimalCategory>(predicate: #Predicate { $0.name == "Mammal" }))
        try AnimalCategory.reloadSampleData(modelContext: context)
        #expect(oldMammals.first?.isDeleted == true)
        #expect(try context.fetchCount(FetchDescriptor<AnimalCategory>()) == 6, "the new categories, before the save")
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 12)
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetchCount(FetchDescriptor<AnimalCategory>()) == 6)
        let animals = try fresh.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(animals.count == 12)
        #expect(animals.filter { $0.category == nil }.map(\.name) == ["Stray"])
        let mammals = try fresh.fetch(FetchDescriptor<AnimalCategory>(predicate: #Predicate { $0.name == "Mammal" }))
        #expect(mammals.first?.animals.count == 4)
    }
}
