import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// Many executions of a prepared statement sent without waiting for each answer.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresBatchTests {
    @Test func aBatchInsertsEveryRowAndCountsThem() throws {
        let connection = try connect()
        let table = uniqueName("batch")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (id int8 PRIMARY KEY, name text, score float8)")
        let insert = try connection.prepare(
            "INSERT INTO \(table) VALUES ($1, $2, $3)", parameterTypes: [.int8, .text, .float8])
        let rows: [[PostgresValue]] = (0..<1234).map {
            [.int8(Int64($0)), .text("name \($0)"), .float8(Double($0) / 4)]
        }
        let affected = try connection.transaction { try $0.executeBatch(insert, rows) }
        #expect(affected == 1234)
        let result = try connection.query("SELECT count(*), sum(score) FROM \(table)")
        #expect(try result.int64(0, 0) == 1234)
        #expect(try result.double(0, 1) == Double((0..<1234).reduce(0, +)) / 4)
        let update = try connection.prepare(
            "UPDATE \(table) SET name = $2 WHERE id = $1", parameterTypes: [.int8, .text])
        #expect(try connection.executeBatch(update, [[.int8(1), .text("one")], [.int8(99_999), .text("none")]]) == 1)
        #expect(try connection.executeBatch(update, []) == 0)
    }

    @Test func aFailingRowStopsTheBatchAndTheTransactionSavesNothing() throws {
        let connection = try connect()
        let table = uniqueName("batch")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (id int8 PRIMARY KEY)")
        let insert = try connection.prepare("INSERT INTO \(table) VALUES ($1)", parameterTypes: [.int8])
        let rows: [[PostgresValue]] = (0..<1000).map { [.int8($0 == 500 ? 3 : Int64($0))] }
        do {
            try connection.transaction { try $0.executeBatch(insert, rows) }
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .uniqueViolation, "\(error)")
        }
        #expect(try connection.query("SELECT count(*) FROM \(table)").int64(0, 0) == 0)
        // The connection left pipeline mode and works as before.
        #expect(try connection.query(insert, [.int8(1)]).affectedRows == 1)
    }
}
