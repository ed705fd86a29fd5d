// animals: Apple's SwiftDataAnimals sample as a terminal program, on the default store
// ($XDG_DATA_HOME/animals/default.store).
import ExampleSupport
import Foundation
import SwiftData

private let usage = """
    usage: animals [categories]                 the categories, with how many animals each has
           animals list <category>              the animals of a category, by name
           animals list --none                  the animals without a category
           animals show <animal> [--in <category>]
           animals add <name> --diet <diet> [--category <category>]
           animals edit <animal> [--in <category>] [--name <name>] [--diet <diet>]
                        [--category <category> | --no-category]
           animals delete <animal> [--in <category>]
           animals delete-category <category>   and its animals
           animals insert-sample-data           the sample categories and animals, into an empty store
           animals reload-sample-data           delete the categories and their animals, then insert the
                                                samples again
    Diets: herbivore, carnivore, omnivore. --in chooses among animals of the same name.
    Every command takes \(ExampleStore.usage).
    """

/// The animals of a category, by name: the sample's `AnimalListView` query, whose predicate is built from the
/// category's name (`nil`: the animals without a category).
@MainActor private func animals(inCategoryNamed animalCategoryName: String?, _ context: ModelContext) throws -> [Animal]
{
    let predicate = #Predicate<Animal> { animal in
        animal.category?.name == animalCategoryName
    }
    return try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\Animal.name)]))
}

@MainActor private func categories(_ context: ModelContext) throws -> [AnimalCategory] {
    try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
}

