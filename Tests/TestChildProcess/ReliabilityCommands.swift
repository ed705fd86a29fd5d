import Foundation
import SharedTestModels
import SwiftData
import SwiftDataSQLite

/// Commands for the reliability tests: processes that race to create, migrate and clean up a store. Returns
/// `false` for a command it does not know.
func runReliabilityCommand(_ command: String, store: URL?, name: String, extra: [String]) throws -> Bool {
    switch command {
    case "crash":
        // Writes a line, then stops at a failed precondition: the tests' child-process helpers must report it.
        FileHandle.standardOutput.write(Data("about to crash\n".utf8))
        preconditionFailure("the crash command crashes")
    case "hang":
        // Writes a line, then never ends: the tests' child-process helpers must kill it.
        FileHandle.standardOutput.write(Data("hanging\n".utf8))
        while true { sleep(60) }
    case "attach-paused":
        // Saves one attachment, pausing after its file is written and before the save commits: it writes
        // `<store>.paused` and waits until the test creates `<store>.go`.
        guard let store else { return false }
        SQLiteTestHooks.afterExternalWrite = { pause(at: store) }
        let context = ModelContext(try attachmentContainer(store))
        context.insert(Attachment(name: name, bytes: Data(repeating: 7, count: 4096)))
        try context.save()
    case "attach-many":
        // Saves attachments one at a time.
        guard let store else { return false }
        let context = ModelContext(try attachmentContainer(store))
        for index in 0..<(Int(extra.first ?? "50") ?? 50) {
            context.insert(
                Attachment(name: "\(name)-\(index)", bytes: Data(repeating: UInt8(index % 256), count: 2048)))
            try context.save()
        }
    case "open-attachments":
        // Opens the store (which cleans up files no row names) a number of times.
        guard let store else { return false }
        for _ in 0..<(Int(extra.first ?? "1") ?? 1) { _ = try attachmentContainer(store) }
    case "read-attachments":
        // Prints each attachment's name and the size of its value.
        guard let store else { return false }
        let context = ModelContext(try attachmentContainer(store))
        for attachment in try context.fetch(FetchDescriptor<Attachment>(sortBy: [SortDescriptor(\.name)])) {
            print("\(attachment.name) \(attachment.bytes.count)")
        }
    case "read-after-delete":
        // Fetches the attachments, then deletes their files (as if behind the store's back), then reads each
        // value: a property read cannot throw, so it must not stop the program either.
        guard let store else { return false }
        let context = ModelContext(try attachmentContainer(store))
        let attachments = try context.fetch(FetchDescriptor<Attachment>(sortBy: [SortDescriptor(\.name)]))
        try FileManager.default.removeItem(atPath: store.path + ".external")
        for attachment in attachments { print("\(attachment.name) \(attachment.bytes.count)") }
    case "tally-v1":
        // Creates a store of version 1 with `count` tallies.
        guard let store else { return false }
        let context = ModelContext(
            try ModelContainer(for: TallyV1.Tally.self, configurations: ModelConfiguration(url: store)))
        for index in 0..<(Int(extra.first ?? "10") ?? 10) { context.insert(TallyV1.Tally(name: "t\(index)")) }
        try context.save()
    case "tally-v2":
        // Opens the store with version 2 (migrating it), optionally pausing inside the migration, and prints the
        // number of tallies, the sum of their totals and the number of distinct labels.
        guard let store else { return false }
        if name == "paused" { SQLiteTestHooks.beforeSchemaCommit = { pause(at: store) } }
        // An impatient process gives up on another's lock after a second.
        if name == "impatient" { SQLiteTestHooks.lockWait = 1 }
        let context = ModelContext(
            try ModelContainer(for: TallyV2.Tally.self, configurations: ModelConfiguration(url: store)))
        let tallies = try context.fetch(FetchDescriptor<TallyV2.Tally>())
        let labels = Set(tallies.map(\.label))
        print("\(tallies.count) \(tallies.reduce(0) { $0 + $1.total }) \(labels.count) labels")
    case "create-paused":
        // Creates a new store of visits, pausing inside the transaction that creates its tables.
        guard let store else { return false }
        SQLiteTestHooks.beforeSchemaCommit = { pause(at: store) }
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
        context.insert(Visit(name: name))
        try context.save()
    case "list-readonly":
        // Lists the visits of a store opened with allowsSave: false.
        guard let store else { return false }
        let container = try ModelContainer(
            for: Visit.self, configurations: ModelConfiguration(url: store, allowsSave: false))
        for visit in try ModelContext(container).fetch(FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.name)])) {
            print(visit.name)
        }
    case "batched-memory":
        // Fills a store with `count` visits (if empty), reads them all through a batched fetch, and prints the
        // peak resident memory of that read in KiB (for measuring by hand: `TestChildProcess batched-memory
        // /tmp/m.store - 1000000`).
        guard let store else { return false }
        let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store))
        let count = Int(extra.first ?? "100000") ?? 100_000
        if try ModelContext(container).fetchCount(FetchDescriptor<Visit>()) == 0 {
            let context = ModelContext(container)
            for index in 0..<count { context.insert(Visit(name: "visit \(index) with some text")) }
            try context.save()
        }
        try String("5").write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let context = ModelContext(container)
        var total = 0
        for visit in try context.fetch(FetchDescriptor<Visit>(), batchSize: 1000) { total += visit.name.utf8.count }
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM") } ?? ""
        print("\(total) bytes read; \(peak)")
    default:
        return false
    }
    return true
}

private func attachmentContainer(_ store: URL) throws -> ModelContainer {
    try ModelContainer(for: Attachment.self, configurations: ModelConfiguration(url: store))
}

/// Tells the test that this process reached the hook, then waits (at most 20 s) for the test to let it go on.
func pause(at store: URL) {
    _ = FileManager.default.createFile(atPath: store.path + ".paused", contents: nil)
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: store.path + ".go"), Date() < deadline { usleep(10_000) }
}
