import Foundation
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataSQLite

/// Readers never wait for a writer: while a save holds the store's write transaction, fetches in other contexts run
/// on connections of their own and complete, still noticing what another connection committed before the save;
/// and a query made while another is being read (an observer that fetches) neither deadlocks nor disturbs it.
///
/// A save is held inside its transaction by a statement observer until the test lets it go, so the order of
/// events says whether a fetch waited for it; the hold gives up after a while, so that a fetch that does wait makes
/// the test fail instead of hanging it.
@Suite struct ReadDuringWriteTests {
    @Test func aFetchInAnotherContextCompletesWhileASaveIsInProgress() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Counter.self, in: directory)
        let setup = ModelContext(container)
        for index in 0..<10 { setup.insert(Counter(label: "saved \(index)")) }
        try setup.save()

        let hold = SaveHold(container, table: "Counter")
        let saving = hold.save {
            let writer = ModelContext(container)
            for index in 0..<1_000 { writer.insert(Counter(label: "new \(index)")) }
            try writer.save()
        }
        try #require(hold.waitUntilHeld(), "the save reached its transaction")
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Counter>()).count
        hold.record("fetch finished")
        hold.release()
        saving.wait()

        #expect(hold.events == ["save in progress", "fetch finished", "save finished"])
        #expect(fetched == 10, "the fetch sees what was committed before the save began")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Counter>()) == 1_010)
    }

    @Test func aModelActorFetchesWhileASaveIsInProgress() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Counter.self, in: directory)
        let setup = ModelContext(container)
        setup.insert(Counter(label: "saved"))
        try setup.save()

        let hold = SaveHold(container, table: "Counter")
        let saving = hold.save {
            let writer = ModelContext(container)
            writer.insert(Counter(label: "new"))
            try writer.save()
        }
        try #require(hold.waitUntilHeld(), "the save reached its transaction")
        let labels = try await Reader(modelContainer: container).labels(then: hold)
        saving.wait()

        #expect(hold.events == ["save in progress", "fetch finished", "save finished"])
        #expect(labels == ["saved"])
    }

    /// Another container on the same file has connections of its own, as another process has: the store learns of
    /// its commits from SQLite's `data_version`, which a save in progress must not keep a fetch from reading.
    @Test func aCommitOfAnotherConnectionBeforeTheSaveIsNoticedDuringIt() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Counter.self, in: directory)
        let reader = ModelContext(container)
        reader.insert(Counter(label: "watched"))
        try reader.save()
        let watched = try #require(try reader.fetch(FetchDescriptor<Counter>()).first)

        let other = ModelContext(try makeContainer(Counter.self, in: directory))
        let copy = try #require(try other.fetch(FetchDescriptor<Counter>()).first)
        copy.value = 5
        try other.save()

        let hold = SaveHold(container, table: "Counter")
        let saving = hold.save {
            let writer = ModelContext(container)
            writer.insert(Counter(label: "new"))
            try writer.save()
        }
        try #require(hold.waitUntilHeld(), "the save reached its transaction")
        // A fetch that does not return the watched model: only the notice of the other connection's commit can
        // refresh it.
        let none = try reader.fetch(FetchDescriptor<Counter>(predicate: #Predicate { $0.label == "none" }))
        let value = watched.value
        hold.record("fetch finished")
        hold.release()
        saving.wait()

        #expect(hold.events == ["save in progress", "fetch finished", "save finished"])
        #expect(none.isEmpty)
        #expect(value == 5, "the commit of the other connection was noticed during the save")
    }

    /// An observer that fetches runs while the fetch that refreshes its model reads rows: on an in-memory store,
    /// whose one connection serves reads and writes alike, that fetch must not wait for the one it runs inside.
    @Test func anObserverFetchesWhileAnInMemoryFetchReadsRows() throws {
        let outcome = Locked<(done: Bool, nested: Int?, error: String?)>((false, nil, nil))
        let finished = DispatchSemaphore(value: 0)
        // On a thread of its own, so that a deadlock fails the test instead of hanging it.
        Thread {
            do {
                let container = try makeMemoryContainer(Counter.self)
                let writer = ModelContext(container)
                let counter = Counter(label: "watched")
                writer.insert(counter)
                try writer.save()
                let reader = ModelContext(container)
                guard let seen = try reader.fetch(FetchDescriptor<Counter>()).first else {
                    throw SwiftDataError.storeError.with(reason: "the saved model was not fetched")
                }
                withObservationTracking {
                    _ = seen.value
                } onChange: {
                    let count = try? ModelContext(container).fetch(FetchDescriptor<Counter>()).count
                    outcome.withLock { $0.nested = count }
                }
                counter.value = 1
                try writer.save()
                _ = try reader.fetch(FetchDescriptor<Counter>())
                outcome.withLock { $0.done = seen.value == 1 }
            } catch {
                outcome.withLock { $0.error = "\(error)" }
            }
            finished.signal()
        }.start()
        #expect(finished.wait(timeout: .now() + 30) == .success, "the fetch finished")
        let result = outcome.withLock { $0 }
        #expect(result.error == nil)
        #expect(result.done, "the fetch refreshed the model")
        #expect(result.nested == 1, "the observer's fetch ran, inside the other")
    }

    /// A query run while a statement with the same SQL is being stepped (as a row callback can) gets a statement of
    /// its own instead of resetting the one in use.
    @Test func aQueryWithTheSQLOfAStatementInUseLeavesThatStatementAlone() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, create: true)
        try database.executeScript("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT x FROM t ORDER BY x"
        let outer = try database.statement(sql)
        var seen: [Int64] = []
        var nested: [Int] = []
        // The bound keeps a statement that restarts from looping forever.
        while seen.count < 10, try outer.step() {
            seen.append(try outer.int64(0))
            nested.append(try database.rows(sql).count)
        }
        outer.reset()
        #expect(seen == [1, 2, 3], "the outer query went on where it was")
        #expect(nested == [3, 3, 3])
        #expect(try database.statement(sql) === outer, "once reset, the cached statement serves again")
    }

    /// A write started from inside another write of the same store, on the same thread (user code run by a save),
    /// is refused: it would otherwise join the outer transaction and be undone with it.
    @Test func aWriteInsideAWriteOfTheSameStoreIsRefused() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Counter.self, in: directory)
        let store = try #require(container.stores.first as? SQLiteStore)
        let outcome = Locked<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            do {
                try store.write { _ in try store.write { _ in } }
                outcome.withLock { $0 = "no error" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }.start()
        #expect(finished.wait(timeout: .now() + 30) == .success, "the writes finished")
        let message = try #require(outcome.withLock { $0 })
        #expect(message.contains("inside another"), "\(message)")
    }

    @ModelActor actor Reader {
        /// Fetches, then records it and lets the save go, on the actor's queue: whether the test's task resumes
        /// soon after depends on the tests that run beside it.
        func labels(then hold: SaveHold) throws -> [String] {
            let labels = try modelContext.fetch(FetchDescriptor<Counter>()).map(\.label)
            hold.record("fetch finished")
            hold.release()
            return labels
        }
    }
}

