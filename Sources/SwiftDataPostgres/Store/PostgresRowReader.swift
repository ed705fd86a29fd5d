import Foundation
import SwiftDataCore

/// Reads the models' values of one row of a result, as `PostgresValue+Store.swift` says the store keeps them. A
/// column that holds a value of another type throws `corruptValue`, naming the column.
final class PostgresRowReader: _RowReader {
    let result: PostgresResult
    /// The row read, from 0.
    var row = 0

    init(_ result: PostgresResult) {
        self.result = result
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
        guard let value else {
            let name = (try? result.columnName(Int(column))) ?? "#\(column)"
            throw SwiftDataError.corruptValue("column \(name) holds NULL where a value is expected")
        }
        return value
    }

    func isNull(_ column: Int32) -> Bool { (try? result.isNull(row, Int(column))) ?? true }

    func bool(_ column: Int32) throws -> Bool { try checked(column) { try result.bool(row, Int(column)) } }

    func int64(_ column: Int32) throws -> Int64 { try checked(column) { try result.int64(row, Int(column)) } }

    func uint64(_ column: Int32) throws -> UInt64 { UInt64(bitPattern: try int64(column)) }

    /// NULL is NaN, which the store keeps as NULL.
    func double(_ column: Int32) throws -> Double {
        if isNull(column) { return .nan }
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

    func string(_ column: Int32) throws -> String { try checked(column) { try result.string(row, Int(column)) } }

    func data(_ column: Int32) throws -> Data { try checked(column) { try result.data(row, Int(column)) } }

    /// Seconds since 2001.
    func date(_ column: Int32) throws -> Date {
        guard !isNull(column) else { throw SwiftDataError.corruptValue("a column holds NULL where a date is expected") }
        return Date(timeIntervalSinceReferenceDate: try checked(column) { try result.double(row, Int(column)) })
    }

    func uuid(_ column: Int32) throws -> UUID { try checked(column) { try result.uuid(row, Int(column)) } }

    func url(_ column: Int32) throws -> URL {
        let text = try string(column)
        guard let url = URL(string: text) else { throw SwiftDataError.corruptValue("'\(text)' is not a valid URL") }
        return url
    }

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
