import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// A model of the pooler suite.
@Model final class PooledNote {
    var text: String
    init(text: String) { self.text = text }
}

/// The store behind PgBouncer in transaction mode (`PostgresConfiguration.transactionPooling`), where every
/// transaction may run on another server connection: no session state, and other instances' saves found through a
/// direct listening URL or the history table. The behaviour suites run through the pooler too (`StoreKind.pooled`).
@Suite(.enabled(if: PostgresTestCluster.isAvailable)) struct PostgresPoolerTests {
    func configuration(
        _ schema: String, transactionPooling: Bool = true, listenURL: String? = nil, connections: Int = 8
    ) throws -> PostgresConfiguration {
        PostgresConfiguration(
            url: try PostgresTestCluster.shared().poolerURL, postgresSchema: schema, maximumConnections: connections,
            transactionPooling: transactionPooling, listenURL: listenURL)
    }

    func newSchema() -> String { "pooled_\(UUID().uuidString.prefix(8).lowercased())" }

    /// Two stores in two PostgreSQL schemas save and fetch at once through eight client connections each, over the
    /// pooler's two server connections: each sees its own rows only, so no statement ran with the other's
    /// `search_path`, and no prepared statement was missing or already there.
    @Test func storesInTwoSchemasShareThePoolersConnectionsWithoutSessionState() throws {
        let schemas = [newSchema(), newSchema()]
        let containers = try schemas.map {
            try ModelContainer(for: PooledNote.self, configurations: try configuration($0))
        }
        let failures = Collected()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let which = index % 2
            do {
                let context = ModelContext(containers[which])
                for round in 0..<10 {
                    context.insert(PooledNote(text: "\(schemas[which]) \(index) \(round)"))
                    try context.save()
                    let texts = try ModelContext(containers[which]).fetch(FetchDescriptor<PooledNote>()).map(\.text)
                    if let foreign = texts.first(where: { !$0.hasPrefix(schemas[which]) }) {
                        failures.append("\(schemas[which]) read \(foreign)")
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        for container in containers {
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<PooledNote>()) == 80)
        }
    }

    /// Without `listenURL`, another instance's save is found in the history table within a few poll intervals.
    @Test func anotherInstancesSaveIsFoundWithoutAListenURL() async throws {
        let schema = newSchema()
        let observing = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let saving = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\PooledNote.text)], modelContainer: observing)
        #expect(observer.results.isEmpty)
        let context = ModelContext(saving)
        context.insert(PooledNote(text: "elsewhere"))
        try context.save()
        #expect(await observer.waitForSnapshot { !$0.isEmpty })
        #expect(observer.results.map(\.text) == ["elsewhere"])
    }

    /// Without `listenURL`, a save made right after the observing store opened is found however late the poller's
    /// thread first runs: what it compares with was read while the store opened.
    @Test func aSaveRightAfterOpeningIsFoundHoweverLateThePollerStarts() async throws {
        let schema = newSchema()
        let held = DispatchSemaphore(value: 0)
        PostgresTestHooks.pollerStarting.withLock {
            $0 = { if $0 == schema { held.wait() } }
        }
        let observing = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let saving = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\PooledNote.text)], modelContainer: observing)
        #expect(observer.results.isEmpty)
        let context = ModelContext(saving)
        context.insert(PooledNote(text: "before the poller ran"))
        try context.save()
        held.signal()  // the observing store's poller
        held.signal()  // the saving store's
        #expect(await observer.waitForSnapshot { !$0.isEmpty }, "the save reached the other instance's observer")
    }

    /// Without `listenURL`, erasing the store and deleting history, which record no history row, reach another
    /// instance's observers too.
    @Test func anotherInstancesEraseAndHistoryDeletionAreFoundWithoutAListenURL() async throws {
        let schema = newSchema()
        let observing = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let writing = try ModelContainer(for: PooledNote.self, configurations: try configuration(schema))
        let context = ModelContext(writing)
        context.insert(PooledNote(text: "erased"))
        try context.save()
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\PooledNote.text)], modelContainer: observing)
        #expect(observer.results.map(\.text) == ["erased"])
        try writing.erase()
        #expect(await observer.waitForSnapshot { $0.isEmpty }, "the erase reached the other instance's observer")

        let heard = Flag()
        let subscriber = NSObject()
        observing.changes.subscribe(subscriber) { notice in if notice.isExternal { heard.set() } }
        try ModelContext(writing).deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(await heard.wait(), "the deletion of history reached the other instance")
        withExtendedLifetime(subscriber) {}
    }

    /// With `listenURL`, the notification arrives over the direct connection, as on a single server.
    @Test func anotherInstancesSaveIsAnnouncedOnTheListenURL() async throws {
        let schema = newSchema()
        let direct = try PostgresTestCluster.shared().url
        let observing = try ModelContainer(
            for: PooledNote.self, configurations: try configuration(schema, listenURL: direct))
        let saving = try ModelContainer(
            for: PooledNote.self, configurations: try configuration(schema, listenURL: direct))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\PooledNote.text)], modelContainer: observing)
        #expect(observer.results.isEmpty)
        let context = ModelContext(saving)
        context.insert(PooledNote(text: "announced"))
        try context.save()
        #expect(await observer.waitForSnapshot { !$0.isEmpty })
        #expect(observer.results.map(\.text) == ["announced"])
    }
}

