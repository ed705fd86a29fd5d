import Foundation

/// A type every store holds as a value of its own meaning (internal plumbing; not API). `@Model`-generated code
/// reaches these conformances through overloads resolved at compile time, so the common attribute types are
/// decoded and encoded without any runtime type checks. How a store keeps each is the store's decision (see
/// `_RowReader`).
public protocol _PersistentValue {
    static func _decode(from reader: some _RowReader, column: Int32) throws -> Self
    func _encode(to writer: some _RowWriter, parameter: Int32) throws
}

extension _PersistentValue where Self: FixedWidthInteger {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Self {
        if Self.bitWidth == 64 && !Self.isSigned { return Self(truncatingIfNeeded: try reader.uint64(column)) }
        let stored = try reader.int64(column)
        guard let value = Self(exactly: stored) else {
            throw SwiftDataError.corruptValue("\(stored) does not fit in \(Self.self)")
        }
        return value
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        if Self.bitWidth == 64 && !Self.isSigned {
            try writer.bind(UInt64(truncatingIfNeeded: self), parameter)
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
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Bool {
        try reader.bool(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension Double: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Double {
        try reader.double(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

/// A `Float` is stored as the `Double` of the same value.
extension Float: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Float {
        Float(try reader.double(column))
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        try writer.bind(Double(self), parameter)
    }
}

extension String: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> String {
        try reader.string(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension Data: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Data {
        try reader.data(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension Date: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Date {
        try reader.date(column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension UUID: _PersistentValue {
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> UUID {
        try reader.uuid(column)
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension URL: _PersistentValue {
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> URL {
        try reader.url(column)
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension Decimal: _PersistentValue {
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Decimal {
        try reader.decimal(column)
    }
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws { try writer.bind(self, parameter) }
}

extension Optional: _PersistentValue where Wrapped: _PersistentValue {
    @inlinable
    public static func _decode(from reader: some _RowReader, column: Int32) throws -> Wrapped? {
        reader.isNull(column) ? nil : try Wrapped._decode(from: reader, column: column)
    }
    @inlinable
    public func _encode(to writer: some _RowWriter, parameter: Int32) throws {
        if let self { try self._encode(to: writer, parameter: parameter) } else { try writer.bindNull(parameter) }
    }
}
