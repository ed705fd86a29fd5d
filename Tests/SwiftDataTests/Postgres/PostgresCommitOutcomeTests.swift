import Foundation
import PostgresTestSupport
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// Saves whose connection is lost at the `COMMIT`, on a server of the test's own: crashed (`pg_ctl stop -m
/// immediate`) or with the session terminated (`pg_terminate_backend`), before or after the commit record is
/// written, with the server back at once or only after the save gave up asking. A client that simply calls `save()`
/// again until it succeeds must find every change stored exactly once.
@Suite(.enabled(if: PostgresTestServer.isAvailable), .serialized) struct PostgresCommitOutcomeTests {
    /// Where the fault strikes, and what it is.
    enum Fault: CaseIterable, Sendable {
        /// The server is stopped just before the `COMMIT` is sent: the transaction is lost.
        case crashBeforeCommit
        /// The `COMMIT` is held inside the server before it commits (a deferred trigger waits on a lock), then the
        /// server is stopped: the transaction is lost.
        case crashWhileCommitting
        /// As `crashWhileCommitting`, the session terminated instead.
        case terminateWhileCommitting
        /// The `COMMIT` is held after its commit record is durable (waiting for a synchronous standby that does
        /// not exist), then the server is stopped: the transaction committed, its answer lost.
        case crashAfterCommitRecord
        /// As `crashAfterCommitRecord`, the session terminated instead.
        case terminateAfterCommitRecord
        /// As `crashAfterCommitRecord`, with the server back only after the save gave up asking: the next save
        /// learns that it committed.
        case outageAfterCommitRecord
        /// As `crashWhileCommitting`, with the server back only after the save gave up asking: the next save
        /// learns that it did not commit.
        case outageWhileCommitting

        var description: String { String(describing: self) }

        /// Whether the commit is held after its commit record (synchronous replication) rather than before it.
        var holdsAfterCommitRecord: Bool {
            [.crashAfterCommitRecord, .terminateAfterCommitRecord, .outageAfterCommitRecord].contains(self)
        }
        var holdsBeforeCommitRecord: Bool {
            [.crashWhileCommitting, .terminateWhileCommitting, .outageWhileCommitting].contains(self)
        }
        var terminates: Bool { [.terminateWhileCommitting, .terminateAfterCommitRecord].contains(self) }
        var waitsForTheClientToGiveUp: Bool { [.outageAfterCommitRecord, .outageWhileCommitting].contains(self) }
    }

    /// A one-shot event between threads.
    final class Event: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let fired = Atomic(false)

        func signal() {
            if !fired.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
        }

        /// Waits for the event for up to a minute; returns whether it came.
        @discardableResult
        func wait() -> Bool {
            guard semaphore.wait(timeout: .now() + 60) == .success else { return false }
            semaphore.signal()
            return true
        }
    }

    /// What a round's threads share: the saving session's process, and what went wrong off the test's thread.
    final class RoundState: Sendable {
        let backend = Atomic<Int32>(0)
        let problems = Mutex<[String]>([])
    }

    /// How many rounds the test runs (`SWIFTDATA_COMMIT_FAULT_ROUNDS`, default 14: each fault twice).
    static let rounds = Int(ProcessInfo.processInfo.environment["SWIFTDATA_COMMIT_FAULT_ROUNDS"] ?? "") ?? 14

    /// The lock a deferred trigger waits on, inside the `COMMIT`, while a test holds it.
    static let holdLock = 424_242

    @Test func savesRetriedThroughCrashesAndTerminatedSessionsAreStoredExactlyOnce() throws {
        let server = try PostgresTestServer.dedicated()
        let schema = "faults"
        var configuration = PostgresConfiguration(url: server.url, postgresSchema: schema)
        configuration.commitOutcomeWait = .seconds(3)
        let container = try ModelContainer(for: Counter.self, configurations: configuration)
        let store = try #require(container.stores.first as? PostgresRowStore)
        try server.psql(
            """
            CREATE FUNCTION "\(schema)".hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            PERFORM pg_advisory_xact_lock_shared(\(Self.holdLock)); RETURN NULL; END $$
            """,
            """
            CREATE CONSTRAINT TRIGGER hold AFTER INSERT OR UPDATE ON "\(schema)"."Counter" \
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "\(schema)".hold()
            """)
        let context = ModelContext(container)
        let total = Counter(label: "total")
        context.insert(total)
        try context.save()

        let faults = Fault.allCases
        var seen: [String: Int] = [:]
        for round in 0..<Self.rounds {
            let fault = faults[round % faults.count]
            if fault.holdsAfterCommitRecord { try Self.setSynchronousStandby("swiftdata_nobody", on: server) }
            // The fault's thread: it arms the hold, waits for the save to reach it, strikes, and brings the server
            // back.
            let armed = Event()
            let atCommit = Event()
            let clientFailed = Event()
            let finished = Event()
            let state = RoundState()
            Thread.detachNewThread {
                defer { finished.signal() }
                do {
                    try Self.strike(
                        fault, server: server, armed: armed, atCommit: atCommit, clientFailed: clientFailed,
                        backend: { state.backend.load(ordering: .acquiring) })
                } catch {
                    state.problems.withLock { $0.append("round \(round) (\(fault)): \(error)") }
                    armed.signal()
                }
            }
            #expect(armed.wait(), "round \(round): the fault was armed")
            var struck = false
            store.willCommit = { connection in
                guard !struck else { return }
                struck = true
                state.backend.store(connection.backendPID, ordering: .releasing)
                if fault == .crashBeforeCommit {
                    do { try server.stop() } catch { state.problems.withLock { $0.append("stop: \(error)") } }
                }
                atCommit.signal()
            }
            context.insert(Counter(label: "round \(round)"))
            total.value = round + 1
            var attempts = 0
            while true {
                attempts += 1
                do {
                    try context.save()
                    break
                } catch let error as SwiftDataError {
                    let text = "\(error)"
                    let kind =
                        error.storeCode == "08007"
                        ? "unknown" : text.contains("saving again is safe") ? "not committed" : "other"
                    seen[kind, default: 0] += 1
                    #expect(kind != "other", "round \(round) (\(fault)): \(text)")
                    if kind == "unknown" {
                        #expect((error.reason ?? "").contains("whether it committed is unknown"), "\(text)")
                        #expect(!text.contains("saving again is safe"), "\(text)")
                    }
                    guard attempts < 10, kind != "other" else { break }
                    clientFailed.signal()
                    #expect(finished.wait(), "round \(round): the server came back")
                }
            }
            #expect(finished.wait())
            store.willCommit = nil
            for problem in state.problems.withLock({ $0 }) { Issue.record(Comment(rawValue: problem)) }
            seen[fault.description, default: 0] += 1
            let rows = try server.psql(
                #"SELECT count(*) || ' ' || count(DISTINCT label) FROM "\#(schema)"."Counter""#)
            #expect(
                rows.trimmingCharacters(in: .whitespacesAndNewlines) == "\(round + 2) \(round + 2)",
                "round \(round) (\(fault)): rows and distinct labels: 0 duplicated, 0 lost")
            let value = try server.psql(#"SELECT value FROM "\#(schema)"."Counter" WHERE label = 'total'"#)
            #expect(value.trimmingCharacters(in: .whitespacesAndNewlines) == "\(round + 1)", "round \(round)")
            #expect(!context.hasChanges, "round \(round): the context saved everything")
        }
        // Each outcome was met: saves that failed as not committed, and saves whose outcome stayed unknown.
        if Self.rounds >= faults.count {
            #expect(seen["not committed", default: 0] > 0 && seen["unknown", default: 0] > 0, "\(seen)")
        }
        let labels = try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label)
        #expect(labels.count == Self.rounds + 1 && Set(labels).count == labels.count)
        print("commit faults: \(Self.rounds) rounds, outcomes \(seen)")
    }

    /// A server started or restarted while the test process holds many files open (late in a whole run) starts: it
    /// inherits none of them, which it would count against its own limit of open files and refuse to start.
    @Test func aServerStartsWhileTheTestProcessHoldsManyFilesOpen() throws {
        let files = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }
        defer { for file in files where file >= 0 { close(file) } }
        #expect(files.allSatisfy { $0 >= 0 })
        let server = try PostgresTestServer.dedicated()
        try server.stop()
        try server.start()
        #expect(try server.psql("SELECT 1").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// A save or fetch on an open container while its server is down is a store error with the SQLSTATE, not the
    /// error of opening a container; the context keeps its changes, and saves them once the server is back.
    @Test func aSaveOrFetchWhileTheServerIsDownIsAStoreError() throws {
        let server = try PostgresTestServer.dedicated()
        let container = try ModelContainer(
            for: Counter.self, configurations: PostgresConfiguration(url: server.url, postgresSchema: "down"))
        let context = ModelContext(container)
        context.insert(Counter(label: "kept"))
        try server.stop()
        func check(_ error: any Error, _ operation: String) {
            let error = error as? SwiftDataError
            #expect(error == .storeError, "\(operation): \(String(describing: error))")
            #expect(["08001", "57P03", "08006", "57P01"].contains(error?.storeCode ?? ""), "\(operation)")
        }
        #expect(throws: (any Error).self) { try context.save() }
        do { try context.save() } catch { check(error, "save") }
        do {
            _ = try ModelContext(container).fetch(FetchDescriptor<Counter>())
            Issue.record("a fetch ran while the server was down")
        } catch { check(error, "fetch") }
        #expect(context.hasChanges, "the context keeps its changes")
        try server.start()
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label) == ["kept"])
    }

    /// Arms the fault, waits for the save to reach it, strikes, and brings the server back.
    static func strike(
        _ fault: Fault, server: PostgresTestServer, armed: Event, atCommit: Event, clientFailed: Event,
        backend: () -> Int32
    ) throws {
        // The hold: a session-level lock that the deferred trigger waits on inside the COMMIT.
        let holder = try PostgresConnection(server.superuserConnectionString)
        if fault.holdsBeforeCommitRecord { try holder.execute("SELECT pg_advisory_lock(\(holdLock))") }
        armed.signal()
        guard atCommit.wait() else { throw ServerError("the save never reached its COMMIT") }
        if fault == .crashBeforeCommit {
            try server.start()
            return
        }
        // Wait for the save's session to be held where the fault says.
        let waitEvent = fault.holdsAfterCommitRecord ? "SyncRep" : "advisory"
        let deadline = Date(timeIntervalSinceNow: 60)
        while true {
            let state = try holder.query(
                "SELECT coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $1::int", [.int8(Int64(backend()))],
                format: .text)
            if state.rowCount == 1, try state.string(0, 0) == waitEvent { break }
            guard Date() < deadline else { throw ServerError("the COMMIT was never held at \(waitEvent)") }
            Thread.sleep(forTimeInterval: 0.005)
        }
        if fault.terminates {
            try holder.query("SELECT pg_terminate_backend($1::int)", [.int8(Int64(backend()))])
            if fault.holdsAfterCommitRecord { try setSynchronousStandby("", on: server) }
            return
        }
        try server.stop()
        if fault.waitsForTheClientToGiveUp {
            guard clientFailed.wait() else { throw ServerError("the save never gave up") }
        }
        try server.start()
        if fault.holdsAfterCommitRecord { try setSynchronousStandby("", on: server) }
    }

    /// Sets `synchronous_standby_names` and waits until a new session sees it (the server has then told every
    /// session to read its settings again, which each does before its next statement).
    static func setSynchronousStandby(_ names: String, on server: PostgresTestServer) throws {
        try server.psql(
            names.isEmpty
                ? "ALTER SYSTEM RESET synchronous_standby_names"
                : "ALTER SYSTEM SET synchronous_standby_names = '\(names)'",
            "SELECT pg_reload_conf()")
        let deadline = Date(timeIntervalSinceNow: 30)
        while try server.psql("SHOW synchronous_standby_names").trimmingCharacters(in: .whitespacesAndNewlines)
            != names
        {
            guard Date() < deadline else { throw ServerError("synchronous_standby_names stayed unchanged") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
