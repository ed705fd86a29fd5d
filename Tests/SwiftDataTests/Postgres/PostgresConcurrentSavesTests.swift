import Foundation
import PostgresTestSupport
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// Saves of one container run at once, each on a connection of its own: a save that reads nothing it decides from
/// takes the save lock only with its `COMMIT`, so other saves commit while it writes. History numbers still follow
/// the commit order, and upserts stay exact.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresConcurrentSavesTests {
    typealias Event = PostgresCommitOutcomeTests.Event

    /// What a test's threads note, shared by reference.
    final class Notes: Sendable {
        let problems = Mutex<[String]>([])
        /// History numbers, as `didSave` tokens name them.
        let numbers = Mutex<[Int64]>([])
        /// The session of the save held open.
        let backend = Atomic<Int32>(0)
        /// The entities whose rows the save held open began to write, in order.
        let entities = Mutex<[String]>([])
    }

    @Model final class Tag {
        @Attribute(.unique) var name: String
        var uses: Int

        init(name: String, uses: Int) {
            self.name = name
            self.uses = uses
        }
    }

    /// The counter as a later version of a program has it: opening its store migrates the table.
    enum Later {
        @Model final class Counter {
            var label: String
            var value: Int = 0
            var note: String = ""

            init(label: String) {
                self.label = label
            }
        }
    }

    /// A container of counters and tags on a schema of its own, and its store.
    func container() throws -> (ModelContainer, PostgresRowStore) {
        let container = try StoreKind.postgres.location().container(Counter.self, Tag.self)
        return (container, try #require(container.stores.first as? PostgresRowStore))
    }

    /// Runs `body` on a thread of its own, noting what it throws in `problems`; the event fires when it returned.
    func onThread(_ notes: Notes, _ body: @escaping @Sendable () throws -> Void) -> Event {
        let done = Event()
        Thread.detachNewThread {
            defer { done.signal() }
            do { try body() } catch { notes.problems.withLock { $0.append("\(error)") } }
        }
        return done
    }

    /// A container whose counters "held" and `others` are stored, and a save of a change of "held" from another
    /// thread, held at its `COMMIT` (its row written, its transaction open on the server) until `release` fires:
    /// `notes.backend` is its session, `numbers` gets its history number, and `done` fires once it returned.
    func heldSave(others: [String] = [], _ notes: Notes, numbers: Notes) throws -> (
        container: ModelContainer, store: PostgresRowStore, release: Event, done: Event
    ) {
        let (container, store) = try container()
        let setup = ModelContext(container)
        for label in ["held"] + others { setup.insert(Counter(label: label)) }
        try setup.save()
        let held = Event()
        let release = Event()
        let first = Notes()
        store.willCommit = { connection in
            guard first.backend.exchange(1, ordering: .acquiringAndReleasing) == 0 else { return }
            notes.backend.store(connection.backendPID, ordering: .releasing)
            held.signal()
            release.wait()
        }
        let done = onThread(notes) { try Self.change("held", to: 1, in: container, numbers: numbers) }
        #expect(held.wait())
        return (container, store, release, done)
    }

    /// Saves `counter`'s change from a context of its own, noting the history number its `didSave` token names.
    static func change(_ label: String, to value: Int, in container: ModelContainer, numbers: Notes) throws {
        let context = ModelContext(container)
        let counter = try #require(
            try context.fetch(FetchDescriptor<Counter>(predicate: #Predicate { $0.label == label })).first)
        counter.value = value
        try save(context, numbers: numbers)
    }

    /// Saves `context`, noting the history number its `didSave` token names.
    static func save(_ context: ModelContext, numbers: Notes) throws {
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { notification in
            let token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue]
            if let number = (token as? DefaultHistoryToken)?.positions.values.first {
                numbers.numbers.withLock { $0.append(number) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
    }

    /// Sets the only tag's uses and the only counter's value from a context of its own, the tag first or last, and
    /// saves.
    static func changeBoth(tagFirst: Bool, to value: Int, in container: ModelContainer) throws {
        let context = ModelContext(container)
        let tag = try #require(try context.fetch(FetchDescriptor<Tag>()).first)
        let counter = try #require(try context.fetch(FetchDescriptor<Counter>()).first)
        if tagFirst { tag.uses = value }
        counter.value = value
        if !tagFirst { tag.uses = value }
        try context.save()
    }

    /// Waits, a minute at most, until a session waits for a lock the session `backend` holds; returns whether one
    /// did. The server announces it by no event, so this asks it again and again.
    func someSessionWaits(for backend: Int32) throws -> Bool {
        let monitor = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let waiting = try monitor.preparedQuery(
                "SELECT count(*)::bigint FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))",
                [.int8(Int64(backend))])
            if try waiting.int64(0, 0) ?? 0 > 0 { return true }
        }
        return false
    }

    /// The values stored for the counters, by label, read by a context of its own.
    func values(_ container: ModelContainer) throws -> [String: Int] {
        let counters = try ModelContext(container).fetch(FetchDescriptor<Counter>())
        return Dictionary(uniqueKeysWithValues: counters.map { ($0.label, $0.value) })
    }

    @Test func aSaveCommitsWhileAnotherHoldsItsTransactionOpenOnTheServer() throws {
        let notes = Notes()
        let heldNumbers = Notes()
        let quickNumbers = Notes()
        let (container, store, release, heldDone) = try heldSave(notes, numbers: heldNumbers)
        defer { store.willCommit = nil }
        // The held save wrote its row in a transaction that is open on the server now.
        let state = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString).preparedQuery(
            "SELECT state || ': ' || query FROM pg_stat_activity WHERE pid = $1",
            [.int8(Int64(notes.backend.load(ordering: .acquiring)))]
        ).string(0, 0)
        #expect(state?.hasPrefix("idle in transaction: UPDATE") == true, "\(state ?? "no session")")
        let quickDone = onThread(notes) {
            let context = ModelContext(container)
            context.insert(Counter(label: "quick"))
            try Self.save(context, numbers: quickNumbers)
        }
        #expect(quickDone.wait(), "a second save commits while the first holds its transaction open")
        #expect(try values(container) == ["held": 0, "quick": 0])
        release.signal()
        #expect(heldDone.wait())
        #expect(notes.problems.withLock { $0 } == [])
        #expect(try values(container) == ["held": 1, "quick": 0])
        // The save that committed first has the smaller history number.
        let quick = quickNumbers.numbers.withLock { $0 }
        let late = heldNumbers.numbers.withLock { $0 }
        #expect(quick.count == 1 && late.count == 1 && quick.first ?? 0 < late.first ?? 0, "\(quick) \(late)")
    }

    /// A reader that follows the history ("everything after the last number I saw") while saves overlap misses
    /// none: every transaction comes exactly once, in commit order, the held save's after those that committed
    /// while it was held.
    @Test func historyNumbersFollowTheCommitOrderWhenSavesOverlap() throws {
        let notes = Notes()
        let (container, store, release, heldDone) = try heldSave(
            others: (0..<4).map { "thread \($0)" }, notes, numbers: notes)
        defer { store.willCommit = nil }
        // The held save draws its number with its COMMIT, after this one.
        let start = try #require(try store.fetchHistory(HistoryRequest()).last?.number)

        // The reader's numbers; its backend field tells it to stop.
        let reading = Notes()
        let reader = onThread(notes) {
            var last = start
            while reading.backend.load(ordering: .acquiring) == 0 {
                let records = try store.fetchHistory(HistoryRequest(condition: .number(.greater, last)))
                reading.numbers.withLock { $0 += records.map(\.number) }
                last = records.last?.number ?? last
            }
        }
        let savers = (0..<4).map { thread in
            onThread(notes) {
                for value in 1...10 {
                    try Self.change("thread \(thread)", to: value, in: container, numbers: notes)
                }
            }
        }
        #expect(savers.allSatisfy { $0.wait() }, "the other saves commit while one is held")
        release.signal()
        #expect(heldDone.wait())
        reading.backend.store(1, ordering: .releasing)
        #expect(reader.wait())
        // What committed after the reader's last fetch.
        let last = reading.numbers.withLock { $0.last } ?? start
        let rest = try store.fetchHistory(HistoryRequest(condition: .number(.greater, last)))
        reading.numbers.withLock { $0 += rest.map(\.number) }

        #expect(notes.problems.withLock { $0 } == [])
        let all = try store.fetchHistory(HistoryRequest(condition: .number(.greater, start))).map(\.number)
        let saved = notes.numbers.withLock { $0 }
        #expect(all.count == 41)
        #expect(reading.numbers.withLock { $0 } == all, "the reader saw every transaction once, in order")
        #expect(Set(saved) == Set(all), "each save's token names its own transaction")
        #expect(all.last == saved.last, "the held save committed last, with the largest number")
        #expect(try values(container)["held"] == 1)
    }

    /// New models of an entity with a unique constraint, saved at once from many contexts while another save holds
    /// its transaction open: each name is stored once, the later saves updating the row the first inserted.
    @Test func concurrentUpsertsOfOneUniqueValueStoreOneRow() throws {
        let notes = Notes()
        let (container, store, release, heldDone) = try heldSave(notes, numbers: notes)
        defer { store.willCommit = nil }
        let savers = (0..<6).map { thread in
            onThread(notes) {
                for round in 0..<5 {
                    let context = ModelContext(container)
                    context.insert(Tag(name: "shared", uses: thread * 10 + round))
                    context.insert(Tag(name: "thread \(thread)", uses: round))
                    try context.save()
                }
            }
        }
        #expect(savers.allSatisfy { $0.wait() }, "the upserts commit while another save is held")
        release.signal()
        #expect(heldDone.wait())
        #expect(notes.problems.withLock { $0 } == [])
        let tags = try ModelContext(container).fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map(\.name) == ["shared"] + (0..<6).map { "thread \($0)" })
        #expect(tags.dropFirst().map(\.uses) == Array(repeating: 4, count: 6), "each thread's last save won")
        #expect(tags.first.map { $0.uses % 10 == 4 } == true, "the shared row holds a last save's value")
    }

    /// A store opened by a later version of the program migrates while a save holds the table it wrote and waits for
    /// the save lock with its `COMMIT`: the migration waits for the save's tables before it takes the save lock, so
    /// the save commits, then the migration runs, and neither fails with a deadlock.
    @Test func aMigrationWaitsForASaveInFlightWithoutADeadlock() throws {
        let notes = Notes()
        let (_, store, release, heldDone) = try heldSave(notes, numbers: notes)
        defer { store.willCommit = nil }
        let configuration = store.configuration
        let migrated = onThread(notes) {
            let later = try ModelContainer(
                for: Later.Counter.self, Tag.self,
                configurations: PostgresConfiguration(
                    url: configuration.url, postgresSchema: configuration.postgresSchema))
            let counters = try ModelContext(later).fetch(FetchDescriptor<Later.Counter>())
            #expect(counters.map { "\($0.label)=\($0.value)" } == ["held=1"])
        }
        #expect(
            try someSessionWaits(for: notes.backend.load(ordering: .acquiring)), "the migration waited for the save")
        release.signal()
        #expect(heldDone.wait())
        #expect(migrated.wait())
        #expect(notes.problems.withLock { $0 } == [])
    }

    /// Two saves that change the same counter and tag in opposite orders lock their rows in one order, whatever
    /// order the models changed in: the second waits for the first rather than deadlocking with it. The first is
    /// held between its two entities until the second waits for it; neither may run again (`saveRetries` 0).
    @Test func savesChangingEntitiesInOppositeOrdersDoNotDeadlock() throws {
        let (container, store) = try container()
        let setup = ModelContext(container)
        setup.insert(Counter(label: "shared"))
        setup.insert(Tag(name: "shared", uses: 0))
        try setup.save()
        var configuration = store.configuration
        configuration.saveRetries = 0
        let strict = try ModelContainer(for: Counter.self, Tag.self, configurations: configuration)
        let strictStore = try #require(strict.stores.first as? PostgresRowStore)
        defer { strictStore.willUpdate = nil }
        let notes = Notes()
        let held = Event()
        let release = Event()
        strictStore.willUpdate = { connection, entity in
            let pid = connection.backendPID
            let first = notes.backend.compareExchange(expected: 0, desired: pid, ordering: .acquiringAndReleasing)
            guard first.exchanged || first.original == pid else { return }
            let written = notes.entities.withLock { entities in
                entities.append(entity)
                return entities.count
            }
            if written == 2 {
                held.signal()
                release.wait()
            }
        }
        let first = onThread(notes) { try Self.changeBoth(tagFirst: true, to: 1, in: strict) }
        #expect(held.wait(), "the first save wrote one entity")
        let second = onThread(notes) { try Self.changeBoth(tagFirst: false, to: 2, in: strict) }
        #expect(
            try someSessionWaits(for: notes.backend.load(ordering: .acquiring)),
            "the second save waited for a row the first wrote")
        release.signal()
        #expect(first.wait() && second.wait())
        #expect(notes.problems.withLock { $0 } == [], "no save failed with a deadlock")
        #expect(notes.entities.withLock { $0 } == ["Counter", "Tag"], "the first save wrote in the tables' order")
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Counter>()).map(\.value) == [2])
        #expect(try context.fetch(FetchDescriptor<Tag>()).map(\.uses) == [2])
    }

    /// A migration that loses a deadlock (as it may, to a save holding the save lock and a save in flight at once)
    /// runs again: the server rolled its transaction back whole. A trigger on the migrated table stands in for the
    /// deadlock: it fails the migration's first fill of the new column with SQLSTATE `40P01`, counting the runs in a
    /// sequence (which a rollback does not undo).
    @Test func aMigrationThatLosesADeadlockRunsAgain() throws {
        let (container, store) = try container()
        let setup = ModelContext(container)
        setup.insert(Counter(label: "kept"))
        try setup.save()
        let configuration = store.configuration
        let schema = "\"\(configuration.postgresSchema)\""
        let owner = try PostgresConnection(PostgresTestServer.shared().url)
        try owner.execute(
            """
            CREATE SEQUENCE \(schema).runs; CREATE FUNCTION \(schema).deadlock() RETURNS trigger LANGUAGE plpgsql AS $$ \
            BEGIN IF nextval('\(schema).runs') = 1 THEN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; \
            END IF; RETURN NEW; END $$; CREATE TRIGGER deadlock BEFORE UPDATE ON \(schema)."Counter" FOR EACH ROW \
            EXECUTE FUNCTION \(schema).deadlock()
            """)
        let later = try ModelContainer(
            for: Later.Counter.self, Tag.self,
            configurations: PostgresConfiguration(url: configuration.url, postgresSchema: configuration.postgresSchema))
        #expect(try ModelContext(later).fetch(FetchDescriptor<Later.Counter>()).map(\.label) == ["kept"])
        let runs = try owner.query("SELECT last_value FROM \(schema).runs")
        #expect(try runs.int64(0, 0) == 2, "the migration ran twice")
    }

    /// Saves run at once on different threads, but a save started inside another on the same thread (user code run
    /// by a save) is still refused: it would wait for a connection or a row its outer save holds.
    @Test func aSaveStartedInsideAnotherOnTheSameThreadThrows() throws {
        let (_, store) = try container()
        let notes = Notes()
        try store.write { _ in
            do { try store.write { _ in } } catch { notes.problems.withLock { $0.append("\(error)") } }
        }
        let problems = notes.problems.withLock { $0 }
        #expect(problems.count == 1 && problems.first?.contains("inside another") == true, "\(problems)")
    }
}
