// A program the tests run as a child process, to check what reaches the disk across processes.
import Foundation
import SharedTestModels
import SwiftData
import SwiftDataPostgres
import SwiftDataSQLite

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first else {
    FileHandle.standardError.write(
        Data("usage: TestChildProcess <command> [store file or PostgreSQL URL] [name]\n".utf8))
    exit(2)
}
let storeURL = arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
let name = arguments.dropFirst(2).first ?? "visit"

// With SWIFTDATA_SIGNAL_LOCK_WAIT set, the process creates `<store>.waiting` when it finds the store locked by another
// process and waits for it, so that a test knows it got that far.
if let storeURL, ProcessInfo.processInfo.environment["SWIFTDATA_SIGNAL_LOCK_WAIT"] != nil {
    SQLiteTestHooks.waitingForLock = {
        let path = storeURL.path + ".waiting"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
    }
}

func container() throws -> ModelContainer {
    // A PostgreSQL URL names a PostgreSQL store, in the schema SWIFTDATA_POSTGRES_SCHEMA names; behind a transaction
    // pooler when SWIFTDATA_POSTGRES_LISTEN_URL names a direct URL to listen on.
    if let url = arguments.dropFirst().first, url.hasPrefix("postgresql://") {
        let environment = ProcessInfo.processInfo.environment
        let listenURL = environment["SWIFTDATA_POSTGRES_LISTEN_URL"]
        return try ModelContainer(
            for: Visit.self,
            configurations: PostgresConfiguration(
                url: url, postgresSchema: environment["SWIFTDATA_POSTGRES_SCHEMA"] ?? "public",
                transactionPooling: listenURL != nil, listenURL: listenURL))
    }
    if let storeURL { return try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: storeURL)) }
    return try ModelContainer(for: Visit.self)
}

switch command {
case "insert-and-return":
    // Inserts through the main context and returns without saving: autosave must keep it.
    try container().mainContext.insert(Visit(name: name))
case "insert-and-exit":
    // Inserts and exits at once, before the scheduled autosave can run: the exit handler must save it.
    try container().mainContext.insert(Visit(name: name))
    exit(0)
case "insert-wait-and-kill":
    // Inserts, lets the main queue run until the scheduled autosave has saved, then dies without running exit
    // handlers: only the autosave can have saved it. Without an autosave it exits with 1 after 30 seconds.
    let context = try container().mainContext
    _ = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { _ in
        kill(getpid(), SIGKILL)
    }
    context.insert(Visit(name: name))
    try await Task.sleep(for: .seconds(30))
    exit(1)
case "open-impatient":
    // Opens the store, giving up on a lock another session holds after a second.
    PostgresTestHooks.lockWait = 1
    _ = try container()
case "migrate-tallies-impatient":
    // Migrates a PostgreSQL store of version 1 tallies through `TallyPlan`, whose stage saves every tally, giving up
    // on a lock another session holds after a second.
    PostgresTestHooks.lockWait = 1
    let schema = ProcessInfo.processInfo.environment["SWIFTDATA_POSTGRES_SCHEMA"] ?? "public"
    _ = try ModelContainer(
        for: Schema(versionedSchema: TallySchemaV2.self), migrationPlan: TallyPlan.self,
        configurations: PostgresConfiguration(url: arguments.dropFirst().first ?? "", postgresSchema: schema))
case "insert-and-save":
    let context = ModelContext(try container())
    context.insert(Visit(name: name))
    try context.save()
case "save-and-exit":
    // Saves, then exits with its container still alive: only the exit handler can checkpoint the store.
    let context = ModelContext(try container())
    context.insert(Visit(name: name))
    try context.save()
    exit(0)
case "increment-all":
    let context = ModelContext(try container())
    for visit in try context.fetch(FetchDescriptor<Visit>()) { visit.count += 1 }
    try context.save()
case "insert-many":
    // Inserts visits one save at a time, competing with other processes for the store's write lock.
    let count = Int(arguments.dropFirst(3).first ?? "100") ?? 100
    let context = ModelContext(try container())
    for index in 0..<count {
        context.insert(Visit(name: "\(name)-\(index)"))
        try context.save()
    }
case "write-and-observe":
    // Inserts visits one save at a time while a `ResultsObserver` watches every process's visits; once it holds
    // `total` visits (or after a minute) prints the names it holds, one a line.
    let count = Int(arguments.dropFirst(3).first ?? "40") ?? 40
    let total = Int(arguments.dropFirst(4).first ?? "\(count)") ?? count
    let container = try container()
    let observer = try ResultsObserver(sortBy: [SortDescriptor(\Visit.name)], modelContainer: container)
    let context = ModelContext(container)
    for index in 0..<count {
        context.insert(Visit(name: "\(name)-\(index)"))
        try context.save()
        _ = observer.results.count
    }
    // Woken by each change of the results, not by polling; the minute only bounds a failure.
    let snapshots = observer.snapshots()
    await withTaskGroup(of: Void.self) { group in
        group.addTask { for await identifiers in snapshots where identifiers.count >= total { return } }
        group.addTask { try? await Task.sleep(for: .seconds(60)) }
        await group.next()
        group.cancelAll()
    }
    print(observer.results.map(\.name).joined(separator: "\n"))
case "list":
    for visit in try ModelContext(try container()).fetch(FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.name)])) {
        print(visit.name)
    }
default:
    if try runReliabilityCommand(command, store: storeURL, name: name, extra: Array(arguments.dropFirst(3))) { break }
    if try runHistoryCommand(command, store: storeURL, name: name, extra: Array(arguments.dropFirst(3))) { break }
    FileHandle.standardError.write(Data("unknown command \(command)\n".utf8))
    exit(2)
}
