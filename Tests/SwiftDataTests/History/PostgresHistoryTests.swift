import Foundation
import PostgresTestSupport
import SharedTestModels
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// What only the PostgreSQL store's history does: its SQL, tokens minted by the database for every instance in
/// commit order, a table added to a store made before history, and `PostgresStore` as a `HistoryProviding`. The
/// history suites run on it too (`StoreKind`).
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresHistoryTests {
    /// The store itself selects, orders and limits by a request's condition (nothing filters its answer after it).
    @Test func theStoreSelectsByConditionsItself() throws {
        let container = try StoreKind.postgres.makeContainer(HistoryNote.self)
        let context = ModelContext(container)
        for author in ["app", "widget", "app"] {
            context.author = author
            context.insert(HistoryNote(text: author))
            try context.save()
        }
        let store = try #require(container.stores.first as? PostgresRowStore)
        let all = try store.fetchHistory(HistoryRequest())
        #expect(all.map(\.entry.author) == ["app", "widget", "app"])
        let numbers = all.map(\.number)
        #expect(
            try store.fetchHistory(HistoryRequest(condition: .text(.author, isEqual: true, "app"))).map(\.number)
                == [numbers[0], numbers[2]])
        #expect(
            try store.fetchHistory(HistoryRequest(condition: .number(.greater, numbers[0]), limit: 1)).map(\.number)
                == [numbers[1]])
        #expect(try store.fetchHistory(HistoryRequest(limit: 1, newestFirst: true)).map(\.number) == [numbers[2]])
        #expect(
            try store.fetchHistory(HistoryRequest(condition: .timestamp(.greaterOrEqual, all[1].entry.timestamp)))
                .map(\.number) == [numbers[1], numbers[2]])
        #expect(try store.fetchHistory(HistoryRequest(condition: .numbers([numbers[1]]))).map(\.number) == [numbers[1]])
    }

    /// Instances on one database save at once while a reader keeps fetching what came after the last token it saw:
    /// every token is new and larger than those committed before it, so the reader sees every transaction once.
    @Test func instancesMintTokensInCommitOrderAndAReaderMissesNone() throws {
        let location = StoreKind.postgres.location()
        let writers = 3
        let saves = 15 * ProcessRaceTests.rounds
        let containers = try (0...writers).map { _ in try location.container(HistoryNote.self) }
        let finished = Atomic(0)
        let seen = Mutex<[Int64]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers + 1) { index in
            do {
                if index < writers {
                    let context = ModelContext(containers[index])
                    context.author = "writer \(index)"
                    for save in 0..<saves {
                        context.insert(HistoryNote(text: "\(index)-\(save)"))
                        try context.save()
                    }
                    finished.add(1, ordering: .releasing)
                    return
                }
                let context = ModelContext(containers[index])
                var last: DefaultHistoryToken?
                while true {
                    let done = finished.load(ordering: .acquiring) == writers
                    var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
                    if let last { descriptor.predicate = #Predicate { $0.token > last } }
                    let transactions = try context.fetchHistory(descriptor)
                    seen.withLock { $0 += transactions.map(\.transactionIdentifier) }
                    last = transactions.last?.token ?? last
                    if done { return }
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let all = try history(containers[0])
        let numbers = all.map(\.transactionIdentifier)
        #expect(all.count == writers * saves)
        #expect(Set(numbers).count == numbers.count, "no two instances minted the same token")
        #expect(numbers == numbers.sorted())
        #expect(seen.withLock { $0 } == numbers, "the reader saw every transaction once, in order")
    }

    /// A save whose process dies after its history row was inserted, before it commits, leaves neither its changes
    /// nor its history, and the next save takes a later number: PostgreSQL's side of SQLite's killed-save test. A
    /// trigger the test adds holds the save right after its history row is inserted.
    @Test func aSaveKilledAfterRecordingItsHistoryLeavesNeither() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Visit.self)
        let context = ModelContext(container)
        context.insert(Visit(name: "kept"))
        try context.save()
        let admin = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        let schema = "\"\(location.postgresSchema)\""
        try admin.execute(
            """
            CREATE FUNCTION \(schema).hold() RETURNS trigger LANGUAGE plpgsql AS $$ \
            BEGIN PERFORM pg_sleep(60); RETURN NULL; END $$; \
            CREATE TRIGGER hold AFTER INSERT ON \(schema).\(PostgresRowStore.historyTable) \
            FOR EACH ROW EXECUTE FUNCTION \(schema).hold()
            """)
        let writer = try location.runChild(["insert-and-save", "lost"])
        let held =
            "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE 'INSERT INTO _swiftdata_history%'"
        let deadline = Date().addingTimeInterval(60)
        var backend: Int64?
        while backend == nil, Date() < deadline {
            let result = try admin.execute(held)
            backend = result.rowCount > 0 ? try result.int64(0, 0) : nil
            if backend == nil { usleep(20_000) }
        }
        kill(writer.processIdentifier, SIGKILL)
        try writer.wait()
        // The server ends the dead client's session (it would notice the lost connection when the trigger returns).
        if let backend { try admin.execute("SELECT pg_terminate_backend(\(backend))") }
        try admin.execute("DROP TRIGGER hold ON \(schema).\(PostgresRowStore.historyTable)")
        try #require(backend != nil, "the save was held after recording its history")

        #expect(try ModelContext(container).fetch(FetchDescriptor<Visit>()).map(\.name) == ["kept"])
        let before = try history(container)
        #expect(before.map(\.changes.count) == [1])
        context.insert(Visit(name: "after"))
        try context.save()
        let numbers = try history(container).map(\.transactionIdentifier)
        #expect(numbers.count == 2 && numbers[1] > numbers[0])
    }

    /// A store whose schema was made before stores kept history: a read-only store has none, and the first store
    /// opened for saving adds the table and records from then on.
    @Test func aStoreMadeBeforeHistoryGetsItsTable() throws {
        let location = StoreKind.postgres.location()
        do {
            let context = ModelContext(try location.container(HistoryNote.self))
            context.insert(HistoryNote(text: "old"))
            try context.save()
        }
        let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        try connection.execute("DROP TABLE \"\(location.postgresSchema)\".\(PostgresRowStore.historyTable)")

        let reader = try location.container(HistoryNote.self, allowsSave: false)
        #expect(try history(reader).isEmpty)
        #expect(try ModelContext(reader).fetchCount(FetchDescriptor<HistoryNote>()) == 1)

        let container = try location.container(HistoryNote.self)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "new"))
        try context.save()
        #expect(try history(container).map(\.changes.count) == [1])
        #expect(try history(reader).count == 1, "the read-only store sees the table once it exists")
    }

    /// `PostgresStore` provides its history through `HistoryProviding`, as `DefaultStore` does.
    @Test func thePostgresStoreProvidesItsHistory() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(HistoryNote.self)
        let context = ModelContext(container)
        context.author = "planner"
        for text in ["a", "b"] {
            context.insert(HistoryNote(text: text))
            try context.save()
        }
        guard let configuration = try location.configuration(Schema([HistoryNote.self])) as? PostgresConfiguration
        else { throw CocoaError(.featureUnsupported) }
        let store = try PostgresStore(configuration, migrationPlan: nil)
        #expect(PostgresStore.historyType == DefaultHistoryTransaction.self)
        let transactions = try store.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions == (try history(container)))
        let first = transactions[0].token
        try store.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= first }))
        #expect(try history(container).map(\.transactionIdentifier) == [transactions[1].transactionIdentifier])
    }

    /// A container with an SQLite store and a PostgreSQL store: one history, each store's transactions with tokens
    /// of their own.
    @Test func aContainerOfBothStoresHasTheHistoryOfEach() throws {
        let directory = TemporaryDirectory()
        let location = StoreKind.postgres.location()
        let container = try ModelContainer(
            for: HistoryTrip.self, HistoryNote.self,
            configurations: ModelConfiguration(
                "trips", schema: Schema([HistoryTrip.self]), url: directory.store("trips")),
            PostgresConfiguration(
                "notes", url: try PostgresTestServer.shared().url, schema: Schema([HistoryNote.self]),
                postgresSchema: location.postgresSchema))
        let context = ModelContext(container)
        context.insert(HistoryTrip(name: "Bern", destination: "Switzerland"))
        context.insert(HistoryNote(text: "chocolate"))
        try context.save()
        let transactions = try history(container)
        let trips = try #require(container.storeIdentifier(forConfigurationNamed: "trips"))
        let notes = try #require(container.storeIdentifier(forConfigurationNamed: "notes"))
        #expect(Set(transactions.map(\.storeIdentifier)) == [trips, notes])
        #expect(transactions.allSatisfy { $0.changes.count == 1 })
        let noteToken = try #require(transactions.first { $0.storeIdentifier == notes }?.token)
        #expect(try history(container, #Predicate { $0.token >= noteToken }).map(\.storeIdentifier) == [notes])
    }
}
