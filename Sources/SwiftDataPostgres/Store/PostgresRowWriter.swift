import Foundation
import SwiftDataCore

/// Collects the parameters of one statement from a model's values, as `PostgresValue+Store.swift` says the store
/// keeps them. Externally stored data gets a new reference, and waits in `externalData` for the transaction to write
/// it to the external data table with the row.
final class PostgresRowWriter: _RowWriter {
    /// The parameters, `$1` first. Unchecked exclusivity: a writer is used by one save at a time, and no access to
    /// `values` overlaps another (nothing it calls while writing reads the writer), so the runtime's check of every
    /// parameter set would only cost time.
    @exclusivity(unchecked) private(set) var values: [PostgresValue] = []
    /// Externally stored values bound since the last `reset`, by reference.
    private(set) var externalData: [(reference: String, data: Data)] = []

    /// Starts a statement's parameters, `count` of them, all `NULL` (the external data stays, until
    /// `takeExternalData` empties it).
    func reset(count: Int) {
        values = Array(repeating: .null, count: count)
    }

    /// The parameters bound since the last `reset`, handed over without a copy; the writer is left empty.
    func takeValues() -> [PostgresValue] {
        var taken: [PostgresValue] = []
        swap(&taken, &values)
        return taken
    }

    /// The external data bound so far; it is forgotten here.
    func takeExternalData() -> [(reference: String, data: Data)] {
        defer { externalData.removeAll() }
        return externalData
    }

    /// Sets parameter `parameter` (1-based), growing the list as needed.
    func set(_ value: PostgresValue, _ parameter: Int32) {
        let index = Int(parameter) - 1
        if index >= values.count { values.append(contentsOf: repeatElement(.null, count: index - values.count + 1)) }
        values[index] = value
    }

    func bindNull(_ parameter: Int32) throws { set(.null, parameter) }
    func bind(_ value: Bool, _ parameter: Int32) throws { set(.bool(value), parameter) }
    func bind(_ value: Int64, _ parameter: Int32) throws { set(.int8(value), parameter) }
    func bind(_ value: UInt64, _ parameter: Int32) throws { set(PostgresValue(storing: .uint64(value)), parameter) }
    func bind(_ value: Double, _ parameter: Int32) throws { set(PostgresValue(storing: .double(value)), parameter) }
    func bind(_ value: Decimal, _ parameter: Int32) throws { set(PostgresValue(storing: .decimal(value)), parameter) }
    func bind(_ value: String, _ parameter: Int32) throws {
        // PostgreSQL's text cannot hold U+0000; the save names the model and property (`RowWrite.naming`).
        if value.utf8.contains(0) { throw Self.nulInText }
        set(.text(value), parameter)
    }

    /// The error of a string with U+0000 in it, which PostgreSQL cannot store as text.
    static let nulInText = SwiftDataError.modelValidationFailure.with(
        reason: "the string contains the character U+0000 (NUL), which PostgreSQL's text type cannot hold",
        suggestion:
            "Remove the NUL characters before saving (SQLite keeps them), or keep such values as Data, which is stored "
            + "as bytea")
    func bind(_ value: Data, _ parameter: Int32) throws { set(.bytea(value), parameter) }
    func bind(_ value: Date, _ parameter: Int32) throws { set(PostgresValue(storing: .date(value)), parameter) }
    func bind(_ value: UUID, _ parameter: Int32) throws { set(.uuid(value), parameter) }
    func bind(_ value: URL, _ parameter: Int32) throws { set(.text(value.absoluteString), parameter) }
    func bindJSON(_ text: String, _ parameter: Int32) throws { set(.jsonb(text), parameter) }

    /// A new reference to a row of the external data table (empty for empty data, which needs none).
    func bindExternal(_ data: Data, _ parameter: Int32) throws {
        guard !data.isEmpty else { return set(.text(""), parameter) }
        let reference = UUID().uuidString.lowercased()
        externalData.append((reference, data))
        set(.text(reference), parameter)
    }
}
