// foodpin: the FoodPin tutorial app as a terminal program, on the default store
// ($XDG_DATA_HOME/foodpin/default.store).
import ExampleSupport
import Foundation
import SwiftData

let usage = """
    usage: foodpin [list]                      the restaurants, by name
           foodpin show <number>               everything about one
           foodpin add --name <name> --type <type> --location <address> --phone <phone>
                       [--description <text>] [--image <file>]
           foodpin rate <number> <rating>      awesome, good, okay, bad or terrible
           foodpin favorite <number>           mark or unmark as a favourite
           foodpin image <number> <file>       set the picture from a file
           foodpin search <text>               by name or type
           foodpin delete <number>             remove one
    The numbers are those the last list showed: a later add or change does not move them.
    Every command takes \(ExampleStore.usage).
    """

@MainActor func restaurants(in context: ModelContext) throws -> [Restaurant] {
    try context.fetch(FetchDescriptor<Restaurant>(sortBy: [SortDescriptor(\.name)]))
}

/// The list's numbers, as the last `foodpin list` showed them.
@MainActor func numbers(_ store: ExampleStore) -> NumberedList<Restaurant> {
    NumberedList(noun: "restaurant", listing: "foodpin list", store: store.name)
}

@MainActor func restaurant(numbered argument: String?, in context: ModelContext, store: ExampleStore) throws
    -> Restaurant
{
    try numbers(store).model(numbered: argument, in: try restaurants(in: context))
}

func line(_ number: Int, _ restaurant: Restaurant) -> String {
    let favorite = restaurant.isFavorite ? "♥" : " "
    let rating = restaurant.rating.map { " [\($0.rawValue)]" } ?? ""
    return
        "\(String(number).leftPadded(to: 2)) \(favorite) \(restaurant.name) — \(restaurant.type), \(restaurant.location)\(rating)"
}

@MainActor func printList(_ list: [(Int, Restaurant)]) {
    if list.isEmpty {
        print("No restaurants. Add one with: foodpin add --name ... --type ... --location ... --phone ...")
    }
    for (number, restaurant) in list { print(line(number, restaurant)) }
}

extension String {
    /// Case- and diacritic-insensitive search, as the app's search field.
    func matches(_ text: String) -> Bool {
        range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
}

func readImage(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw Failure("cannot read the image file \(path)")
    }
    return data
}

@MainActor func run(_ arguments: [String]) throws {
    let (store, arguments) = try ExampleStore.split(arguments)
    var isFirstRun = store.isNewFile
    let container = try store.container(for: Restaurant.self)
    let context = container.mainContext
    // A new database is empty; one where the samples were deleted one by one is too, and gets them again.
    if case .postgres = store { isFirstRun = try context.fetchCount(FetchDescriptor<Restaurant>()) == 0 }
    if isFirstRun {
        Restaurant.samples.forEach(context.insert)
        try context.saveOrDiscard()
    }
    switch arguments.first {
    case nil, "list":
        guard arguments.count <= 1 else { throw UsageError("list takes no arguments") }
        let all = try restaurants(in: context)
        numbers(store).record(all)
        printList(Array(all.enumerated().map { ($0 + 1, $1) }))
    case "show":
        guard arguments.count == 2 else { throw UsageError("show takes one restaurant number") }
        let restaurant = try restaurant(numbered: arguments[1], in: context, store: store)
        print(restaurant.name)
        print("  type:      \(restaurant.type)")
        print("  location:  \(restaurant.location)")
        print("  phone:     \(restaurant.phone)")
        print("  rating:    \(restaurant.rating?.rawValue ?? "not rated")")
        print("  favourite: \(restaurant.isFavorite ? "yes" : "no")")
        print("  picture:   \(restaurant.imageData.isEmpty ? "none" : "\(restaurant.imageData.count) bytes")")
        if !restaurant.summary.isEmpty { print("\n\(restaurant.summary)") }
    case "add":
        let words = try Arguments(
            arguments.dropFirst(), options: ["name", "type", "location", "phone", "description", "image"])
        guard words.positional.isEmpty else { throw UsageError("unexpected argument '\(words.positional[0])'") }
        let values = words.options
        guard let name = values["name"], let type = values["type"], let location = values["location"],
            let phone = values["phone"]
        else { throw UsageError("add needs --name, --type, --location and --phone") }
        for (option, value) in [("name", name), ("type", type), ("location", location), ("phone", phone)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("--\(option) cannot be empty: a restaurant needs its \(option)")
        }
        let restaurant = Restaurant(
            name: name, type: type, location: location, phone: phone, description: values["description"] ?? "")
        if let path = values["image"] { restaurant.imageData = try readImage(path) }
        context.insert(restaurant)
        try context.saveOrDiscard()
        print("Added \(name).")
    case "rate":
        guard arguments.count == 3 else { throw UsageError("rate takes a restaurant number and a rating") }
        guard let rating = Restaurant.Rating(rawValue: arguments[2].lowercased()) else {
            throw UsageError("'\(arguments[2])' is not a rating")
        }
        let restaurant = try restaurant(numbered: arguments[1], in: context, store: store)
        restaurant.rating = rating
        try context.saveOrDiscard()
        print("\(restaurant.name) is rated \(rating.rawValue).")
    case "favorite", "favourite":
        guard arguments.count == 2 else { throw UsageError("favorite takes one restaurant number") }
        let restaurant = try restaurant(numbered: arguments[1], in: context, store: store)
        restaurant.isFavorite.toggle()
        try context.saveOrDiscard()
        print(
            restaurant.isFavorite
                ? "\(restaurant.name) is a favourite." : "\(restaurant.name) is no longer a favourite.")
    case "image":
        guard arguments.count == 3 else { throw UsageError("image takes a restaurant number and a file") }
        let restaurant = try restaurant(numbered: arguments[1], in: context, store: store)
        restaurant.imageData = try readImage(arguments[2])
        try context.saveOrDiscard()
        print("\(restaurant.name) has a new picture (\(restaurant.imageData.count) bytes).")
    case "search":
        guard arguments.count == 2 else { throw UsageError("search takes one text") }
        let text = arguments[1]
        let restaurants = try restaurants(in: context)
        numbers(store).record(restaurants)
        let all = restaurants.enumerated().map { ($0 + 1, $1) }
        let found = all.filter { $0.1.name.matches(text) || $0.1.type.matches(text) }
        if found.isEmpty { print("Nothing matches '\(text)'.") } else { printList(found) }
    case "delete":
        guard arguments.count == 2 else { throw UsageError("delete takes one restaurant number") }
        let restaurant = try restaurant(numbered: arguments[1], in: context, store: store)
        context.delete(restaurant)
        try context.saveOrDiscard()
        print("Deleted \(restaurant.name).")
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError("unknown command '\(command)'")
    }
}

Program.run("foodpin", usage: usage, run)