extension PostgresPoolerTests {
    /// A fetch and a count behind the pooler wait for the server once each: the read's `BEGIN`, settings, query and
    /// `COMMIT` go in one message.
    @Test func aPooledFetchWaitsForTheServerOnce() throws {
        let container = try ModelContainer(for: PooledNote.self, configurations: try configuration(newSchema()))
        let store = try #require(container.stores.first as? PostgresRowStore)
        let context = ModelContext(container)
        context.insert(PooledNote(text: "one"))
        try context.save()
        let fetch = try store.readRoundTrips {
            try ModelContext(container).fetch(FetchDescriptor<PooledNote>()).map(\.text)
        }
        #expect(fetch.result == ["one"])
        #expect(fetch.roundTrips == [1])
        let count = try store.readRoundTrips { try ModelContext(container).fetchCount(FetchDescriptor<PooledNote>()) }
        #expect(count.result == 1)
        #expect(count.roundTrips == [1])
    }

    /// The migration preview, a migration of a copy and the `swiftdata` tool, given the pooler's URL, leave no
    /// `search_path` on the pooler's server connections, which other clients get next.
    @Test func thePreviewTheCopyAndTheToolLeaveNoSearchPathBehind() throws {
        let cluster = try PostgresTestCluster.dedicated(standbys: 0, pooler: true)
        let schema = newSchema()
        let configuration = PostgresConfiguration(
            url: cluster.poolerURL, postgresSchema: schema, transactionPooling: true)
        let context = ModelContext(try ModelContainer(for: PooledNote.self, configurations: configuration))
        context.insert(PooledNote(text: "kept"))
        try context.save()
        let defaultPath = try searchPaths(cluster)
        #expect(defaultPath.count == PostgresTestCluster.poolerServerConnections)

        let preview = try ModelContainer.migrationPreview(
            for: Schema([PooledNote.self]), configurations: [configuration])
        #expect(preview.map(\.failure) == [nil])
        #expect(preview.first?.storeVersion != nil, "the preview read the store's metadata")
        #expect(try searchPaths(cluster) == defaultPath, "after the preview")

        try ModelContainer.migrateCopy(for: Schema([PooledNote.self]), configuration: configuration)
        #expect(try searchPaths(cluster) == defaultPath, "after the migration of a copy")

        let inspect = swiftdata("inspect", "\(cluster.poolerURL)#\(schema)")
        #expect(inspect.status == 0, "\(inspect.errors)")
        #expect(inspect.output.contains("PooledNote"))
        #expect(try searchPaths(cluster) == defaultPath, "after the tool")

        // The tool's statements are not left prepared on the pooler's server connections: a second copy through the
        // pooler would otherwise find its first statement's name taken.
        for target in [newSchema(), newSchema()] {
            let copy = swiftdata("copy", "\(cluster.poolerURL)#\(schema)", "\(cluster.poolerURL)#\(target)")
            #expect(copy.status == 0, "\(copy.errors)")
        }
    }

    /// The `search_path` of each of the pooler's server connections, asked by as many clients at once, each in a
    /// transaction that holds one.
    func searchPaths(_ cluster: PostgresTestCluster) throws -> [String] {
        let clients = try (0..<PostgresTestCluster.poolerServerConnections).map { _ in
            try PostgresConnection(cluster.poolerURL)
        }
        for client in clients { try client.execute("BEGIN") }
        defer { for client in clients { _ = try? client.execute("ROLLBACK") } }
        return try clients.map { try $0.execute("SHOW search_path").string(0, 0) ?? "" }.sorted()
    }
}

extension PostgresRowStore {
    /// What `body` returns, and how many times each read it made waited for the server.
    func readRoundTrips<Result>(_ body: () throws -> Result) throws -> (result: Result, roundTrips: [Int]) {
        let seen = SeenReads()
        willRead = { seen.reads.append(($0, $0.roundTrips)) }
        defer { willRead = nil }
        let result = try body()
        let counts = seen.reads.indices.map { index in
            let read = seen.reads[index]
            let next = seen.reads[(index + 1)...].first { $0.connection === read.connection }
            return (next?.before ?? read.connection.roundTrips) - read.before
        }
        return (result, counts)
    }
}

/// The reads `readRoundTrips` saw begin: each one's connection and its round trips then.
private final class SeenReads {
    var reads: [(connection: PostgresConnection, before: Int)] = []
}

/// Strings collected from other threads.
private final class Collected: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
