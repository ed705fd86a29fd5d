import CLibPQ

/// The rows, or the outcome, of one statement; owns its libpq `PGresult` and frees it when released.
///
/// Values are read by row and column, each with the accessor of the Swift type wanted (`int64`, `double`,
/// `string`, ...; see `PostgresResult+Decoding.swift`), which reads the column's type in either format: binary, which
/// statements run with `query` return by default, or text, which `execute` returns. A row or column out of range
/// throws.
package final class PostgresResult {
    let handle: OpaquePointer
    /// The number of rows.
    package let rowCount: Int
    /// The number of columns.
    package let columnCount: Int
    /// Each column's type and whether its values are binary.
    let columns: [(type: PostgresType, isBinary: Bool)]

    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
        columnCount = Int(PQnfields(handle))
        columns = (0..<Int32(PQnfields(handle))).map {
            (PostgresType(oid: PQftype(handle, $0)), PQfformat(handle, $0) == PostgresFormat.binary.rawValue)
        }
    }

    deinit { PQclear(handle) }

    /// The number of rows a command inserted, updated or deleted (`0` for other commands).
    package var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The name of a column, as the statement's select list gives it.
    package func columnName(_ column: Int) throws -> String {
        try checkColumn(column)
        return PQfname(handle, Int32(column)).map { String(cString: $0) } ?? ""
    }

    /// The type of a column.
    package func columnType(_ column: Int) throws -> PostgresType {
        try checkColumn(column)
        return columns[column].type
    }

    /// Whether a value is SQL `NULL`.
    package func isNull(_ row: Int, _ column: Int) throws -> Bool {
        try checkCell(row, column)
        return PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// Calls `body` with the bytes of a value, its column's type and whether they are binary; returns `nil` for
    /// SQL `NULL`. The bytes are valid only inside `body`. This is what every typed accessor reads through.
    @inline(__always)
    package func withValue<Value>(
        _ row: Int, _ column: Int,
        _ body: (UnsafeRawBufferPointer, PostgresType, Bool) throws -> Value
    ) throws -> Value? {
        try checkCell(row, column)
        let row = Int32(truncatingIfNeeded: row)
        let column32 = Int32(truncatingIfNeeded: column)
        if PQgetisnull(handle, row, column32) != 0 { return nil }
        let bytes = UnsafeRawBufferPointer(
            start: PQgetvalue(handle, row, column32), count: Int(PQgetlength(handle, row, column32)))
        let (type, isBinary) = columns[column]
        do {
            return try body(bytes, type, isBinary)
        } catch let error as PostgresError where error.kind == .decoding {
            let name = (try? columnName(column)) ?? "\(column)"
            throw PostgresError.decoding("column \(name) (\(type)) of row \(row): \(error.message)")
        }
    }

    private func checkColumn(_ column: Int) throws {
        guard column >= 0 && column < columnCount else {
            throw PostgresError.decoding("column \(column) does not exist; the result has \(columnCount) columns")
        }
    }

    @inline(__always)
    private func checkCell(_ row: Int, _ column: Int) throws {
        guard row >= 0 && row < rowCount else {
            throw PostgresError.decoding("row \(row) does not exist; the result has \(rowCount) rows")
        }
        try checkColumn(column)
    }
}
