// jsonstore: trips and their bucket lists, kept by a store of the program's own, a JSON file
// ($XDG_DATA_HOME/jsonstore/trips.json), through SwiftData's custom store API.
import ExampleSupport
import Foundation
import SwiftData

let usage = """
    usage: jsonstore [trips]                            the trips, by start date, with their bucket lists
           jsonstore add <name> --to <destination> --from <yyyy-mm-dd> --until <yyyy-mm-dd>
           jsonstore plan <trip> <thing to do>          add to a trip's bucket list
           jsonstore done <trip> <item>                 tick an item off
           jsonstore upcoming --after <yyyy-mm-dd>      the trips that end after a day
           jsonstore delete <trip>                      a trip and its bucket list
           jsonstore erase                              every trip
    <trip> and <item> are numbers as the last list showed them: a later add or change does not move them.
    Every command takes --store <path>: the JSON file of the trips, instead of $XDG_DATA_HOME/jsonstore/trips.json.
    """

/// The file of the trips: the one `--store` names, or `trips.json` in the program's data directory.
func tripsFile(_ store: ExampleStore) throws -> URL {
    switch store {
    case .defaultFile: return ModelConfiguration.defaultDirectory.appendingPathComponent("trips.json")
    case .file(let url): return url
    case .postgres: throw UsageError("jsonstore keeps its trips in a JSON file: --store takes the file's path")
    }
}

let dayFormat: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
}()

func day(_ text: String?, _ option: String) throws -> Date {
    guard let text else { throw UsageError("give --\(option) <yyyy-mm-dd>") }
    guard let date = dayFormat.date(from: text) else { throw Failure("'\(text)' is not a day (yyyy-mm-dd)") }
    return date
}

@MainActor func trips(_ context: ModelContext) throws -> [Trip] {
    try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)]))
}

/// The trips' numbers, as the last `jsonstore trips` showed them.
@MainActor func tripNumbers(_ file: URL) -> NumberedList<Trip> {
    NumberedList(noun: "trip", listing: "jsonstore trips", store: file.path)
}

/// The numbers of a trip's bucket list, as the last `jsonstore trips` showed them.
@MainActor func itemNumbers(_ trip: Trip, _ file: URL) -> NumberedList<BucketListItem> {
    NumberedList(noun: "item", listing: "jsonstore trips", store: file.path, scope: "\(trip.persistentModelID)")
}

@MainActor func trip(numbered argument: String?, _ context: ModelContext, _ file: URL) throws -> Trip {
    try tripNumbers(file).model(numbered: argument, in: try trips(context))
}

func describe(_ trip: Trip) -> String {
    "\(trip.name) (\(trip.destination)) \(dayFormat.string(from: trip.startDate)) to \(dayFormat.string(from: trip.endDate))"
}

@MainActor func run(_ arguments: [String]) throws {
    let (store, arguments) = try ExampleStore.split(arguments, readingEnvironment: false)
    let file = try tripsFile(store)
    let configuration = JSONStoreConfiguration(name: "Trips", fileURL: file)
    let container = try ModelContainer(for: Trip.self, BucketListItem.self, configurations: configuration)
    let context = container.mainContext
    let command = arguments.first
    let rest = arguments.dropFirst()
    switch command {
    case nil, "trips":
        guard rest.isEmpty else { throw UsageError("trips takes no arguments") }
        let all = try trips(context)
        tripNumbers(file).record(all)
        if all.isEmpty { print("No trips. Add one with: jsonstore add") }
        for (index, trip) in all.enumerated() {
            itemNumbers(trip, file).record(trip.bucketList)
            print("\(index + 1) \(describe(trip))")
            for (number, item) in trip.bucketList.enumerated() {
                print("    \(number + 1) [\(item.isDone ? "x" : " ")] \(item.title)")
            }
        }
    case "add":
        let words = try Arguments(rest, options: ["to", "from", "until"])
        let name = try words.single("trip name")
        guard let destination = words.options["to"] else { throw UsageError("give --to <destination>") }
        let trip = Trip(
            name: name, destination: destination, startDate: try day(words.options["from"], "from"),
            endDate: try day(words.options["until"], "until"))
        guard trip.endDate >= trip.startDate else { throw Failure("a trip cannot end before it starts") }
        context.insert(trip)
        try context.saveOrDiscard()
        print("Added \(describe(trip)).")
    case "plan":
        let words = try Arguments(rest)
        guard words.positional.count == 2 else { throw UsageError("give a trip number and a thing to do") }
        let trip = try trip(numbered: words.positional[0], context, file)
        let item = BucketListItem(title: words.positional[1])
        trip.bucketList.append(item)
        try context.saveOrDiscard()
        print("\(trip.name): planned \(item.title).")
    case "done":
        let words = try Arguments(rest)
        guard words.positional.count == 2 else { throw UsageError("give a trip number and an item number") }
        let trip = try trip(numbered: words.positional[0], context, file)
        let item = try itemNumbers(trip, file).model(numbered: words.positional[1], in: trip.bucketList)
        item.isDone = true
        try context.saveOrDiscard()
        print("\(trip.name): did \(item.title).")
    case "upcoming":
        let words = try Arguments(rest, options: ["after"])
        guard words.positional.isEmpty else { throw UsageError("upcoming takes --after <yyyy-mm-dd>") }
        let after = try day(words.options["after"], "after")
        let upcoming = try context.fetch(
            FetchDescriptor<Trip>(predicate: #Predicate { $0.endDate > after }, sortBy: [SortDescriptor(\.endDate)]))
        if upcoming.isEmpty { print("No trips end after \(dayFormat.string(from: after)).") }
        for trip in upcoming { print(describe(trip)) }
    case "delete":
        let trip = try trip(numbered: try Arguments(rest).single("trip number"), context, file)
        context.delete(trip)
        try context.saveOrDiscard()
        print("Deleted \(describe(trip)) and its bucket list.")
    case "erase":
        guard rest.isEmpty else { throw UsageError("erase takes no arguments") }
        try container.erase()
        print("Erased every trip.")
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError("unknown command '\(command)'")
    }
}

Program.run("jsonstore", usage: usage, run)
