import CSQLite
import Foundation

/// Runs `command` on the SQLite database at `store` through SQLite's C API, as another program that tampers with a
/// store would, and returns what it selected as the `sqlite3` shell prints it in its default mode: a row per line,
/// its values separated by `|`, `NULL` as nothing. `command` may hold several statements; `.schema` gives the
/// statements that made the schema, each ending with `;`. The database must exist unless `creating`.
@discardableResult func sqlite(_ store: URL, _ command: String, creating: Bool = false) throws -> String {
    var database: OpaquePointer?
    defer { sqlite3_close_v2(database) }
    guard
        sqlite3_open_v2(
            store.path, &database, SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0), nil) == SQLITE_OK
    else {
        throw SQLiteCommandError(command: command, message: database.map { String(cString: sqlite3_errmsg($0)) } ?? "")
    }
    sqlite3_busy_timeout(database, 60_000)
    let sql =
        command == ".schema"
        ? "SELECT sql || ';' FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'" : command
    var output = ""
    try sql.withCString { text in
        var rest: UnsafePointer<CChar>? = text
        while let start = rest, start.pointee != 0 {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, start, -1, &statement, &rest) == SQLITE_OK else {
                throw SQLiteCommandError(command: command, message: String(cString: sqlite3_errmsg(database)))
            }
            guard let statement else { continue }  // only white space or a comment was left
            defer { sqlite3_finalize(statement) }
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else {
                    throw SQLiteCommandError(command: command, message: String(cString: sqlite3_errmsg(database)))
                }
                let values = (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                }
                output += values.joined(separator: "|") + "\n"
            }
        }
    }
    return output
}

/// A statement `sqlite(_:_:)` could not run, with SQLite's message.
struct SQLiteCommandError: Error, CustomStringConvertible {
    let command: String
    let message: String

    var description: String { "SQLite could not run \(command): \(message)" }
}
