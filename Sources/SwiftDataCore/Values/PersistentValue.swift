import Foundation

/// A type a store holds natively in one column (internal plumbing; not API). `@Model`-generated code reaches
/// these conformances through overloads resolved at compile time, so the common attribute types are
/// decoded and encoded without any runtime type checks.
public protocol _PersistentValue {
    /// The column's storage class.
    static var _storage: StorageClass { get }
    static func _decode(from reader: some _RowReader, column: Int32) throws -> Self
    func _encode(to writer: some _RowWriter, parameter: Int32) throws
}

/// The storage classes every store supports, as SQLite names them.
public enum StorageClass: String, Codable, Sendable {
    /// A 64-bit signed integer, a floating-point number, text, or bytes.
    case integer, real, text, blob
}

extension _PersistentValue where Self: FixedWidthInteger {
    public static var _storage: StorageClass { .integer }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Self {
        let stored = try reader.integer(column)
        if Self.bitWidth == 64 && !Self.isSigned {
            return Self(truncatingIfNeeded: UInt64(bitPattern: stored))
        }
        guard let value = Self(exactly: stored) else {
            throw SwiftDataError.corruptValue("\(stored) does not fit in \(Self.self)")
        }
        return value
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        // Unsigned 64-bit values travel as their bit pattern, so every value round-trips.
        if Self.bitWidth == 64 && !Self.isSigned {
            try writer.bind(Int64(bitPattern: UInt64(truncatingIfNeeded: self)), parameter)
        } else {
            try writer.bind(Int64(self), parameter)
        }
    }
}

extension Int: _PersistentValue {}
extension Int8: _PersistentValue {}
extension Int16: _PersistentValue {}
extension Int32: _PersistentValue {}
extension Int64: _PersistentValue {}
extension UInt: _PersistentValue {}
extension UInt8: _PersistentValue {}
extension UInt16: _PersistentValue {}
extension UInt32: _PersistentValue {}
extension UInt64: _PersistentValue {}

extension Bool: _PersistentValue {
    public static var _storage: StorageClass { .integer }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Bool {
        try reader.integer(column) != 0
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(self ? 1 as Int64 : 0, parameter)
    }
}

extension Double: _PersistentValue {
    public static var _storage: StorageClass { .real }
    /// SQLite stores NaN as NULL, so a NULL read back into a non-optional `Double` is NaN.
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Double {
        try reader.real(column) ?? .nan
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(self, parameter)
    }
}

extension Float: _PersistentValue {
    public static var _storage: StorageClass { .real }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Float {
        Float(try reader.real(column) ?? .nan)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(Double(self), parameter)
    }
}

extension String: _PersistentValue {
    public static var _storage: StorageClass { .text }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> String {
        try reader.text(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(self, parameter)
    }
}

extension Data: _PersistentValue {
    public static var _storage: StorageClass { .blob }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Data {
        try reader.blob(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(self, parameter)
    }
}

/// Dates are stored as seconds since 2001-01-01 (Foundation's reference date), which round-trips exactly.
extension Date: _PersistentValue {
    public static var _storage: StorageClass { .real }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Date {
        guard let seconds = try reader.real(column) else {
            throw SwiftDataError.corruptValue("the column holds NULL where a date is expected")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(timeIntervalSinceReferenceDate, parameter)
    }
}

/// UUIDs are stored as their 16 bytes, so the store orders them as Swift does.
extension UUID: _PersistentValue {
    public static var _storage: StorageClass { .blob }
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> UUID {
        let bytes = try reader.blob(column)
        guard bytes.count == 16 else {
            throw SwiftDataError.corruptValue("a UUID column holds \(bytes.count) bytes instead of 16")
        }
        return bytes.withUnsafeBytes { raw in
            UUID(uuid: raw.loadUnaligned(as: uuid_t.self))
        }
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(withUnsafeBytes(of: uuid) { Data($0) }, parameter)
    }
}

/// URLs are stored as their absolute string.
extension URL: _PersistentValue {
    public static var _storage: StorageClass { .text }
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> URL {
        let text = try reader.text(column)
        guard let url = URL(string: text) else {
            throw SwiftDataError.corruptValue("'\(text)' is not a valid URL")
        }
        return url
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(absoluteString, parameter)
    }
}

/// Decimals are stored as their exact decimal text.
extension Decimal: _PersistentValue {
    public static var _storage: StorageClass { .text }
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Decimal {
        let text = try reader.text(column)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw SwiftDataError.corruptValue("'\(text)' is not a valid Decimal")
        }
        return value
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(description, parameter)
    }
}

extension Optional: _PersistentValue where Wrapped: _PersistentValue {
    public static var _storage: StorageClass { Wrapped._storage }
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Wrapped? {
        reader.isNull(column) ? nil : try Wrapped._decode(from: reader, column: column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        if let self { try self._encode(to: writer, parameter: parameter) } else { try writer.bindNull(parameter) }
    }
}
