import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// The pool: its size limit, reuse, replacing broken connections, and waiting.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresConnectionPoolTests {
    @Test func concurrentCallersShareAtMostSizeConnections() throws {
        let pool = PostgresConnectionPool(try PostgresTestServer.shared().url, size: 3)
        let pids = Collected<Int32>()
        let failures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                try pool.withConnection { connection in
                    try connection.query("SELECT pg_sleep(0.05)")
                    pids.append(connection.backendPID)
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(Set(pids.all).count <= 3)
        #expect(pool.openConnections <= 3)
        #expect(PostgresConnectionPool.defaultSize == 4)
    }

    @Test func everyNewConnectionRunsTheSetup() throws {
        let pool = PostgresConnectionPool(try PostgresTestServer.shared().url, size: 2) { connection in
            try connection.execute("SET application_name = 'pool test'")
        }
        let name = try pool.withConnection { try $0.query("SELECT current_setting('application_name')").string(0, 0) }
        #expect(name == "pool test")
    }

    @Test func aBrokenConnectionIsReplaced() throws {
        let pool = PostgresConnectionPool(try PostgresTestServer.shared().url, size: 1)
        let first = try pool.withConnection { $0.backendPID }
        #expect(throws: PostgresError.self) {
            try pool.withConnection { try $0.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        let second = try pool.withConnection { connection in
            let one = try connection.query("SELECT 1").int64(0, 0)
            #expect(one == 1)
            return connection.backendPID
        }
        #expect(second != first)
    }

    @Test func aConnectionReturnedInATransactionIsRolledBack() throws {
        let pool = PostgresConnectionPool(try PostgresTestServer.shared().url, size: 1)
        let table = uniqueName("pooled")
        try pool.withConnection { try $0.execute("CREATE TABLE \(table) (id int8)") }
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            try connection.execute("INSERT INTO \(table) VALUES (1)")
        }
        let count = try pool.withConnection { connection in
            #expect(!connection.isInTransaction)
            return try connection.query("SELECT count(*) FROM \(table)").int64(0, 0)
        }
        #expect(count == 0)
    }

    @Test func aCallerWaitsForAFreeConnectionThenGivesUp() throws {
        let pool = PostgresConnectionPool(try PostgresTestServer.shared().url, size: 1, waitLimit: .milliseconds(200))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
            returned.signal()
        }
        holder.start()
        holding.wait()
        do {
            try pool.withConnection { _ in }
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .poolExhausted)
            #expect(error.description.contains("all 1 connection of the pool"))
        }
        release.signal()
        #expect(returned.wait(timeout: .now() + 60) == .success)
        #expect(try pool.withConnection { _ in true })
    }
}
