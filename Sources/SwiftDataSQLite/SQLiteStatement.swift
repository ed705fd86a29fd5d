import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// A prepared statement; owns its `sqlite3_stmt` and finalizes it when released. It is also the reader of its
/// current row and the writer of its parameters, so model values move straight between SQLite and the model's
/// storage. It alone decides how SQLite keeps each kind of value: `Bool` and integers as INTEGER (`UInt64` as its
/// bit pattern), `Double` as REAL with NaN as NULL (SQLite stores NaN as NULL; `-0.0` keeps its sign in the
/// untyped columns the store declares for floating-point values), `Date` as a REAL of seconds since 2001 (exact),
/// `Decimal` as its exact text, `UUID` as its 16 bytes, `URL` as its absolute string, JSON as text, and externally
/// stored data as the name of a file (see `externalFiles`).
final class SQLiteStatement: _RowReader, _RowWriter {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: SQLiteDatabase
    /// The files that hold the values of externally stored attributes, while a transaction writes rows or a fetch
    /// reads them; without them (an in-memory store) such values stay in the row.
    var externalFiles: ExternalStorage?

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

    deinit {
        sqlite3_finalize(handle)
        textSlots.free()
    }

    /// Copies of short text parameters that SQLite reads in place (see `bind(_: String, _:)`). Unchecked exclusivity:
    /// a statement is used by one thread at a time, and nothing it calls while binding reaches back into it.
    @exclusivity(unchecked) private var textSlots = TextSlots()

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
        externalFiles = nil
    }

    /// Binds values, from parameter `first` on.
    func bind(_ values: [StoreValue], from first: Int32 = 1) throws {
        for (offset, value) in values.enumerated() { try bind(value, first + Int32(offset)) }
    }

    // MARK: Writing

    func bindNull(_ parameter: Int32) throws {
        try check(sqlite3_bind_null(handle, parameter))
    }

    func bind(_ value: Bool, _ parameter: Int32) throws {
        try bind(value ? 1 as Int64 : 0, parameter)
    }

    func bind(_ value: Int64, _ parameter: Int32) throws {
        try check(sqlite3_bind_int64(handle, parameter, value))
    }

    /// As its bit pattern: predicates and sorts compare such columns as unsigned numbers.
    func bind(_ value: UInt64, _ parameter: Int32) throws {
        try bind(Int64(bitPattern: value), parameter)
    }

    /// SQLite stores NaN as NULL.
    func bind(_ value: Double, _ parameter: Int32) throws {
        try check(sqlite3_bind_double(handle, parameter, value))
    }

    /// As its exact text (`SWIFTDATA_DECIMAL` orders it numerically).
    func bind(_ value: Decimal, _ parameter: Int32) throws {
        try bind(value.description, parameter)
    }

    /// A short text (up to `TextSlots.size` bytes, in one of the first `TextSlots.parameters` parameters) is copied
    /// into the statement's slot for the parameter, which SQLite reads in place (`SQLITE_STATIC`) until the parameter
    /// is bound again; longer ones SQLite copies itself. SQLite's copy of each value is an allocation and a free,
    /// about 550 instructions; the slot's, a `memcpy`. A slot is written only while the statement is not being run
    /// (when SQLite cannot be reading the slot's previous text).
    func bind(_ value: String, _ parameter: Int32) throws {
        // In place when the string's bytes are contiguous (always, for a native string), without copying the string.
        if let code = value.utf8.withContiguousStorageIfAvailable({ bindText($0, parameter) }) {
            return try check(code)
        }
        var value = value
        try check(value.withUTF8 { bindText($0, parameter) })
    }

    /// Binds text to `parameter` (see `bind(_: String, _:)`); returns SQLite's result code.
    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, _ parameter: Int32) -> Int32 {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_text64(handle, parameter, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        if bytes.count <= TextSlots.size, sqlite3_stmt_busy(handle) == 0, let slot = textSlots.slot(parameter) {
            slot.copyMemory(from: start, byteCount: bytes.count)
            return sqlite3_bind_text64(
                handle, parameter, slot.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
                csqlite_static(), UInt8(SQLITE_UTF8))
        }
        return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
            sqlite3_bind_text64(
                handle, parameter, text, sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    func bind(_ value: Data, _ parameter: Int32) throws {
        let code = value.withUnsafeBytes { bytes in
            sqlite3_bind_blob64(
                handle, parameter, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count),
                csqlite_transient())
        }
        try check(code)
    }

    /// As seconds since 2001-01-01 (Foundation's reference date), which round-trips exactly.
    func bind(_ value: Date, _ parameter: Int32) throws {
        try bind(value.timeIntervalSinceReferenceDate, parameter)
    }

    /// As its 16 bytes, so that SQLite orders UUIDs as Swift does.
    func bind(_ value: UUID, _ parameter: Int32) throws {
        try bind(withUnsafeBytes(of: value.uuid) { Data($0) }, parameter)
    }

    /// As its absolute string.
    func bind(_ value: URL, _ parameter: Int32) throws {
        try bind(value.absoluteString, parameter)
    }

    func bindJSON(_ text: String, _ parameter: Int32) throws {
        try bind(text, parameter)
    }

    /// In a file of `externalFiles`, whose name the row holds (an empty name for empty data, which needs no file);
    /// without them, in the row.
    func bindExternal(_ data: Data, _ parameter: Int32) throws {
        guard let externalFiles else { return try bind(data, parameter) }
        try bind(data.isEmpty ? "" : try externalFiles.write(data), parameter)
    }

    // Inlined: called for every bound value, and a call of its own cost more than the comparison.
    @inline(__always)
    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw database.error(code, sql: sql, reason: "a value could not be bound") }
    }

    // MARK: Reading

    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column's integer, whatever it holds (for the store's own key columns).
    func columnInteger(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    // Checked reads: one look at the column's value for its type, then its contents, so a value of the expected
    // type costs about what an unchecked read does.

    func int64(_ column: Int32) throws -> Int64 {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { throw mismatch(column, expected: "an integer") }
        return sqlite3_value_int64(value)
    }

    func bool(_ column: Int32) throws -> Bool { try int64(column) != 0 }

    func uint64(_ column: Int32) throws -> UInt64 { UInt64(bitPattern: try int64(column)) }

    /// A number (an integer converts); NULL is NaN, which SQLite stores as NULL.
    func double(_ column: Int32) throws -> Double {
        try number(column) ?? .nan
    }

    func date(_ column: Int32) throws -> Date {
        guard let seconds = try number(column) else {
            throw SwiftDataError.corruptValue("the column holds NULL where a date is expected")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    func decimal(_ column: Int32) throws -> Decimal {
        let text = try string(column)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw SwiftDataError.corruptValue("'\(text)' is not a valid Decimal")
        }
        return value
    }

    func string(_ column: Int32) throws -> String {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
            throw mismatch(column, expected: "text")
        }
        return String(
            decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    func data(_ column: Int32) throws -> Data {
        let value = sqlite3_column_value(handle, column)
        guard sqlite3_value_type(value) == SQLITE_BLOB else { throw mismatch(column, expected: "data") }
        guard let blob = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: blob, count: Int(sqlite3_value_bytes(value)))
    }

    func uuid(_ column: Int32) throws -> UUID {
        let bytes = try data(column)
        guard bytes.count == 16 else {
            throw SwiftDataError.corruptValue("a UUID column holds \(bytes.count) bytes instead of 16")
        }
        return bytes.withUnsafeBytes { raw in UUID(uuid: raw.loadUnaligned(as: uuid_t.self)) }
    }

    func url(_ column: Int32) throws -> URL { try URL(storedText: try string(column)) }

    func json(_ column: Int32) throws -> String { try string(column) }

    /// A foreign key: an integer, or NULL.
    func relatedKey(_ column: Int32) throws -> Int64? {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return sqlite3_value_int64(value)
        case SQLITE_NULL: return nil
        default: throw mismatch(column, expected: "a key")
        }
    }

    /// The data itself in a blob (an in-memory store, or a value moved into the row), or a file's name: empty for
    /// empty data, otherwise a reference to a file that must exist (checked here, so that a fetch reports a
    /// missing file at once).
    func external(_ column: Int32) throws -> _ExternalValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .data(nil)
        case SQLITE_BLOB: return .data(try data(column))
        default:
            let name = try string(column)
            if name.isEmpty { return .data(Data()) }
            if let externalFiles, !externalFiles.exists(name) {
                throw SwiftDataError.storeError.with(
                    reason:
                        "the file of an externally stored value, \(externalFiles.directory.appendingPathComponent(name).path), is missing",
                    suggestion: "Restore the store's .external directory from a backup together with the store")
            }
            return .reference(name)
        }
    }

    /// A number (an integer converts), or `nil` for NULL; text or a blob throws.
    private func number(_ column: Int32) throws -> Double? {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_value_double(value)
        case SQLITE_NULL: return nil
        default: throw mismatch(column, expected: "a number")
        }
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
    func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            .text(
                String(
                    decoding: UnsafeBufferPointer(
                        start: sqlite3_column_text(handle, column), count: Int(sqlite3_column_bytes(handle, column))),
                    as: UTF8.self))
        case SQLITE_BLOB:
            .blob(
                sqlite3_column_blob(handle, column).map {
                    Data(bytes: $0, count: Int(sqlite3_column_bytes(handle, column)))
                } ?? Data())
        default: .null
        }
    }
}

