import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// Several statements sent at once, answered once: `pipeline`, a transaction's first statement sent with its
/// `BEGIN`, and statements sent with its `COMMIT`.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresPipelineTests {
    private func table(_ connection: PostgresConnection) throws -> String {
        let table = uniqueName("pipeline")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (id int8 PRIMARY KEY, name text)")
        return table
    }

    private func count(_ table: String, _ connection: PostgresConnection) throws -> Int64? {
        try connection.query("SELECT count(*) FROM \(table)").int64(0, 0)
    }

    @Test func aPipelineReturnsEachStatementsResult() throws {
        let connection = try connect()
        let table = try table(connection)
        let results = try connection.pipeline([
            .sql("BEGIN"),
            .query("INSERT INTO \(table) VALUES ($1, $2) RETURNING id * 10", [.int8(4), .text("four")]),
            .query("SELECT $1::int8 + 1, $2::text", [.int8(41), .text("answer")]),
            .sql("COMMIT"),
        ])
        #expect(results.count == 4)
        #expect(try results[1].int64(0, 0) == 40)
        #expect(try results[2].int64(0, 0) == 42 && results[2].string(0, 1) == "answer")
        #expect(!connection.isInTransaction)
        #expect(try count(table, connection) == 1)
    }

    @Test func aFailureInTheMiddleSkipsTheRestAndTheConnectionWorksAfterIt() throws {
        let connection = try connect()
        let table = try table(connection)
        do {
            try connection.pipeline([
                .query("INSERT INTO \(table) VALUES ($1, $2)", [.int8(1), .text("one")]),
                .query("INSERT INTO \(table) VALUES ($1, $2)", [.int8(1), .text("again")]),
                .query("INSERT INTO \(table) VALUES ($1, $2)", [.int8(3), .text("three")]),
            ])
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .uniqueViolation, "\(error)")
            #expect(error.sql?.contains("INSERT INTO \(table)") == true, "\(error)")
        }
        // Outside a transaction the pipeline was one implicit transaction: nothing stayed, and no statement after
        // the failure ran.
        #expect(try count(table, connection) == 0)
        #expect(!connection.isInTransaction)
        #expect(try connection.query("INSERT INTO \(table) VALUES (5, 'five')").affectedRows == 1)
        #expect(try connection.pipeline([.query("SELECT count(*) FROM \(table)", [])])[0].int64(0, 0) == 1)
    }

    @Test func statementsSentWithTheCommitCommitWithTheTransaction() throws {
        let connection = try connect()
        let table = try table(connection)
        var seen: [String] = []
        connection.observer = { seen.append($0) }
        let first = try connection.transaction(
            isolation: .readCommitted, beginningWith: .query("SELECT $1::int8 * 2", [.int8(21)])
        ) { connection, opened in
            try connection.query("INSERT INTO \(table) VALUES (1, 'body')")
            try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(2), .text("at commit")])
            // Not sent yet: it goes with the COMMIT.
            #expect(try count(table, connection) == 1)
            return try opened?.int64(0, 0)
        }
        #expect(first == 42)
        #expect(!connection.isInTransaction)
        #expect(try count(table, connection) == 2)
        #expect(seen.contains("BEGIN ISOLATION LEVEL READ COMMITTED") && seen.contains("COMMIT"), "\(seen)")
        // Outside a transaction it runs at once.
        try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(3), .text("now")])
        #expect(try count(table, connection) == 3)
    }

    @Test func aFailureSentWithTheCommitRollsTheWholeTransactionBack() throws {
        let connection = try connect()
        let table = try table(connection)
        do {
            try connection.transaction(isolation: .readCommitted, beginningWith: nil) { connection, _ in
                try connection.query("INSERT INTO \(table) VALUES (1, 'body')")
                try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(1), .text("twice")])
            }
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .uniqueViolation, "\(error)")
        }
        #expect(!connection.isInTransaction, "rolled back")
        #expect(try count(table, connection) == 0, "the body's row is gone too")
        // The next transaction sends nothing left over from the failed one.
        try connection.transaction(isolation: .readCommitted, beginningWith: nil) { connection, _ in
            try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(7), .text("seven")])
        }
        #expect(try connection.query("SELECT id FROM \(table)").int64(0, 0) == 7)
        #expect(try count(table, connection) == 1)
    }

    @Test func aFirstStatementOfTextGoesInOneMessageWithTheBegin() throws {
        let connection = try connect()
        var seen: [String] = []
        connection.observer = { seen.append($0) }
        let answer = try connection.transaction(isolation: .readCommitted, beginningWith: .sql("SELECT 6 * 7")) {
            connection, opened in
            #expect(connection.isInTransaction)
            return try opened?.int64(0, 0)
        }
        #expect(answer == 42)
        #expect(seen.first == "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT 6 * 7", "\(seen)")
        #expect(!connection.isInTransaction)
        #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .sql("SELECT 1 / 0")) { _, _ in Issue.record("the body ran") }
        }
        #expect(!connection.isInTransaction, "the failed transaction was rolled back")
    }

    /// The save lock's statement spells its names as literals: quotes and backslashes arrive as they were.
    @Test func literalsKeepQuotesAndBackslashes() throws {
        let connection = try connect()
        for text in ["plain", "it's", #"back\slash"#, #"\'; SELECT 1; --"#, "ünï"] {
            #expect(try connection.execute("SELECT \(PostgresRowStore.literal(text))").string(0, 0) == text)
        }
        try connection.execute("SET standard_conforming_strings = off")
        #expect(try connection.execute("SELECT \(PostgresRowStore.literal(#"a\'b"#))").string(0, 0) == #"a\'b"#)
    }

    @Test func aFailingFirstStatementFailsTheBeginAndRunsNoBody() throws {
        let connection = try connect()
        var ran = false
        #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .query("SELECT 1 / $1::int4", [.int8(0)])) { _, _ in
                ran = true
            }
        }
        #expect(!ran && !connection.isInTransaction)
        #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .sql("SELECT 1 / 0")) { _, _ in ran = true }
        }
        #expect(!ran && !connection.isInTransaction)
        #expect(try connection.query("SELECT 1").int64(0, 0) == 1)
    }

    @Test func inANestedTransactionAStatementForTheCommitRunsAtOnceAndRollsBackWithIt() throws {
        let connection = try connect()
        let table = try table(connection)
        try connection.transaction { connection in
            try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(1), .text("outer")])
            do {
                try connection.transaction { connection in
                    try connection.executeAtCommit("INSERT INTO \(table) VALUES ($1, $2)", [.int8(2), .text("inner")])
                    #expect(try count(table, connection) == 1, "the inner one ran at once, the outer one waits")
                    throw PostgresError(.other, sqlState: "P0001", message: "undo the savepoint")
                }
            } catch let error as PostgresError where error.sqlState == "P0001" {}
        }
        #expect(try connection.query("SELECT id FROM \(table)").int64(0, 0) == 1)
        #expect(try count(table, connection) == 1)
    }

    @Test func aConnectionLostInAPipelineIsReportedAsLost() throws {
        let connection = try connect()
        do {
            try connection.pipeline([
                .sql("BEGIN"),
                .query("SELECT pg_terminate_backend(pg_backend_pid())", []),
                .query("SELECT pg_sleep(5)", []),
                .sql("COMMIT"),
            ])
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .connectionLost, "\(error)")
        }
        #expect(connection.isBroken)
        try connection.reset()
        #expect(try connection.query("SELECT 1").int64(0, 0) == 1)
    }
}
