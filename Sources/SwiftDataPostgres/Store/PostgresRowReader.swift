import CLibPQ
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// Reads the models' values of one row of a result, as `PostgresValue+Store.swift` says the store keeps them. A
/// column that holds a value of another type throws `corruptValue`, naming the column.
///
/// The accessors a fetch calls for every value (integers, floats, strings, keys) read libpq's buffers directly:
/// the row is one of the result's (the store sets it), the column is checked once against the result's width, and
/// a value's NULL flag is asked for only when its length does not already say it is present.
final class PostgresRowReader: _RowReader {
    let result: PostgresResult
    private let handle: OpaquePointer
    private let columns: [(type: PostgresType, isBinary: Bool)]
    /// The row read, from 0; one of the result's.
    var row = 0 {
        didSet { row32 = Int32(truncatingIfNeeded: row) }
    }
    private var row32: Int32 = 0

    init(_ result: PostgresResult) {
        self.result = result
        handle = result.handle
        columns = result.columns
    }

    /// Runs a read, reporting a decoding failure as the framework's error.
    @inline(__always)
    private func checked<Value>(_ column: Int32, _ read: () throws -> Value?) throws -> Value {
        let value: Value?
        do {
            value = try read()
        } catch let error as PostgresError {
            throw SwiftDataError.corruptValue(error.message)
        }
        guard let value else { throw nullValue(column) }
        return value
    }

    private func nullValue(_ column: Int32) -> SwiftDataError {
        let name = (try? result.columnName(Int(column))) ?? "#\(column)"
        return SwiftDataError.corruptValue("column \(name) holds NULL where a value is expected")
    }

    private func corrupt(_ column: Int32, _ error: PostgresError) -> SwiftDataError {
        let name = (try? result.columnName(Int(column))) ?? "#\(column)"
        return SwiftDataError.corruptValue("column \(name): \(error.message)")
    }

    /// The bytes of a value of this row, with its column's type and form, or `nil` for NULL.
    @inline(__always)
    private func value(_ column: Int32) throws -> (UnsafeRawBufferPointer, PostgresType, Bool)? {
        guard column >= 0 && Int(column) < columns.count else {
            throw SwiftDataError.corruptValue("column \(column) does not exist; the result has \(columns.count)")
        }
        let length = PQgetlength(handle, row32, column)
        if length == 0 && PQgetisnull(handle, row32, column) != 0 { return nil }
        let (type, isBinary) = columns[Int(column)]
        return (UnsafeRawBufferPointer(start: PQgetvalue(handle, row32, column), count: Int(length)), type, isBinary)
    }

    func isNull(_ column: Int32) -> Bool {
        guard column >= 0 && Int(column) < columns.count else { return true }
        return PQgetisnull(handle, row32, column) != 0
    }

    func bool(_ column: Int32) throws -> Bool { try checked(column) { try result.bool(row, Int(column)) } }

    func int64(_ column: Int32) throws -> Int64 {
        guard let (bytes, type, isBinary) = try value(column) else { throw nullValue(column) }
        if isBinary && bytes.count == 8 && type == .int8 {
            return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        }
        do {
            return try PostgresDecoding.integer(bytes, type, isBinary)
        } catch let error as PostgresError {
            throw corrupt(column, error)
        }
    }

    func uint64(_ column: Int32) throws -> UInt64 { UInt64(bitPattern: try int64(column)) }

    /// NULL is NaN, which the store keeps as NULL.
    func double(_ column: Int32) throws -> Double {
        guard let (bytes, type, isBinary) = try value(column) else { return .nan }
        if isBinary && bytes.count == 8 && type == .float8 {
            return Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
        }
        return try checked(column) { try result.double(row, Int(column)) }
    }

    /// `-Infinity` is `Decimal.nan`.
    func decimal(_ column: Int32) throws -> Decimal {
        try checked(column) {
            try result.withValue(row, Int(column)) { bytes, type, isBinary in
                if type == .numeric, isBinary, bytes.count >= 8,
                    UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self)) == 0xF000
                {
                    return Decimal.nan
                }
                if type == .numeric, !isBinary, String(decoding: bytes, as: UTF8.self) == "-Infinity" {
                    return Decimal.nan
                }
                guard type == .numeric else {
                    throw PostgresDecoding.mismatch(type, "a Decimal", bytes.count)
                }
                return try isBinary ? PostgresDecoding.numeric(binary: bytes) : PostgresDecoding.numeric(text: bytes)
            }
        }
    }

    func string(_ column: Int32) throws -> String {
        guard let (bytes, type, _) = try value(column) else { throw nullValue(column) }
        // A `text` value's binary form is its UTF-8 text.
        if type == .text { return String(decoding: bytes, as: UTF8.self) }
        return try checked(column) { try result.string(row, Int(column)) }
    }

    func data(_ column: Int32) throws -> Data { try checked(column) { try result.data(row, Int(column)) } }

    /// Seconds since 2001.
    func date(_ column: Int32) throws -> Date {
        guard !isNull(column) else { throw SwiftDataError.corruptValue("a column holds NULL where a date is expected") }
        return Date(timeIntervalSinceReferenceDate: try double(column))
    }

    func uuid(_ column: Int32) throws -> UUID { try checked(column) { try result.uuid(row, Int(column)) } }

    func url(_ column: Int32) throws -> URL { try URL(storedText: try string(column)) }

    func json(_ column: Int32) throws -> String { try string(column) }

    func relatedKey(_ column: Int32) throws -> Int64? {
        if isNull(column) { return nil }
        return try int64(column)
    }

    /// A reference to a row of the external data table, or empty data (an empty reference).
    func external(_ column: Int32) throws -> _ExternalValue {
        if isNull(column) { return .data(nil) }
        let reference = try string(column)
        return reference.isEmpty ? .data(Data()) : .reference(reference)
    }
}
