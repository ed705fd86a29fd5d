import Foundation
import Testing

@testable import SwiftDataSQLite

/// A connection keeps its prepared statements by SQL and finds the one it used last without hashing its SQL; these
/// tests would fail if that shortcut handed out a statement of other SQL.
@Suite struct StatementCacheTests {
    @Test func aStatementIsFoundByItsSQLWhicheverRanLast() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, create: true)
        try database.executeScript("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)")
        let one = try database.statement("SELECT x FROM t WHERE x = 1")
        let two = try database.statement("SELECT x FROM t WHERE x = 2")
        #expect(one !== two)
        // The same text built anew is another string with the same SQL.
        #expect(try database.statement("SELECT x FROM t WHERE x = " + String(1)) === one)
        #expect(try database.statement("SELECT x FROM t WHERE x = 2") === two)
        #expect(try database.statement("SELECT x FROM t WHERE x = 2") === two)
        #expect(try database.statement("SELECT x FROM t WHERE x = 1") === one)
        // Text of the same length as the last is still other SQL.
        let three = try database.statement("SELECT x FROM t WHERE x = 3")
        #expect(three !== one && three !== two)
        for (sql, expected) in [("SELECT x FROM t WHERE x = 2", [2]), ("SELECT x FROM t WHERE x = 1", [1])]
            as [(String, [Int64])]
        {
            let statement = try database.statement(sql)
            var values: [Int64] = []
            while try statement.step() { values.append(try statement.int64(0)) }
            statement.reset()
            #expect(values == expected, "\(sql)")
        }
    }
}
