import Foundation
import Testing

@testable import SwiftDataSQLite

/// A statement keeps short texts it binds in memory of its own, which SQLite reads in place until the parameter is
/// bound again. These tests would fail if a row were written with another row's bytes (a shorter text after a longer
/// one, a text past the slots' size or number), or if a bind overwrote the text of a row still being read.
@Suite struct TextBindingTests {
    /// Texts of every length around the slots' size, and non-ASCII, in an order that binds shorter texts after longer
    /// ones.
    static let texts: [String] = [
        String(repeating: "x", count: 1_000), "short", "", "Grüße, 世界 🌍", String(repeating: "é", count: 128),
        String(repeating: "y", count: 255), String(repeating: "z", count: 256), String(repeating: "w", count: 257), "q",
        "twenty characters ab", String(repeating: "v", count: 15), String(repeating: "u", count: 16),
    ]

    @Test func rowsWrittenThroughOneStatementKeepTheirOwnTexts() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, create: true)
        try database.executeScript("CREATE TABLE t (n INTEGER, a TEXT, b TEXT)")
        let insert = try database.statement("INSERT INTO t (n, a, b) VALUES (?, ?, ?)")
        // A NUL inside a text is kept too (SQLite is given the length).
        let texts = Self.texts + ["a\u{0}b", "c"]
        for (number, text) in texts.enumerated() {
            try insert.bind(Int64(number), 1)
            try insert.bind(text, 2)
            try insert.bind(String(text.reversed()), 3)
            try insert.run()
            insert.rewind()
        }
        insert.reset()
        let rows = try database.rows("SELECT a, b FROM t ORDER BY n")
        #expect(rows.count == texts.count)
        for (row, text) in zip(rows, texts) {
            #expect(row == [.text(text), .text(String(text.reversed()))])
        }
    }

    @Test func textsBindBeyondTheParametersWithSlots() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, create: true)
        let count = 40
        let sql = "SELECT " + (1...count).map { "?\($0)" }.joined(separator: ", ")
        let statement = try database.statement(sql)
        for round in 0..<2 {
            for parameter in 1...count { try statement.bind("p\(parameter)-\(round)", Int32(parameter)) }
            #expect(try statement.step())
            for column in 0..<count {
                #expect(try statement.string(Int32(column)) == "p\(column + 1)-\(round)")
            }
            statement.rewind()
        }
        statement.reset()
    }

    @Test func aBindWhileRowsAreReadLeavesTheirTextAlone() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, create: true)
        try database.executeScript("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2)")
        // The bound text is each row's column: SQLite hands it out from the statement's own copy.
        let statement = try database.statement("SELECT ? FROM t ORDER BY n")
        defer { statement.reset() }
        try statement.bind("first", 1)
        #expect(try statement.step())
        #expect(try statement.string(0) == "first")
        // SQLite refuses a bind while the statement runs; the text the rows read must stay as it was.
        #expect(throws: (any Error).self) { try statement.bind("other", 1) }
        #expect(try statement.string(0) == "first")
        #expect(try statement.step())
        #expect(try statement.string(0) == "first")
    }
}
