import Foundation
import PostgresTestSupport
import SwiftDataCore
import Testing

@testable import SwiftDataPostgres

/// Each failure a user meets is reported with its kind, its SQLSTATE, the server (never the password) and a
/// suggestion.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresErrorTests {
    struct Unexpected: Error, CustomStringConvertible { let description: String }

    func connectionError(_ connectionString: String) throws -> PostgresError {
        do {
            _ = try PostgresConnection(connectionString)
        } catch let error as PostgresError {
            return error
        }
        throw Unexpected(description: "connected to \(connectionString)")
    }

    @Test func aServerThatDoesNotListenIsUnreachable() throws {
        let server = try PostgresTestServer.shared()
        let error = try connectionError(server.url(database: server.database, port: 1))
        #expect(error.kind == .unreachable)
        #expect(error.sqlState == "08001")
        #expect(error.server == "127.0.0.1:1/swiftdata (user swiftdata)")
        #expect(error.message.contains("Connection refused"), "\(error)")
        #expect(!error.description.contains(server.password))
        #expect(error.description.contains("pg_isready"))
    }

    @Test func aMissingSocketIsUnreachable() throws {
        let error = try connectionError("host=/nonexistent/socket/dir port=5432 dbname=x user=y")
        #expect(error.kind == .unreachable)
        #expect(error.server == "/nonexistent/socket/dir:5432/x (user y)")
    }

    @Test func aWrongPasswordFailsAuthentication() throws {
        let server = try PostgresTestServer.shared()
        let error = try connectionError(server.url(database: server.database, password: "wrong-secret"))
        #expect(error.kind == .authenticationFailed)
        #expect(error.sqlState == "28P01")
        #expect(error.message.contains("password authentication failed for user \"swiftdata\""), "\(error)")
        #expect(!error.description.contains("wrong-secret"))
        #expect(error.suggestion.contains("pg_hba.conf"))
    }

    @Test func anUnknownUserFailsAuthentication() throws {
        let server = try PostgresTestServer.shared()
        let error = try connectionError("postgresql://nobody_here:x@127.0.0.1:\(server.port)/swiftdata")
        #expect(error.kind == .authenticationFailed, "\(error)")
    }

    @Test func anUnknownDatabaseIsMissing() throws {
        let server = try PostgresTestServer.shared()
        let error = try connectionError(server.url(database: "no_such_database"))
        #expect(error.kind == .databaseMissing)
        #expect(error.sqlState == "3D000")
        #expect(error.message.contains("database \"no_such_database\" does not exist"), "\(error)")
        #expect(error.server?.contains("/no_such_database") == true)
    }

    @Test func aMalformedConnectionStringIsInvalid() throws {
        let error = try connectionError("this is not a connection string")
        #expect(error.kind == .invalidConnectionString, "\(error)")
        let url = try connectionError("postgresql://host:notaport/db")
        #expect(url.kind == .invalidConnectionString || url.kind == .unreachable, "\(url)")
    }

    @Test func aSlowStatementTimesOutAndTheConnectionStaysUsable() throws {
        let connection = try connect()
        try connection.setStatementTimeout(.milliseconds(100))
        do {
            try connection.query("SELECT pg_sleep(5)")
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .statementTimeout)
            #expect(error.sqlState == "57014")
            #expect(error.message.contains("statement timeout"), "\(error)")
            #expect(error.sql == "SELECT pg_sleep(5)")
        }
        try connection.setStatementTimeout(nil)
        #expect(try connection.query("SELECT 1").int64(0, 0) == 1)
    }

    @Test func aTerminatedSessionIsALostConnectionAndResetBringsItBack() throws {
        let connection = try connect()
        let other = try connect()
        let first = connection.backendPID
        try other.query("SELECT pg_terminate_backend($1::int4)", [.int8(Int64(first))])
        do {
            try connection.query("SELECT 1")
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .connectionLost, "\(error)")
            #expect(error.suggestion.contains("Retry"))
        }
        #expect(connection.isBroken)
        try connection.reset()
        #expect(!connection.isBroken)
        #expect(connection.backendPID != first)
        #expect(try connection.query("SELECT 2").int64(0, 0) == 2)
    }

    @Test func aDuplicateIsAUniqueViolationNamingTheConstraint() throws {
        let connection = try connect()
        let table = uniqueName("unique")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (email text CONSTRAINT \(table)_email UNIQUE)")
        try connection.query("INSERT INTO \(table) VALUES ($1)", [.text("a@example.com")])
        do {
            try connection.query("INSERT INTO \(table) VALUES ($1)", [.text("a@example.com")])
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .uniqueViolation)
            #expect(error.sqlState == "23505")
            #expect(error.constraint == "\(table)_email")
            #expect(error.detail?.contains("already exists") == true)
        }
    }

    @Test func aSyntaxErrorCarriesTheServersCodeAndTheSQL() throws {
        let connection = try connect()
        do {
            try connection.query("SELEKT 1")
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .other)
            #expect(error.sqlState == "42601")
            #expect(error.sql == "SELEKT 1")
            #expect(error.description.contains("SQLSTATE 42601"))
        }
    }

    @Test func errorsBecomeSwiftDataErrorsWithTheSQLStateAndTheServer() throws {
        let server = try PostgresTestServer.shared()
        let error = try connectionError(server.url(database: server.database, password: "wrong-secret"))
        let converted = error.swiftDataError
        #expect(converted == SwiftDataError.loadIssueModelContainer)
        #expect(converted.storeMessage?.hasPrefix("SQLSTATE 28P01: ") == true)
        #expect(converted.reason?.contains("127.0.0.1:\(server.port)") == true)
        #expect(!converted.description.contains("wrong-secret") && !converted.description.contains(server.password))
        #expect(converted.storeCode == "28P01")
        let unique = PostgresError(.uniqueViolation, sqlState: "23505", message: "duplicate")
        #expect(unique.swiftDataError == SwiftDataError.modelValidationFailure)
        let timeout = PostgresError(.statementTimeout, sqlState: "57014", message: "canceled")
        #expect(timeout.swiftDataError == SwiftDataError.storeError)
    }
}

