import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// The test cluster itself: standbys that stream the primary's writes, synchronous replication on request, and
/// PgBouncer pooling transactions over two server connections.
@Suite(.enabled(if: PostgresTestCluster.isAvailable)) struct PostgresClusterTests {
    @Test func standbysReplayWhatThePrimaryCommits() throws {
        let cluster = try PostgresTestCluster.shared()
        let table = uniqueName("replicated")
        let primary = try PostgresConnection(cluster.url)
        try primary.execute("CREATE TABLE \(table) (id int8); INSERT INTO \(table) VALUES (7)")
        let position = try cluster.primary.walPosition()
        for standby in cluster.standbys {
            try standby.waitForReplay(of: position)
            let connection = try PostgresConnection(standby.url)
            #expect(try connection.query("SELECT pg_is_in_recovery()").bool(0, 0) == true)
            #expect(try connection.query("SELECT id FROM \(table)").int64(0, 0) == 7)
            #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO \(table) VALUES (8)") }
        }
    }

    @Test func synchronousReplicationIsOnOnlyWhenAskedFor() throws {
        let cluster = try PostgresTestCluster.shared()
        // pg_stat_replication shows its states to the superuser only.
        func states() throws -> String {
            try cluster.primary.psql(query).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let query =
            "SELECT string_agg(sync_state, ',' ORDER BY application_name) FROM pg_stat_replication "
            + "WHERE application_name LIKE 'standby_'"
        #expect(try states() == "async,async")
        try cluster.setSynchronousReplication(true)
        defer { try? cluster.setSynchronousReplication(false) }
        #expect(try states() == "quorum,quorum")
        try cluster.setSynchronousReplication(false)
        #expect(try states() == "async,async")
    }

    @Test func thePoolerSharesTwoServerConnectionsAmongEightClients() throws {
        let cluster = try PostgresTestCluster.shared()
        let clients = try (0..<8).map { _ in try PostgresConnection(cluster.poolerURL) }
        var servers: Set<String> = []
        for client in clients {
            servers.insert(try client.query("SELECT pg_backend_pid()::text").string(0, 0) ?? "")
        }
        #expect(servers.count <= PostgresTestCluster.poolerServerConnections)
    }

    /// Unnamed statements (`preparesStatements = false`) run, in batches and pipelines too, through the pooler,
    /// where two clients take turns on its server connections; past the statement cache's limit nothing is
    /// deallocated, since the server holds nothing of theirs.
    @Test func unnamedStatementsRunThroughThePooler() throws {
        let cluster = try PostgresTestCluster.shared()
        let table = uniqueName("unnamed")
        let clients = try (0..<2).map { _ in try PostgresConnection(cluster.poolerURL) }
        let sent = Collected<String>()
        for client in clients {
            client.preparesStatements = false
            client.observer = { sent.append($0) }
        }
        try clients[0].execute("CREATE TABLE \(table) (id int8)")
        for index in 0..<(PostgresConnection.statementCacheLimit + 10) {
            let client = clients[index % 2]
            #expect(try client.preparedQuery("SELECT $1::int8 + \(index)", [.int8(1)]).int64(0, 0) == Int64(index + 1))
        }
        try clients[1].transaction { connection in
            let insert = try connection.cachedStatement("INSERT INTO \(table) VALUES ($1)", [.int8])
            #expect(try connection.executeBatch(insert, (0..<5).map { [.int8($0)] }) == 5)
        }
        let counted = try clients[0].pipeline([
            .query("INSERT INTO \(table) VALUES ($1)", [.int8(5)]), .query("SELECT count(*) FROM \(table)", []),
        ])
        #expect(try counted.last?.int64(0, 0) == 6)
        #expect(!sent.all.contains("DEALLOCATE ALL"))
    }

    @Test func aStandbyOfItsOwnStopsAndStartsAgain() throws {
        let cluster = try PostgresTestCluster.shared()
        let standby = try cluster.makeStandby()
        try standby.stop()
        #expect(throws: PostgresError.self) { try PostgresConnection(standby.url) }
        try standby.start()
        let table = uniqueName("restarted")
        try PostgresConnection(cluster.url).execute("CREATE TABLE \(table) (id int8)")
        try standby.waitForReplay(of: try cluster.primary.walPosition())
        #expect(try PostgresConnection(standby.url).query("SELECT count(*) FROM \(table)").int64(0, 0) == 0)
    }
}
