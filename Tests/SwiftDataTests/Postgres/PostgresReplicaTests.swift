import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres

/// A model of the replica suites.
@Model final class ReplicatedNote {
    var number: Int
    init(number: Int) { self.number = number }
}

/// Reads from streaming replicas (`PostgresConfiguration.readReplicas`): a program reads its own writes and other
/// instances' announced writes, replicas serve the reads they can, and a replica that stops costs no failed fetch.
/// Each test that slows or stops a standby makes one of its own; they log their statements, so that a test counts
/// the reads a standby served.
@Suite(.enabled(if: PostgresTestCluster.isAvailable)) struct PostgresReplicaTests {
    /// Save-then-fetch rounds of the read-your-writes test (`SWIFTDATA_REPLICA_ROUNDS`, 1,000 unless set).
    static let rounds = ProcessInfo.processInfo.environment["SWIFTDATA_REPLICA_ROUNDS"].flatMap { Int($0) } ?? 1_000

    /// A container on a new PostgreSQL schema of the cluster's primary, reading from `replicas` as connections
    /// named `application` (so that a standby's log tells them apart).
    func container(
        _ cluster: PostgresTestCluster, replicas: [PostgresTestServer], schema: String, application: String,
        lagLimit: Duration = .seconds(10), retryInterval: Duration = .seconds(5)
    ) throws -> ModelContainer {
        var configuration = PostgresConfiguration(
            url: cluster.url, readReplicas: replicas.map { $0.url + "?application_name=\(application)" },
            postgresSchema: schema)
        configuration.replicaLagLimit = lagLimit
        configuration.replicaRetryInterval = retryInterval
        return try ModelContainer(for: ReplicatedNote.self, configurations: configuration)
    }

    /// The fetches of notes a standby served to connections named `application`.
    func servedReads(_ standby: PostgresTestServer, _ application: String) -> Int {
        standby.loggedStatements(of: application).filter { $0.contains("ReplicatedNote") }.count
    }

    /// A container on a new schema reading from a new standby, which the test may slow or stop.
    func readingFromAStandbyOfItsOwn(lagLimit: Duration = .seconds(10), retryInterval: Duration = .seconds(5))
        throws -> (PostgresTestCluster, PostgresTestServer, ModelContainer, application: String)
    {
        let cluster = try PostgresTestCluster.shared()
        let standby = try cluster.makeStandby()
        let (schema, application) = names()
        return (
            cluster, standby,
            try container(
                cluster, replicas: [standby], schema: schema, application: application, lagLimit: lagLimit,
                retryInterval: retryInterval),
            application
        )
    }

    /// Saves note 1 in a context it returns, and checks that the standby, once it replayed the save, serves the
    /// read that finds it.
    func savingAFirstNoteReadFromTheStandby(
        _ cluster: PostgresTestCluster, _ standby: PostgresTestServer, _ container: ModelContainer,
        application: String
    ) throws -> ModelContext {
        let context = ModelContext(container)
        context.insert(ReplicatedNote(number: 1))
        try context.save()
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()) == 1)
        #expect(servedReads(standby, application) == 1)
        return context
    }

    func names() -> (schema: String, application: String) {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        return ("replica_\(suffix)", "replica_test_\(suffix)")
    }

    @Test func everySaveIsReadBackWhileReplicationIsSlowed() throws {
        let (_, standby, container, _) = try readingFromAStandbyOfItsOwn()
        // Each transaction is applied on the standby no sooner than 2 ms after its commit: a fetch right after a
        // save finds the standby without it.
        try standby.setApplyDelay(.milliseconds(2))
        let writer = ModelContext(container)
        var stale: [Int] = []
        for round in 0..<Self.rounds {
            writer.insert(ReplicatedNote(number: round))
            try writer.save()
            let reader = ModelContext(container)
            let count = try reader.fetchCount(FetchDescriptor<ReplicatedNote>())
            let latest = try reader.fetch(FetchDescriptor(predicate: #Predicate<ReplicatedNote> { $0.number == round }))
            if count != round + 1 || latest.count != 1 { stale.append(round) }
        }
        #expect(stale.isEmpty, "rounds whose fetch missed the save before it: \(stale.prefix(10))")
    }

    @Test func aStandbyServesTheReadsOnceItHasReplayedWhatTheyMustSee() throws {
        let (cluster, standby, container, application) = try readingFromAStandbyOfItsOwn()
        let context = ModelContext(container)
        for number in 0..<3 { context.insert(ReplicatedNote(number: number)) }
        try context.save()
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        for _ in 0..<10 { #expect(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()) == 3) }
        let served = servedReads(standby, application)
        #expect(served >= 10, "the standby served the reads (\(served))")

        // A standby that has not replayed the last save serves none: the primary does.
        try standby.pauseReplay()
        context.insert(ReplicatedNote(number: 3))
        try context.save()
        let notes = try ModelContext(container).fetch(
            FetchDescriptor<ReplicatedNote>(sortBy: [SortDescriptor(\.number)]))
        #expect(notes.map(\.number) == [0, 1, 2, 3])
        #expect(servedReads(standby, application) == served)
        try standby.resumeReplay()
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()) == 4)
        #expect(servedReads(standby, application) == served + 1)
    }

    /// With a short `replicaRetryInterval`, the restarted standby is tried again soon: the test waits for the
    /// standby's log to show a read it served (the server announces it by no event), a minute at most.
    @Test func aStoppedStandbyCostsNoFailedFetch() throws {
        let (cluster, standby, container, application) = try readingFromAStandbyOfItsOwn(
            retryInterval: .milliseconds(100))
        let context = try savingAFirstNoteReadFromTheStandby(cluster, standby, container, application: application)

        try standby.stop()
        for number in 2...20 {
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()) == number - 1)
            context.insert(ReplicatedNote(number: number))
            try context.save()
        }
        // Started again, it is tried again once its time out is over.
        try standby.start()
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        let deadline = ContinuousClock.now + .seconds(60)
        while servedReads(standby, application) < 2, ContinuousClock.now < deadline {
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()) == 20)
        }
        #expect(servedReads(standby, application) >= 2, "the standby served reads again")
    }

    @Test func anObserverSeesAnotherInstancesSaveThatTheStandbyHasNotReplayed() async throws {
        let cluster = try PostgresTestCluster.shared()
        let standby = try cluster.makeStandby()
        let (schema, application) = names()
        let reading = try container(cluster, replicas: [standby], schema: schema, application: application)
        let writing = try container(cluster, replicas: [], schema: schema, application: application)
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\ReplicatedNote.number)], modelContainer: reading)
        #expect(observer.results.isEmpty)
        try standby.pauseReplay()
        let other = ModelContext(writing)
        other.insert(ReplicatedNote(number: 1))
        try other.save()
        let seen = await observer.waitForSnapshot { $0.count == 1 }
        #expect(seen, "the observer saw the other instance's save though the standby lacks it")
        #expect(observer.results.count == 1)
        #expect(try ModelContext(reading).fetchCount(FetchDescriptor<ReplicatedNote>()) == 1)
        try standby.resumeReplay()
        #expect(observer.results.count == 1)
    }
}

