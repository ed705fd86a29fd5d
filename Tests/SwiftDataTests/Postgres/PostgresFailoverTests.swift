import Foundation
import PostgresTestSupport
import SwiftData
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// Failover through a libpq multi-host URL with synchronous replication: a process saving in a loop while its
/// primary is killed (`pg_ctl stop -m immediate`) and a standby promoted carries on once the new primary accepts
/// writes. Every save it reported as done is on the new primary, once; saves that threw are saved again by the
/// loop, as an app does; the containers' `LISTEN` resumes, and an observer of another container sees this one's
/// saves again. The test prints how long saves failed.
@Suite(.enabled(if: PostgresTestCluster.isAvailable), .serialized) struct PostgresFailoverTests {
    /// After how many saves the primary is killed, and how many the loop makes once a standby was promoted.
    static let killedAfter = 20
    static let savesAfterPromotion = 20

    /// A multi-host URL of every server of `cluster`, which connects to whichever accepts writes.
    static func multiHostURL(_ cluster: PostgresTestCluster, application: String) -> String {
        let primary = cluster.primary
        let hosts = ([primary] + cluster.standbys).map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
        return "postgresql://\(primary.user):\(primary.password)@\(hosts)/\(primary.database)"
            + "?target_session_attrs=read-write&connect_timeout=5&application_name=\(application)"
    }

    /// The standby that received the most WAL: with synchronous replication (`ANY 1`), it has every commit the
    /// primary reported.
    static func mostAdvanced(_ standbys: [PostgresTestServer]) throws -> PostgresTestServer {
        var best = standbys[0]
        var bestPosition = try best.psql("SELECT pg_last_wal_receive_lsn()").trimmingCharacters(
            in: .whitespacesAndNewlines)
        for standby in standbys.dropFirst() {
            let position = try standby.psql("SELECT pg_last_wal_receive_lsn()")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let ahead = try standby.psql("SELECT '\(position)'::pg_lsn > '\(bestPosition)'::pg_lsn")
            if ahead.trimmingCharacters(in: .whitespacesAndNewlines) == "t" {
                best = standby
                bestPosition = position
            }
        }
        return best
    }

    /// Waits until a session of `application` listens on `server` (its listener connected to it), for up to a minute.
    static func waitForListener(_ application: String, on server: PostgresTestServer) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let listening = try server.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(application)' "
                    + "AND query LIKE 'LISTEN%'")
            if listening.trimmingCharacters(in: .whitespacesAndNewlines) != "0" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw ServerError("no session of \(application) listens on the new primary")
    }

    @Test func savesCarryOnThroughAFailoverEachStoredOnce() async throws {
        let cluster = try PostgresTestCluster.dedicated(standbys: 2)
        try cluster.setSynchronousReplication(true)
        var configuration = PostgresConfiguration(url: Self.multiHostURL(cluster, application: "failover_saver"))
        configuration.commitOutcomeWait = .seconds(120)
        let container = try ModelContainer(for: Counter.self, configurations: configuration)
        // Another instance, as another process of the app: its own pool and listener.
        let other = try ModelContainer(
            for: Counter.self,
            configurations: PostgresConfiguration(url: Self.multiHostURL(cluster, application: "failover_other")))

        let promoted = PostgresCommitOutcomeTests.Event()
        let state = PostgresCommitOutcomeTests.RoundState()
        let newPrimary = PromotedServer()
        let reachedKill = PostgresCommitOutcomeTests.Event()
        Thread.detachNewThread {
            defer { promoted.signal() }
            do {
                #expect(reachedKill.wait())
                try cluster.primary.stop()
                let standby = try Self.mostAdvanced(cluster.standbys)
                try cluster.promote(standby)
                newPrimary.set(standby)
            } catch {
                state.problems.withLock { $0.append("failover: \(error)") }
            }
        }

        let outcome = try Self.saveInLoop(container, reachedKill: reachedKill) {
            newPrimary.server != nil || !state.problems.withLock { $0 }.isEmpty
        }
        #expect(promoted.wait())
        #expect(state.problems.withLock { $0 } == [])
        let server = try #require(newPrimary.server)
        let window = outcome.window
        print(
            "failover: saves did not get through for \(window) (\(outcome.failedAttempts) failed attempts, store codes "
                + "\(outcome.errors.sorted().joined(separator: ", "))); \(outcome.saves) saves, none lost or stored "
                + "twice")

        // Every save reported done is on the new primary, once.
        let rows = try server.psql(#"SELECT label, count(*) FROM "Counter" GROUP BY label ORDER BY label"#)
        let counts = rows.split(separator: "\n").map(String.init)
        #expect(counts.count == outcome.saves)
        #expect(counts.allSatisfy { $0.hasSuffix("|1") }, "\(counts)")
        #expect(Set(counts.map { $0.split(separator: "|")[0] }) == Set((0..<outcome.saves).map { "save \($0)" }))

        // The listeners resumed on the new primary: each container's observer sees the other's save.
        try Self.waitForListener("failover_saver", on: server)
        try Self.waitForListener("failover_other", on: server)
        try await Self.expectSeen("from the other instance", savedBy: other, observedIn: container)
        try await Self.expectSeen("from the saver", savedBy: container, observedIn: other)
    }

    /// What the saving loop saw: the longest a save took to get through, its failed attempts included (the window in
    /// which saves did not succeed: a save in flight when the primary died may instead wait for the new primary to
    /// learn its outcome, and fail never), how many attempts failed, and their store codes.
    struct LoopOutcome {
        var saves: Int
        var window: Duration
        var failedAttempts = 0
        var errors: Set<String> = []
    }

    /// Saves new counters one by one, each until it succeeds, as an app does: a save that throws is saved again
    /// after a pause. Signals `reachedKill` before save number `killedAfter`, and stops `savesAfterPromotion` saves
    /// after `failedOver` says the failover is over.
    static func saveInLoop(
        _ container: ModelContainer, reachedKill: PostgresCommitOutcomeTests.Event, failedOver: () -> Bool
    ) throws -> LoopOutcome {
        let context = ModelContext(container)
        var failedAttempts = 0
        var window = Duration.zero
        var errors: Set<String> = []
        let deadline = ContinuousClock.now + .seconds(240)
        var number = 0
        var afterPromotion = 0
        while afterPromotion < Self.savesAfterPromotion {
            if number == Self.killedAfter { reachedKill.signal() }
            context.insert(Counter(label: "save \(number)"))
            let started = ContinuousClock.now
            while true {
                do {
                    try context.save()
                    window = max(window, .now - started)
                    if failedOver() { afterPromotion += 1 }
                    number += 1
                    break
                } catch {
                    failedAttempts += 1
                    errors.insert((error as? SwiftDataError)?.storeCode ?? "\(type(of: error))")
                    guard ContinuousClock.now < deadline else { throw error }
                    // An app waits a little before it tries again.
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        return LoopOutcome(saves: number, window: window, failedAttempts: failedAttempts, errors: errors)
    }

    /// Saves a counter labelled `label` in `saver`, and waits (up to a minute) until an observer of `observer`'s
    /// results holds it.
    static func expectSeen(_ label: String, savedBy saver: ModelContainer, observedIn observed: ModelContainer)
        async throws
    {
        let observer = try ResultsObserver<Counter, Never>(
            filterBy: #Predicate { $0.label == label }, sortBy: [], modelContainer: observed)
        let context = ModelContext(saver)
        context.insert(Counter(label: label))
        try context.save()
        #expect(await observer.waitForSnapshot { $0.count == 1 }, "the observer saw '\(label)'")
        withExtendedLifetime(observer) {}
    }
}

/// The standby the failover promoted, set by the failover's thread.
final class PromotedServer: Sendable {
    private let value = Mutex<PostgresTestServer?>(nil)
    var server: PostgresTestServer? { value.withLock { $0 } }
    func set(_ server: PostgresTestServer) { value.withLock { $0 = server } }
}
