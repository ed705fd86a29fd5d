import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// Connecting, running statements with parameters, preparing them once, and the statement cache.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresConnectionTests {
    @Test func connectsWithAURLOrKeywordsAndDescribesTheServerWithoutThePassword() throws {
        let server = try PostgresTestServer.shared()
        let overTCP = try PostgresConnection(server.url)
        #expect(overTCP.endpoint.description == "127.0.0.1:\(server.port)/swiftdata (user swiftdata)")
        #expect(!overTCP.endpoint.description.contains(server.password))
        let overSocket = try PostgresConnection(server.superuserConnectionString)
        #expect(overSocket.endpoint.host == server.directory)
        #expect(overSocket.endpoint.user == "postgres")
        let encodedSocket = server.directory.replacingOccurrences(of: "/", with: "%2F")
        let socketURL = try PostgresConnection("postgresql://postgres@\(encodedSocket):\(server.port)/swiftdata")
        #expect(try socketURL.query("SELECT current_user").string(0, 0) == "postgres")
    }

    @Test func theClientEncodingIsAlwaysUTF8() throws {
        let server = try PostgresTestServer.shared()
        let connection = try PostgresConnection(server.url + "?client_encoding=LATIN1")
        #expect(try connection.execute("SHOW client_encoding").string(0, 0) == "UTF8")
    }

    @Test func executeRunsSeveralStatementsAndReturnsTextResults() throws {
        let connection = try connect()
        let table = uniqueName("script")
        let result = try connection.execute(
            "CREATE TEMPORARY TABLE \(table) (id int8); INSERT INTO \(table) VALUES (1), (2); SELECT sum(id) FROM \(table)"
        )
        #expect(try result.int64(0, 0) == 3)
        #expect(try result.columnName(0) == "sum")
        #expect(try result.columnType(0) == .numeric)
    }

    @Test func parametersAreNeverSplicedIntoSQL() throws {
        let connection = try connect()
        let table = uniqueName("people")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (name text)")
        let hostile = "x'); DROP TABLE \(table); --"
        let insert = try connection.query("INSERT INTO \(table) VALUES ($1)", [.text(hostile)])
        #expect(insert.affectedRows == 1)
        let result = try connection.query("SELECT name FROM \(table) WHERE name = $1", [.text(hostile)])
        #expect(try result.string(0, 0) == hostile)
    }

    @Test func aPreparedStatementRunsManyTimes() throws {
        let connection = try connect()
        let table = uniqueName("prepared")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (id int8 PRIMARY KEY, score float8, label text)")
        let insert = try connection.prepare(
            "INSERT INTO \(table) VALUES ($1, $2, $3)", parameterTypes: [.int8, .float8, .text])
        for id in 0..<500 {
            try connection.query(
                insert, [.int8(Int64(id)), .float8(Double(id) / 2), id.isMultiple(of: 7) ? .null : .text("row \(id)")])
        }
        let select = try connection.prepare(
            "SELECT id, score, label FROM \(table) WHERE id >= $1 ORDER BY id", parameterTypes: [.int8])
        let result = try connection.query(select, [.int8(490)])
        #expect(result.rowCount == 10)
        #expect(try result.int64(0, 0) == 490)
        #expect(try result.double(9, 1) == 249.5)
        #expect(try result.string(0, 2) == nil)  // 490 is a multiple of 7
        #expect(try result.string(1, 2) == "row 491")
    }

    @Test func preparedQueryPreparesOncePerStatementAndParameterTypes() throws {
        let connection = try connect()
        let prepared = Collected<String>()
        connection.observer = { prepared.append($0) }
        for number in 0..<20 { try connection.preparedQuery("SELECT $1::int8 + 1", [.int8(Int64(number))]) }
        try connection.preparedQuery("SELECT $1::int8 + 1", [.null])
        try connection.preparedQuery("SELECT $1::int8 + 1", [.null])
        #expect(prepared.all == ["SELECT $1::int8 + 1", "SELECT $1::int8 + 1"])
        #expect(try connection.preparedQuery("SELECT $1::int8 + 1", [.int8(41)]).int64(0, 0) == 42)
    }

    @Test func statementsRunInTurnAreEachPreparedOnceAndAgainAfterAReset() throws {
        let connection = try connect()
        let prepared = Collected<String>()
        connection.observer = { prepared.append($0) }
        // The statement run last is found without a lookup; one run before it, and one with other parameter types,
        // are still found by their key.
        for number in Int64(0)..<5 {
            #expect(try connection.preparedQuery("SELECT $1::int8 + 1", [.int8(number)]).int64(0, 0) == number + 1)
            #expect(try connection.preparedQuery("SELECT $1::int8 * 2", [.int8(number)]).int64(0, 0) == number * 2)
            #expect(try connection.preparedQuery("SELECT $1::int8 + 1", [.null]).string(0, 0) == nil)
        }
        #expect(prepared.all == ["SELECT $1::int8 + 1", "SELECT $1::int8 * 2", "SELECT $1::int8 + 1"])
        // A reset forgets every statement, the last one included: the next run prepares it again.
        try connection.reset()
        #expect(try connection.preparedQuery("SELECT $1::int8 + 1", [.null]).string(0, 0) == nil)
        #expect(try connection.preparedQuery("SELECT $1::int8 + 1", [.int8(1)]).int64(0, 0) == 2)
        #expect(prepared.all.filter { $0.hasPrefix("SELECT $1") }.count == 5)
    }

    @Test func aStatementFromAnotherConnectionOrSessionIsRefused() throws {
        let first = try connect()
        let second = try connect()
        let statement = try first.prepare("SELECT 1")
        #expect(throws: PostgresError.self) { try second.query(statement) }
        try first.reset()
        #expect(throws: PostgresError.self) { try first.query(statement) }
        #expect(try first.query(try first.prepare("SELECT 1")).int64(0, 0) == 1)
    }

    @Test func manyRowsInBinaryAndTextResultsReadTheSame() throws {
        let connection = try connect()
        let sql = """
            SELECT i::int8, i * 0.5::float8, 'name ' || i, i % 2 = 0, (i * 1.25)::numeric,
                   md5(i::text)::uuid, timestamptz '2000-01-01' + i * interval '1 second 1 millisecond'
            FROM generate_series(-5000, 5000) AS i
            """
        let binary = try connection.query(sql)
        let text = try connection.query(sql, format: .text)
        #expect(binary.rowCount == 10_001)
        for row in stride(from: 0, to: binary.rowCount, by: 97) {
            #expect(try binary.int64(row, 0) == text.int64(row, 0))
            #expect(try binary.double(row, 1) == text.double(row, 1))
            #expect(try binary.string(row, 2) == text.string(row, 2))
            #expect(try binary.bool(row, 3) == text.bool(row, 3))
            #expect(try binary.decimal(row, 4) == text.decimal(row, 4))
            #expect(try binary.uuid(row, 5) == text.uuid(row, 5))
            #expect(try binary.date(row, 6) == text.date(row, 6))
        }
        #expect(try binary.int64(0, 0) == -5000)
        #expect(try binary.date(0, 6) == Date(timeIntervalSinceReferenceDate: -31_622_400 - 5005))
    }
}