extension PostgresReplicaTests {
    /// A standby that stays behind for longer than `replicaLagLimit` is left out: reads no longer ask it how far it
    /// replayed, and run on the primary. Once it has caught up and its time out is over, it serves reads again.
    @Test func aStandbyLaggingPastTheLimitIsLeftOutUntilItCatchesUp() throws {
        let (cluster, standby, container, application) = try readingFromAStandbyOfItsOwn(
            lagLimit: .milliseconds(100), retryInterval: .milliseconds(100))
        let context = try savingAFirstNoteReadFromTheStandby(cluster, standby, container, application: application)

        // Behind the last save, the standby is asked at each read until it has lagged past the limit; then a read
        // leaves it alone.
        try standby.pauseReplay()
        context.insert(ReplicatedNote(number: 2))
        try context.save()
        var counts: Set<Int> = []
        var leftAlone = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !leftAlone, ContinuousClock.now < deadline {
            let asked = standby.loggedStatements(of: application).count
            counts.insert(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()))
            leftAlone = standby.loggedStatements(of: application).count == asked
        }
        #expect(leftAlone, "reads left the lagging standby")
        #expect(counts == [2], "every read saw the last save")
        #expect(servedReads(standby, application) == 1)

        // Caught up, it serves reads again once its time out is over.
        try standby.resumeReplay()
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        let again = ContinuousClock.now + .seconds(60)
        while servedReads(standby, application) == 1, ContinuousClock.now < again {
            counts.insert(try ModelContext(container).fetchCount(FetchDescriptor<ReplicatedNote>()))
        }
        #expect(servedReads(standby, application) == 2, "the standby serves reads again")
        #expect(counts == [2])
    }

    /// A replica left out is left out for the configuration's `replicaRetryInterval`, to the instant.
    @Test func aReplicaIsLeftOutForTheConfiguredInterval() {
        let start = ContinuousClock.now
        for interval in [Duration.milliseconds(250), .seconds(42)] {
            let replica = PostgresReplicas.Replica(
                PostgresConnectionPool("host=unused"), lagLimit: .seconds(10), retryInterval: interval)
            #expect(!replica.isLeftOut(at: start))
            replica.leaveOut(from: start)
            #expect(replica.isLeftOut(at: start + interval - .nanoseconds(1)))
            #expect(!replica.isLeftOut(at: start + interval), "left out for \(interval)")
        }
        var configuration = PostgresConfiguration(url: "host=unused")
        #expect(configuration.replicaRetryInterval == .seconds(5))
        configuration.replicaRetryInterval = .seconds(-1)
        #expect(throws: SwiftDataError.self) { try configuration.validate() }
    }

    /// What read-your-writes costs a save: its commit position comes back in the round trip of its `COMMIT`, so a
    /// save of one changed model waits for the server three times, as without replicas.
    @Test func aSaveLearnsItsCommitPositionWithoutARoundTripOfItsOwn() throws {
        let cluster = try PostgresTestCluster.shared()
        let (schema, application) = names()
        let container = try container(cluster, replicas: cluster.standbys, schema: schema, application: application)
        let store = try #require(container.stores.first as? PostgresRowStore)
        let context = ModelContext(container)
        let note = ReplicatedNote(number: 0)
        context.insert(note)
        try context.save()
        // The first save of this shape prepares its statements.
        note.number = 1
        try context.save()
        note.number = 2
        let (count, connection) = try store.roundTrips { try context.save() }
        #expect(count == 3)
        #expect((connection.commitPosition ?? 0) > 0)
    }
}

extension PostgresRowStore {
    /// How many times the connection of the save that `save` makes waited for the server, and that connection.
    func roundTrips(of save: () throws -> Void) throws -> (count: Int, connection: PostgresConnection) {
        final class Seen {
            var connection: PostgresConnection?
            var before = 0
        }
        let seen = Seen()
        willSave = { connection in
            seen.connection = connection
            seen.before = connection.roundTrips
        }
        defer { willSave = nil }
        try save()
        let connection = try #require(seen.connection)
        return (connection.roundTrips - seen.before, connection)
    }
}
