import Foundation
import SharedTestModels
import SwiftData
import SwiftDataPostgres
import SwiftDataSQLite

/// Commands for the history tests: a writer, a reader that copies the writer's store through its history, and a
/// save that pauses after recording its history. Returns `false` for a command it does not know.
func runHistoryCommand(_ command: String, store: URL?, name: String, extra: [String]) throws -> Bool {
    switch command {
    case "sync-writer":
        // Makes `extra[0]` saves of inserts, updates and deletes of sync items, chosen by a generator seeded with
        // `name`, then creates the file `extra[1]` (`<store>.done` by default). The store is an SQLite file or a
        // PostgreSQL URL.
        guard let store, let source = CommandLine.arguments.dropFirst(2).first else { return false }
        try writeSyncItems(
            to: try syncContainer(source), seed: UInt64(name) ?? 1, saves: Int(extra.first ?? "100") ?? 100,
            done: URL(fileURLWithPath: extra.dropFirst().first ?? store.path + ".done"))
    case "sync-reader":
        // Copies the history of the store into the SQLite store `name`, keeping its last token in `extra[0]`; ends
        // when the writer is done (the file `extra[1]`, `<store>.done` by default) and every transaction is copied.
        guard let store, let source = CommandLine.arguments.dropFirst(2).first else { return false }
        try copyHistory(
            from: try syncContainer(source), to: URL(fileURLWithPath: name),
            tokenFile: URL(fileURLWithPath: extra.first ?? name + ".token"),
            done: URL(fileURLWithPath: extra.dropFirst().first ?? store.path + ".done"))
    case "history-paused":
        // Inserts a visit, pausing after the save recorded its history and before it commits.
        guard let store else { return false }
        SQLiteTestHooks.afterHistoryRecord = { pause(at: store) }
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
        context.insert(Visit(name: name))
        try context.save()
    default:
        return false
    }
    return true
}

/// A small generator, so that a run can be repeated.
private struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// The sync items' container on a store: a PostgreSQL URL (in the PostgreSQL schema SWIFTDATA_POSTGRES_SCHEMA
/// names) or an SQLite file.
private func syncContainer(_ store: String) throws -> ModelContainer {
    guard store.hasPrefix("postgresql://") else {
        return try ModelContainer(
            for: SyncItem.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store)))
    }
    let schema = ProcessInfo.processInfo.environment["SWIFTDATA_POSTGRES_SCHEMA"] ?? "public"
    return try ModelContainer(
        for: SyncItem.self, configurations: PostgresConfiguration(url: store, postgresSchema: schema))
}

private func writeSyncItems(to container: ModelContainer, seed: UInt64, saves: Int, done: URL) throws {
    let context = ModelContext(container)
    context.author = "writer"
    var random = SplitMix(state: seed)
    var next = 0
    for save in 0..<saves {
        var items = try context.fetch(FetchDescriptor<SyncItem>(sortBy: [SortDescriptor(\.key)]))
        for _ in 0...random.next(3) {
            context.insert(SyncItem(key: "k\(next)", value: random.next(1000), label: "save \(save)"))
            next += 1
        }
        for _ in 0..<random.next(4) where !items.isEmpty {
            let item = items[random.next(items.count)]
            item.value = random.next(1000)
            item.label = "changed in save \(save)"
        }
        if random.next(3) == 0, !items.isEmpty {
            context.delete(items.remove(at: random.next(items.count)))
        }
        try context.save()
        usleep(UInt32(random.next(20_000)))
    }
    _ = FileManager.default.createFile(atPath: done.path, contents: nil)
}

private func copyHistory(from sourceContainer: ModelContainer, to destination: URL, tokenFile: URL, done: URL) throws {
    let copy = ModelContext(
        try ModelContainer(for: SyncItem.self, configurations: ModelConfiguration(url: destination)))
    while true {
        // Whether the writer was done before this fetch: then the fetch sees all it wrote.
        let isDone = FileManager.default.fileExists(atPath: done.path)
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let data = try? Data(contentsOf: tokenFile) {
            let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: data)
            descriptor.predicate = #Predicate { $0.token > token }
        }
        descriptor.fetchLimit = 5
        let transactions = try ModelContext(sourceContainer).fetchHistory(descriptor)
        if transactions.isEmpty {
            if isDone { return }
            usleep(10_000)
            continue
        }
        let reader = ModelContext(sourceContainer)
        for transaction in transactions {
            for change in transaction.changes {
                switch change {
                case .insert(let insert as DefaultHistoryInsert<SyncItem>):
                    try copyItem(insert.changedPersistentIdentifier, from: reader, to: copy)
                case .update(let update as DefaultHistoryUpdate<SyncItem>):
                    try copyItem(update.changedPersistentIdentifier, from: reader, to: copy)
                case .delete(let delete as DefaultHistoryDelete<SyncItem>):
                    guard let key = delete.tombstone[\.key] as? String else { continue }
                    try copy.delete(model: SyncItem.self, where: #Predicate { $0.key == key })
                default:
                    continue
                }
            }
            // The copy's changes commit first, then the token: a reader killed between the two copies the
            // transaction again, which changes nothing (items are upserted by key, deletes find nothing).
            try copy.save()
            try JSONEncoder().encode(transaction.token).write(to: tokenFile, options: .atomic)
        }
    }
}

/// Writes the item's current values into the copy, inserting it there or updating the item with its key. An item
/// deleted since has no values to copy: its delete comes later in the history.
private func copyItem(_ identifier: PersistentIdentifier, from source: ModelContext, to copy: ModelContext) throws {
    var descriptor = FetchDescriptor<SyncItem>(predicate: #Predicate { $0.persistentModelID == identifier })
    descriptor.fetchLimit = 1
    guard let item = try source.fetch(descriptor).first else { return }
    copy.insert(SyncItem(key: item.key, value: item.value, label: item.label))
}