@MainActor private func category(named name: String, _ context: ModelContext) throws -> AnimalCategory {
    let found = try context.fetch(FetchDescriptor<AnimalCategory>(predicate: #Predicate { $0.name == name }))
    if let category = found.first { return category }
    let names = try categories(context).map(\.name)
    throw Failure(
        "there is no category named '\(name)'"
            + (names.isEmpty
                ? "; add the samples with `animals insert-sample-data`"
                : "; the categories are \(names.joined(separator: ", "))"))
}

/// The animal with this name (in the category named `categoryName`, when given), which must be the only one.
@MainActor private func animal(named name: String, in categoryName: String?, _ context: ModelContext) throws -> Animal {
    let predicate: Predicate<Animal>
    if let categoryName {
        predicate = #Predicate { animal in animal.name == name && animal.category?.name == categoryName }
    } else {
        predicate = #Predicate { animal in animal.name == name }
    }
    let found = try context.fetch(FetchDescriptor(predicate: predicate))
    guard found.count == 1 else {
        let place = categoryName.map { " in \($0)" } ?? ""
        if found.isEmpty { throw Failure("there is no animal named '\(name)'\(place)") }
        let categories = found.map { $0.category?.name ?? "no category" }.joined(separator: ", ")
        throw Failure("\(found.count) animals are named '\(name)' (\(categories)); choose one with --in <category>")
    }
    return found[0]
}

private func diet(_ text: String) throws -> Animal.Diet {
    let diet = Animal.Diet.allCases.first {
        $0.rawValue.lowercased() == text.lowercased() || "\($0)" == text.lowercased()
    }
    guard let diet else { throw UsageError("'\(text)' is not a diet: herbivore, carnivore or omnivore") }
    return diet
}

private func describe(_ animal: Animal) -> String { "\(animal.name) (\(animal.diet.rawValue))" }

private func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
}

@MainActor private func run(_ arguments: [String]) throws {
    let (store, arguments) = try ExampleStore.split(arguments)
    let context = try store.container(for: AnimalCategory.self, Animal.self).mainContext
    let command = arguments.first
    let rest = arguments.dropFirst()
    switch command {
    case nil, "categories":
        guard rest.isEmpty else { throw UsageError("categories takes no arguments") }
        let all = try categories(context)
        if all.isEmpty { print("No categories. Add the samples with: animals insert-sample-data") }
        for category in all { print("\(category.name) — \(count(category.animals.count, "animal"))") }
    case "list":
        let words = try Arguments(rest, flags: ["none"])
        let name: String?
        if words.options["none"] != nil {
            guard words.positional.isEmpty else { throw UsageError("list takes a category or --none, not both") }
            name = nil
        } else {
            name = try category(named: try words.single("category name"), context).name
        }
        let found = try animals(inCategoryNamed: name, context)
        if found.isEmpty { print(name.map { "No animals in \($0)." } ?? "Every animal has a category.") }
        for animal in found { print(describe(animal)) }
    case "show":
        let words = try Arguments(rest, options: ["in"])
        let animal = try animal(named: try words.single("animal name"), in: words.options["in"], context)
        print(animal.name)
        print("  diet:     \(animal.diet.rawValue)")
        print("  category: \(animal.category?.name ?? "none")")
    case "add":
        let words = try Arguments(rest, options: ["diet", "category"])
        let name = try words.single("animal name")
        guard let dietName = words.options["diet"] else { throw UsageError("add needs --diet") }
        let newAnimal = Animal(name: name, diet: try diet(dietName))
        newAnimal.category = try words.options["category"].map { try category(named: $0, context) }
        context.insert(newAnimal)
        try context.saveOrDiscard()
        print("Added \(describe(newAnimal))" + (newAnimal.category.map { " to \($0.name)." } ?? "."))
    case "edit":
        let words = try Arguments(rest, options: ["in", "name", "diet", "category"], flags: ["no-category"])
        let name = try words.single("animal name")
        guard words.options.keys.contains(where: { $0 != "in" }) else {
            throw UsageError("edit needs --name, --diet, --category or --no-category")
        }
        if words.options["category"] != nil && words.options["no-category"] != nil {
            throw UsageError("give --category or --no-category, not both")
        }
        let animal = try animal(named: name, in: words.options["in"], context)
        if let name = words.options["name"] {
            guard !name.isEmpty else { throw UsageError("an animal needs a name") }
            animal.name = name
        }
        if let dietName = words.options["diet"] { animal.diet = try diet(dietName) }
        if let categoryName = words.options["category"] { animal.category = try category(named: categoryName, context) }
        if words.options["no-category"] != nil { animal.category = nil }
        try context.saveOrDiscard()
        print("Saved \(describe(animal)), " + (animal.category.map { "in \($0.name)." } ?? "without a category."))
    case "delete":
        let words = try Arguments(rest, options: ["in"])
        let animal = try animal(named: try words.single("animal name"), in: words.options["in"], context)
        context.delete(animal)
        try context.saveOrDiscard()
        print("Deleted \(animal.name).")
    case "delete-category":
        let category = try category(named: try Arguments(rest).single("category name"), context)
        let animals = category.animals.count
        context.delete(category)
        try context.saveOrDiscard()
        print("Deleted \(category.name) and its \(count(animals, "animal")).")
    case "insert-sample-data":
        guard rest.isEmpty else { throw UsageError("insert-sample-data takes no arguments") }
        guard try context.fetchCount(FetchDescriptor<AnimalCategory>()) == 0 else {
            throw Failure("the store already has categories; replace them with `animals reload-sample-data`")
        }
        AnimalCategory.insertSampleData(modelContext: context)
        try context.saveOrDiscard()
        print("Inserted \(try summary(context)).")
    case "reload-sample-data":
        guard rest.isEmpty else { throw UsageError("reload-sample-data takes no arguments") }
        try AnimalCategory.reloadSampleData(modelContext: context)
        try context.saveOrDiscard()
        print("Reloaded the sample data: \(try summary(context)).")
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError("unknown command '\(command)'")
    }
}

@MainActor private func summary(_ context: ModelContext) throws -> String {
    let categories = try context.fetchCount(FetchDescriptor<AnimalCategory>())
    let animals = try context.fetchCount(FetchDescriptor<Animal>())
    return "\(count(categories, "category", plural: "categories")) and \(count(animals, "animal"))"
}

Program.run("animals", usage: usage, run)