/// Memory for the bytes of short text parameters, a slot of `size` bytes for each of a statement's first `parameters`
/// parameters, made when the parameter is first bound to such a text and kept until the statement is released (at
/// most 8 KiB a statement).
private struct TextSlots {
    /// The longest text a slot holds, in bytes.
    static let size = 256
    /// The parameters that have slots: 1 to this.
    static let parameters: Int32 = 32

    private var slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>?

    /// The slot of `parameter`, made on first use; `nil` for a parameter without one.
    mutating func slot(_ parameter: Int32) -> UnsafeMutableRawPointer? {
        guard parameter >= 1, parameter <= Self.parameters else { return nil }
        let table: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        if let slots {
            table = slots
        } else {
            table = .allocate(capacity: Int(Self.parameters))
            table.initialize(repeating: nil, count: Int(Self.parameters))
            slots = table
        }
        let index = Int(parameter - 1)
        if let slot = table[index] { return slot }
        let slot = UnsafeMutableRawPointer.allocate(byteCount: Self.size, alignment: 1)
        table[index] = slot
        return slot
    }

    /// Frees every slot; called once SQLite no longer refers to them (the statement is finalized).
    func free() {
        guard let slots else { return }
        for index in 0..<Int(Self.parameters) { slots[index]?.deallocate() }
        slots.deallocate()
    }
}