/// A connection whose socket broke under it reports a lost connection (`08006`), never an internal error (`XX000`).
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresLostConnectionTests {
    @Test(arguments: ["simple", "prepared", "pipeline", "batch"])
    func aSocketShutUnderTheConnectionIsALostConnection(_ path: String) throws {
        let connection = try PostgresConnection(PostgresTestServer.shared().url)
        let statement = try connection.prepare("SELECT $1::bigint", parameterTypes: [.int8])
        _ = shutdown(connection.socket, Int32(SHUT_RDWR))
        do {
            switch path {
            case "simple": try connection.execute("SELECT 1")
            case "prepared": try connection.query(statement, [.int8(1)])
            case "pipeline": try connection.pipeline([.sql("SELECT 1"), .sql("SELECT 2")])
            default: try connection.executeBatch(statement, [[.int8(1)], [.int8(2)]])
            }
            Issue.record("the statement ran on a shut socket")
        } catch let error as PostgresError {
            #expect(error.kind == .connectionLost, "\(path): \(error)")
            #expect(error.sqlState == "08006", "\(path): \(error)")
        }
    }

    @Test func aSessionTheServerEndsGoesThroughTheLogNotStandardError() throws {
        let server = try PostgresTestServer.shared()
        let notices = Collected<String>()
        let token = PostgresNotices.observe { notices.append($0) }
        defer { PostgresNotices.stopObserving(token) }
        let connection = try PostgresConnection(server.url)
        // A notice the server sends to the session, reaching the library's notice handler.
        try connection.execute("DO $$ BEGIN RAISE NOTICE 'a notice for the log'; END $$")
        #expect(notices.all.contains { $0.contains("a notice for the log") }, "\(notices.all)")
    }
}
