import Foundation
import PostgresTestSupport
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// The server pattern: one context per request, many requests at once on one container, through its pool. Nothing
/// is lost, the pool never opens more than `maximumConnections`, a request that waits too long for a connection
/// gets an error naming the pool's size, and a save that deadlocks with another session runs again, whole.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresRequestsTests {
    /// How many requests run at once.
    static let requests = 32

    /// A container on a schema of its own, with `maximumConnections` connections and the test's application name.
    func container(
        maximumConnections: Int = 4, _ change: (inout PostgresConfiguration) -> Void = { _ in }
    ) throws -> (ModelContainer, PostgresRowStore, application: String) {
        let location = StoreKind.postgres.location()
        let application = "requests_" + location.postgresSchema
        var configuration = PostgresConfiguration(
            url: try PostgresTestServer.shared().url + "?application_name=\(application)",
            postgresSchema: location.postgresSchema, maximumConnections: maximumConnections)
        change(&configuration)
        let container = try ModelContainer(for: Counter.self, configurations: configuration)
        return (container, try #require(container.stores.first as? PostgresRowStore), application)
    }

    /// One request: a context of its own inserts a counter, saves, fetches it by its label, changes it and saves.
    static func request(_ number: Int, in container: ModelContainer) throws {
        let context = ModelContext(container)
        context.insert(Counter(label: "request \(number)"))
        try context.save()
        let label = "request \(number)"
        let later = ModelContext(container)
        let counter = try #require(
            try later.fetch(FetchDescriptor<Counter>(predicate: #Predicate { $0.label == label })).first)
        counter.value = number + 1
        try later.save()
    }

    /// Every request's counter is stored once, changed; the pool stayed within its size, and so did the server's
    /// count of the container's sessions (the pool's plus the one that listens).
    func expectEveryRequestStored(_ container: ModelContainer, _ store: PostgresRowStore, application: String) throws {
        let counters = try ModelContext(container).fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)]))
        #expect(counters.map(\.value) == Array(1...Self.requests))
        #expect(Set(counters.map(\.label)).count == Self.requests)
        #expect(store.mostConnectionsOpen <= store.configuration.maximumConnections)
        #expect(store.mostConnectionsOpen >= 1)
        let sessions = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString).preparedQuery(
            "SELECT count(*)::bigint FROM pg_stat_activity WHERE application_name = $1", [.text(application)]
        ).int64(0, 0)
        #expect(sessions ?? 0 <= Int64(store.configuration.maximumConnections + 1))
    }

    @Test func thirtyTwoConcurrentTasksEachWithItsOwnContext() async throws {
        let (container, store, application) = try container()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<Self.requests {
                group.addTask { try Self.request(number, in: container) }
            }
            try await group.waitForAll()
        }
        try expectEveryRequestStored(container, store, application: application)
    }

    @Test func thirtyTwoModelActorJobs() async throws {
        let (container, store, application) = try container()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<Self.requests {
                group.addTask { try await RequestActor(modelContainer: container).handle(number) }
            }
            try await group.waitForAll()
        }
        try expectEveryRequestStored(container, store, application: application)
    }

    /// Thirty-two threads at once, each blocked in libpq while it waits for the server, as a server with a thread
    /// per request runs: more requests than connections wait for the pool.
    @Test func thirtyTwoThreadsShareAPoolOfFour() throws {
        let (container, store, application) = try container()
        let state = PostgresCommitOutcomeTests.RoundState()
        let finished = DispatchGroup()
        for number in 0..<Self.requests {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                do { try Self.request(number, in: container) } catch {
                    state.problems.withLock { $0.append("request \(number): \(error)") }
                }
            }
        }
        finished.wait()
        #expect(state.problems.withLock { $0 } == [])
        try expectEveryRequestStored(container, store, application: application)
    }

    @Test func aRequestThatWaitsTooLongForAConnectionIsToldThePoolsSize() throws {
        let (container, store, _) = try container(maximumConnections: 1) {
            $0.connectionWaitTimeout = .milliseconds(200)
        }
        // A save holds the only connection, in its transaction, until the fetch below gave up.
        let held = PostgresCommitOutcomeTests.Event()
        let release = PostgresCommitOutcomeTests.Event()
        store.willWrite = { _ in
            held.signal()
            release.wait()
        }
        let saved = PostgresCommitOutcomeTests.Event()
        let state = PostgresCommitOutcomeTests.RoundState()
        Thread.detachNewThread {
            defer { saved.signal() }
            let context = ModelContext(container)
            context.insert(Counter(label: "held"))
            do { try context.save() } catch { state.problems.withLock { $0.append("\(error)") } }
        }
        #expect(held.wait())
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContext(container).fetchCount(FetchDescriptor<Counter>())
        }
        release.signal()
        #expect(saved.wait())
        #expect(state.problems.withLock { $0 } == [])
        #expect(error?.storeCode == "53300")
        let text = "\(error.map { String(describing: $0) } ?? "")"
        #expect(text.contains("all 1 connection of the pool stayed in use for 0.2 seconds"), "\(text)")
        #expect(text.contains("maximumConnections") && text.contains("connectionWaitTimeout"), "\(text)")
        store.willWrite = nil
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Counter>()) == 1)
    }

    @Test func aConfigurationThatCannotWaitOrRetryIsRefused() throws {
        var configuration = PostgresConfiguration(url: try PostgresTestServer.shared().url)
        configuration.saveRetries = -1
        #expect {
            try ModelContainer(for: Counter.self, configurations: configuration)
        } throws: { error in
            "\(error)".contains("retries a save -1 times") && "\(error)".contains("retry zero or more times")
        }
        configuration.saveRetries = 0
        configuration.connectionWaitTimeout = .zero
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try ModelContainer(for: Counter.self, configurations: configuration)
        }
    }

    /// A save deadlocks with another session: the other session holds the save lock and waits for a table the save
    /// wrote to (its identifier's, written with its `BEGIN`), while the save waits for the save lock, which it takes
    /// before its delete. (The delete comes after the save's change and before its insert: the save runs again from
    /// a state in which it had written some rows and noted the deleted keys.) The server breaks the deadlock by
    /// failing the save (the other session waits with a `deadlock_timeout` of an hour, so it never checks), and the
    /// store runs the save again, whole: its change, insert and delete are each stored once.
    func deadlockedSave(retries: Int) throws -> (
        runs: Int, error: SwiftDataError?, stored: [String], context: ModelContext
    ) {
        let (container, store, _) = try container { $0.saveRetries = retries }
        let schema = store.configuration.postgresSchema
        let context = ModelContext(container)
        let changed = Counter(label: "changed")
        let deleted = Counter(label: "deleted")
        context.insert(changed)
        context.insert(deleted)
        try context.save()

        let lockHeld = PostgresCommitOutcomeTests.Event()
        let wait = PostgresCommitOutcomeTests.Event()
        let done = PostgresCommitOutcomeTests.Event()
        let state = PostgresCommitOutcomeTests.RoundState()
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                let other = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
                state.backend.store(other.backendPID, ordering: .releasing)
                try other.execute(
                    "SET deadlock_timeout = '1h'; BEGIN; SELECT pg_advisory_xact_lock(hashtext('swiftdata:\(schema)'))")
                lockHeld.signal()
                wait.wait()
                try other.execute("LOCK TABLE \"\(schema)\"._swiftdata_saves IN SHARE MODE")
                try other.execute("ROLLBACK")
            } catch {
                state.problems.withLock { $0.append("\(error)") }
                lockHeld.signal()
            }
        }
        #expect(lockHeld.wait())
        let monitor = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        var runs = 0
        store.willWrite = { _ in
            runs += 1
            guard runs == 1 else { return }
            wait.signal()
            // The other session waits for the save's table before the save goes on to the lock the other one holds.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let waiting = try? monitor.preparedQuery(
                    "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1",
                    [.int8(Int64(state.backend.load(ordering: .acquiring)))]
                ).bool(0, 0)
                if waiting == true { return }
            }
            state.problems.withLock { $0.append("the other session never waited for the save's table") }
        }
        changed.value = 7
        context.insert(Counter(label: "inserted"))
        context.delete(deleted)
        var error: SwiftDataError?
        do { try context.save() } catch let thrown as SwiftDataError { error = thrown }
        #expect(done.wait())
        #expect(state.problems.withLock { $0 } == [])
        store.willWrite = nil
        let stored = try ModelContext(container).fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label)]))
        return (runs, error, stored.map { "\($0.label)=\($0.value)" }, context)
    }

    @Test func aSaveThatDeadlocksRunsAgainWhole() throws {
        let (runs, error, stored, _) = try deadlockedSave(retries: 3)
        #expect(error == nil)
        #expect(runs == 2)
        #expect(stored == ["changed=7", "inserted=0"])
    }

    @Test func aSaveThatDeadlocksMoreThanItsRetriesIsReportedAndKeepsItsChanges() throws {
        let (runs, error, stored, context) = try deadlockedSave(retries: 0)
        #expect(runs == 1)
        #expect(error?.storeCode == "40P01")
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("The save ran 1 time, each rolled back"))
        #expect(stored == ["changed=0", "deleted=0"])
        try context.save()
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label)]))
                .map { "\($0.label)=\($0.value)" } == ["changed=7", "inserted=0"])
    }
}

/// A request served by an actor of its own, as a server's `@ModelActor` job.
@ModelActor actor RequestActor {
    /// Runs request `number` on the actor's context.
    func handle(_ number: Int) throws {
        modelContext.insert(Counter(label: "request \(number)"))
        try modelContext.save()
        let label = "request \(number)"
        let counter = try modelContext.fetch(FetchDescriptor<Counter>(predicate: #Predicate { $0.label == label }))
        try #require(counter.first).value = number + 1
        try modelContext.save()
    }
}
