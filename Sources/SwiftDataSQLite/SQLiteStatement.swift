import CSQLite
import Foundation
import SwiftDataCore

/// A prepared statement; owns its `sqlite3_stmt` and finalizes it when released. It is also the reader of
/// its current row and the writer of its parameters, so model values move straight between SQLite and the
/// model's storage.
final class SQLiteStatement: _RowReader, _RowWriter {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: SQLiteDatabase

    init(database: SQLiteDatabase, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw database.error(code, sql: sql, reason: "the statement could not be prepared")
        }
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row; `false` when there is none.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw database.error(code, sql: sql, reason: "the statement failed")
        }
    }

    /// Runs the statement to completion.
    func run() throws {
        while try step() {}
    }

    /// Makes the statement ready to run again with new values for all its parameters.
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Makes the statement ready to run again, with no parameters bound.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [StoredValue], from first: Int32 = 1) throws {
        for (offset, value) in values.enumerated() {
            let parameter = first + Int32(offset)
            switch value {
            case .null: try bindNull(parameter)
            case .integer(let value): try bind(value, parameter)
            case .real(let value): try bind(value, parameter)
            case .text(let value): try bind(value, parameter)
            case .blob(let value): try bind(value, parameter)
            }
        }
    }

    // MARK: _RowWriter

    func bindNull(_ parameter: Int32) throws {
        try check(sqlite3_bind_null(handle, parameter))
    }

    func bind(_ value: Int64, _ parameter: Int32) throws {
        try check(sqlite3_bind_int64(handle, parameter, value))
    }

    func bind(_ value: Double, _ parameter: Int32) throws {
        try check(sqlite3_bind_double(handle, parameter, value))
    }

    func bind(_ value: String, _ parameter: Int32) throws {
        var value = value
        let code = value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                guard let start = text.baseAddress else {
                    return sqlite3_bind_text64(handle, parameter, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
                }
                return sqlite3_bind_text64(
                    handle, parameter, start, sqlite3_uint64(text.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code)
    }

    func bind(_ value: Data, _ parameter: Int32) throws {
        let code = value.withUnsafeBytes { bytes in
            sqlite3_bind_blob64(
                handle, parameter, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count),
                csqlite_transient())
        }
        try check(code)
    }

    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw database.error(code, sql: sql, reason: "a value could not be bound") }
    }

    // MARK: _RowReader

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func data(_ column: Int32) -> Data {
        guard let blob = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: blob, count: Int(sqlite3_column_bytes(handle, column)))
    }

    // Checked reads: one look at the column's value for its type, then its contents, so a value of the expected
    // type costs about what the unchecked read does.

    func integer(_ column: Int32) throws -> Int64 {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { throw mismatch(column, expected: "an integer") }
        return sqlite3_value_int64(value)
    }

    func real(_ column: Int32) throws -> Double? {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_value_double(value)
        case SQLITE_NULL: return nil
        default: throw mismatch(column, expected: "a number")
        }
    }

    func text(_ column: Int32) throws -> String {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
            throw mismatch(column, expected: "text")
        }
        return String(
            decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    func blob(_ column: Int32) throws -> Data {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_BLOB else { throw mismatch(column, expected: "data") }
        guard let blob = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: blob, count: Int(sqlite3_value_bytes(value)))
    }

    /// The error for a column that holds a value of another type than the property's.
    private func mismatch(_ column: Int32, expected: String) -> SwiftDataError {
        let stored: String
        switch self.value(column) {
        case .null: stored = "NULL"
        case .integer(let value): stored = "the integer \(value)"
        case .real(let value): stored = "the number \(value)"
        case .text(let value): stored = "the text '\(value.count > 60 ? String(value.prefix(60)) + "…" : value)'"
        case .blob(let value): stored = "\(value.count) bytes of data"
        }
        let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "#\(column)"
        return .corruptValue("column \(name) holds \(stored) where \(expected) is expected")
    }

    /// The value of a column as its storage class.
    func value(_ column: Int32) -> StoredValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(string(column))
        case SQLITE_BLOB: .blob(data(column))
        default: .null
        }
    }
}
