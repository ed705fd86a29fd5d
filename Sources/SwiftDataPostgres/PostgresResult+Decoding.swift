import Foundation

/// Typed access to a result's values. Each accessor returns `nil` for SQL `NULL` and throws when the column's type
/// cannot be read as the Swift type asked for. Binary values are read directly; text values (from `execute`, or a
/// statement run with `.text` results) are parsed.
extension PostgresResult {
    /// An `int2`, `int4`, `int8` or `oid` value.
    package func int64(_ row: Int, _ column: Int) throws -> Int64? {
        try withValue(row, column) { try PostgresDecoding.integer($0, $1, $2) }
    }

    /// A `float8` or `float4` value, NaN and infinities included.
    package func double(_ row: Int, _ column: Int) throws -> Double? {
        try withValue(row, column) { bytes, type, isBinary in
            guard isBinary else { return try PostgresDecoding.double(text: bytes) }
            switch (type, bytes.count) {
            case (.float8, 8): return Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
            case (.float4, 4):
                return Double(Float(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self))))
            default: throw PostgresDecoding.mismatch(type, "a floating-point number", bytes.count)
            }
        }
    }

    /// A `bool` value.
    package func bool(_ row: Int, _ column: Int) throws -> Bool? {
        try withValue(row, column) { bytes, type, isBinary in
            guard type == .bool, bytes.count == 1 else { throw PostgresDecoding.mismatch(type, "a Bool", bytes.count) }
            return isBinary ? bytes[0] != 0 : bytes[0] == UInt8(ascii: "t")
        }
    }

    /// A text value (`text`, `varchar`, `char`, `name`), a JSON document (`json`, `jsonb`), or, in a text result,
    /// any value's text.
    package func string(_ row: Int, _ column: Int) throws -> String? {
        try withValue(row, column) { bytes, type, isBinary in
            if !isBinary || type.isText || type == .json { return String(decoding: bytes, as: UTF8.self) }
            if type == .jsonb {
                guard bytes.first == 1 else { throw PostgresDecoding.decoding("unknown jsonb version") }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
            }
            throw PostgresDecoding.mismatch(type, "a String", bytes.count)
        }
    }

    /// A `bytea` value.
    package func data(_ row: Int, _ column: Int) throws -> Data? {
        try withValue(row, column) { bytes, type, isBinary in
            guard type == .bytea else { throw PostgresDecoding.mismatch(type, "Data", bytes.count) }
            return isBinary ? Data(bytes) : try PostgresDecoding.bytea(text: bytes)
        }
    }

    /// A `numeric` value (or an integer one). `Decimal` keeps 38 significant digits: a `numeric` with more is
    /// rounded, and one beyond `Decimal`'s range, or infinite, throws.
    package func decimal(_ row: Int, _ column: Int) throws -> Decimal? {
        try withValue(row, column) { bytes, type, isBinary in
            switch type {
            case .numeric:
                return try isBinary ? PostgresDecoding.numeric(binary: bytes) : PostgresDecoding.numeric(text: bytes)
            case .int2, .int4, .int8: return Decimal(try PostgresDecoding.integer(bytes, type, isBinary))
            default: throw PostgresDecoding.mismatch(type, "a Decimal", bytes.count)
            }
        }
    }

    /// A `uuid` value.
    package func uuid(_ row: Int, _ column: Int) throws -> UUID? {
        try withValue(row, column) { bytes, type, isBinary in
            guard type == .uuid else { throw PostgresDecoding.mismatch(type, "a UUID", bytes.count) }
            if isBinary {
                guard bytes.count == 16 else { throw PostgresDecoding.mismatch(type, "a UUID", bytes.count) }
                return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
            }
            guard let uuid = UUID(uuidString: String(decoding: bytes, as: UTF8.self)) else {
                throw PostgresDecoding.decoding("not a UUID")
            }
            return uuid
        }
    }

    /// A `timestamptz`, `timestamp` (read as UTC) or `date` (midnight UTC) value, to the microsecond;
    /// `infinity` and `-infinity` become infinite dates.
    package func date(_ row: Int, _ column: Int) throws -> Date? {
        try withValue(row, column) { bytes, type, isBinary in
            switch (type, isBinary, bytes.count) {
            case (.timestamptz, true, 8), (.timestamp, true, 8):
                return PostgresTime.date(microsecondsSince2000: Int64(bigEndian: bytes.loadUnaligned(as: Int64.self)))
            case (.date, true, 4):
                return PostgresTime.date(daysSince2000: Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
            case (.timestamptz, false, _), (.timestamp, false, _), (.date, false, _):
                guard let date = PostgresTime.parse(bytes) else { throw PostgresDecoding.decoding("not an ISO date") }
                return date
            default: throw PostgresDecoding.mismatch(type, "a Date", bytes.count)
            }
        }
    }

    /// Any value, as the `PostgresValue` of its type: integers as `.int8`, floats as `.float8`, text types as
    /// `.text`, `json` and `jsonb` as `.jsonb`, times as `.timestamptz`. A type without a case throws in a binary
    /// result, and comes as `.text` in a text one.
    package func value(_ row: Int, _ column: Int) throws -> PostgresValue {
        let type = try columnType(column)
        if try isNull(row, column) { return .null }
        switch type {
        case .bool: return try bool(row, column).map { .bool($0) } ?? .null
        case .int2, .int4, .int8, .oidType: return try int64(row, column).map { .int8($0) } ?? .null
        case .float4, .float8: return try double(row, column).map { .float8($0) } ?? .null
        case .bytea: return try data(row, column).map { .bytea($0) } ?? .null
        case .numeric: return try decimal(row, column).map { .numeric($0) } ?? .null
        case .uuid: return try uuid(row, column).map { .uuid($0) } ?? .null
        case .timestamptz, .timestamp, .date: return try date(row, column).map { .timestamptz($0) } ?? .null
        case .json, .jsonb: return try string(row, column).map { .jsonb($0) } ?? .null
        default: return try string(row, column).map { .text($0) } ?? .null
        }
    }
}
