import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// Transactions: commit, rollback, savepoints, and running again after serialization failures.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresTransactionTests {
    struct Failure: Error {}

    /// A table `(id int8 primary key, value int8)` with one row (1, 0), visible to every connection.
    func counterTable(_ connection: PostgresConnection) throws -> String {
        let table = uniqueName("counter")
        try connection.execute(
            "CREATE TABLE \(table) (id int8 PRIMARY KEY, value int8); INSERT INTO \(table) VALUES (1, 0)")
        return table
    }

    func value(_ table: String, _ connection: PostgresConnection) throws -> Int64? {
        try connection.query("SELECT value FROM \(table) WHERE id = 1").int64(0, 0)
    }

    @Test func aTransactionCommitsOrRollsBackWhenItsBodyThrows() throws {
        let connection = try connect()
        let other = try connect()
        let table = try counterTable(connection)
        try connection.transaction { try $0.query("UPDATE \(table) SET value = 5") }
        #expect(try value(table, other) == 5)
        #expect(throws: Failure.self) {
            try connection.transaction { connection in
                try connection.query("UPDATE \(table) SET value = 6")
                throw Failure()
            }
        }
        #expect(try value(table, other) == 5)
        #expect(!connection.isInTransaction)
    }

    @Test func aNestedTransactionRollsBackOnlyItsOwnChanges() throws {
        let connection = try connect()
        let table = try counterTable(connection)
        try connection.transaction { connection in
            try connection.query("UPDATE \(table) SET value = 1")
            try? connection.transaction { connection in
                try connection.query("UPDATE \(table) SET value = 2")
                throw Failure()
            }
            try connection.transaction { try $0.query("UPDATE \(table) SET value = value + 10") }
        }
        #expect(try value(table, connection) == 11)
    }

    @Test func aSerializationFailureRunsTheTransactionAgain() throws {
        let connection = try connect()
        let other = try connect()
        let table = try counterTable(connection)
        var attempts = 0
        try connection.transaction(isolation: .serializable) { connection in
            attempts += 1
            let current = try value(table, connection) ?? 0
            // Another process changes the row after this transaction read it: writing it must fail (40001).
            if attempts == 1 { try other.query("UPDATE \(table) SET value = value + 100") }
            try connection.query("UPDATE \(table) SET value = $1", [.int8(current + 1)])
        }
        #expect(attempts == 2)
        #expect(try value(table, other) == 101)
    }

    @Test func aTransactionThatKeepsConflictingThrowsAfterItsAttempts() throws {
        let connection = try connect()
        let other = try connect()
        let table = try counterTable(connection)
        var attempts = 0
        do {
            try connection.transaction(isolation: .repeatableRead, attempts: 3) { connection in
                attempts += 1
                _ = try value(table, connection)
                try other.query("UPDATE \(table) SET value = value + 1")
                try connection.query("UPDATE \(table) SET value = 0")
            }
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .serializationFailure)
            #expect(error.sqlState == "40001")
            #expect(error.isTransient)
        }
        #expect(attempts == 3)
        #expect(try value(table, other) == 3)
    }

    @Test func concurrentIncrementsAtSerializableLoseNothing() throws {
        let setup = try connect()
        let table = try counterTable(setup)
        let threads = 4
        let increments = 20
        let failures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                let connection = try connect()
                for _ in 0..<increments {
                    try connection.transaction(attempts: 100) { connection in
                        let current = try value(table, connection) ?? 0
                        try connection.query("UPDATE \(table) SET value = $1", [.int8(current + 1)])
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(try value(table, setup) == Int64(threads * increments))
    }

    @Test func transactionsThatDeadlockRunAgainAndBothSucceed() throws {
        let setup = try connect()
        let table = try counterTable(setup)
        try setup.query("INSERT INTO \(table) VALUES (2, 0)")
        let locked = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let attempts = Collected<Int>()
        let failures = Collected<String>()
        // Each side locks its own row, waits until the other has locked its own, then asks for the other's: the
        // server finds the deadlock and fails one of them (40P01), which runs again once the other has committed.
        let done = DispatchGroup()
        for side in 0..<2 {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let connection = try connect()
                    var attempt = 0
                    try connection.transaction(isolation: .readCommitted) { connection in
                        attempt += 1
                        let update = "UPDATE \(table) SET value = value + 1 WHERE id = $1"
                        try connection.query(update, [.int8(Int64(side + 1))])
                        if attempt == 1 {
                            locked[side].signal()
                            _ = locked[1 - side].wait(timeout: .now() + 10)
                        }
                        try connection.query(update, [.int8(Int64(2 - side))])
                    }
                    attempts.append(attempt)
                } catch {
                    failures.append("\(error)")
                }
            }.start()
        }
        done.wait()
        #expect(failures.all.isEmpty)
        // At least one side ran again; under heavy load the server may pick a victim more than once.
        #expect(attempts.all.count == 2 && attempts.all.reduce(0, +) >= 3)
        let values = try setup.query("SELECT value FROM \(table) ORDER BY id")
        #expect(try values.int64(0, 0) == 2 && values.int64(1, 0) == 2)
    }

    @Test func aConnectionTheServerClosedWhileIdleIsResetWhenATransactionBegins() throws {
        let connection = try connect()
        let other = try connect()
        let table = try counterTable(connection)
        try other.query("SELECT pg_terminate_backend($1::int4)", [.int8(Int64(connection.backendPID))])
        #expect(
            eventually {
                (try? other.query(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = $1", [.int8(Int64(connection.backendPID))]
                ).rowCount) == 0
            })
        try connection.transaction { try $0.query("UPDATE \(table) SET value = 7") }
        #expect(try value(table, other) == 7)
    }

    @Test func aConnectionLostMidTransactionThrowsAndSavesNothingAndARetrySucceeds() throws {
        let connection = try connect()
        let other = try connect()
        let table = try counterTable(connection)
        do {
            try connection.transaction { connection in
                try connection.query("UPDATE \(table) SET value = 8")
                try other.query("SELECT pg_terminate_backend($1::int4)", [.int8(Int64(connection.backendPID))])
                try connection.query("UPDATE \(table) SET value = 9")
            }
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .connectionLost, "\(error)")
            #expect(["57P01", "08006"].contains(error.sqlState), "\(error)")
        }
        #expect(try value(table, other) == 0)
        #expect(connection.isBroken)
        try connection.reset()
        try connection.transaction { try $0.query("UPDATE \(table) SET value = 9") }
        #expect(try value(table, other) == 9)
    }
}