/// A value that threads share, behind a lock.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}

/// Holds the first save that inserts into a table inside its write transaction until `release()`, and records the
/// order of events.
final class SaveHold: Sendable {
    private let table: String
    private let state = Mutex<(held: Bool, events: [String])>((false, []))
    private let held = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let stores: [SQLiteStore]

    init(_ container: ModelContainer, table: String) {
        self.table = table
        stores = container.stores.compactMap { $0 as? SQLiteStore }
        for store in stores { store.observeStatements { [weak self] sql in self?.observe(sql) } }
    }

    deinit { stores.forEach { $0.observeStatements(nil) } }

    /// Runs `save` on a thread of its own, recording when it finished; the semaphore is signalled then.
    func save(_ save: @escaping @Sendable () throws -> Void) -> DispatchSemaphore {
        let finished = DispatchSemaphore(value: 0)
        Thread { [self] in
            do {
                try save()
                record("save finished")
            } catch {
                record("save failed: \(error)")
            }
            finished.signal()
        }.start()
        return finished
    }

    func record(_ event: String) { state.withLock { $0.events.append(event) } }

    var events: [String] { state.withLock { $0.events } }

    /// Waits until a save is held; `false` if none comes.
    func waitUntilHeld() -> Bool { held.wait(timeout: .now() + 60) == .success }

    func release() { released.signal() }

    private func observe(_ sql: String) {
        guard sql.hasPrefix("INSERT INTO \"\(table)\"") else { return }
        let first = state.withLock { state in
            defer { state.held = true }
            return !state.held
        }
        guard first else { return }
        record("save in progress")
        held.signal()
        // Long enough for any fetch that does not wait; a fetch that waits for the save finishes after it.
        if released.wait(timeout: .now() + 10) == .timedOut { record("the save stopped waiting") }
    }
}
