import Foundation

/// Reads the columns of the current row of a store's result set (internal plumbing between a store and the
/// code `@Model` generates; not API). Column indexes are the store's, counted from 0.
///
/// The unchecked reads (`int64`, `double`, `string`, `data`) convert whatever the column holds, as SQLite does;
/// the checked ones (`integer`, `real`, `text`, `blob`) throw `corruptValue` when the column holds a value of
/// another storage class (written by another program), so a wrong value is never read silently as `0`.
public protocol _RowReader: AnyObject {
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    func double(_ column: Int32) -> Double
    func string(_ column: Int32) -> String
    func data(_ column: Int32) -> Data
    /// The column's value as its storage class.
    func value(_ column: Int32) -> StoredValue
    /// An integer; anything else throws.
    func integer(_ column: Int32) throws -> Int64
    /// A number (an integer converts), or `nil` for NULL; text or a blob throws.
    func real(_ column: Int32) throws -> Double?
    /// Text; anything else throws.
    func text(_ column: Int32) throws -> String
    /// A blob; anything else throws.
    func blob(_ column: Int32) throws -> Data
}

/// Binds values to the parameters of a store's statement (internal plumbing; not API). Parameter indexes
/// are the store's.
public protocol _RowWriter: AnyObject {
    func bindNull(_ parameter: Int32) throws
    func bind(_ value: Int64, _ parameter: Int32) throws
    func bind(_ value: Double, _ parameter: Int32) throws
    func bind(_ value: String, _ parameter: Int32) throws
    func bind(_ value: Data, _ parameter: Int32) throws
}

extension _RowReader {
    /// Decodes a value of a type the store knows natively (the fast path, resolved at compile time).
    @inlinable
    public func read<Value: _PersistentValue>(_ column: Int32) throws -> Value? {
        try Value._decode(from: self, column: column)
    }

    /// Decodes any other attribute type: `RawRepresentable` enums, `Codable` values and optionals of them.
    @inlinable
    public func read<Value>(_ column: Int32) throws -> Value? {
        try ValueCodec.decode(Value.self, from: self, column: column)
    }
}

extension _RowReader {
    /// Decodes a value into a property's storage. Generated code calls these: the storage's exact type picks the
    /// overload (an `inout` argument is never converted), so `Int?` storage takes the direct path below and
    /// `Int??` (an optional attribute) the generic one.
    @inlinable
    public func read<Value: _PersistentValue>(_ column: Int32, into storage: inout Value?) throws {
        storage = try Value._decode(from: self, column: column)
    }

    @inlinable
    public func read<Value>(_ column: Int32, into storage: inout Value?) throws {
        storage = try ValueCodec.decode(Value.self, from: self, column: column)
    }

    // Direct paths for the common types, with the same meaning as their `_decode`: no generic code, no type
    // metadata at run time.

    @inlinable
    public func read(_ column: Int32, into storage: inout Int?) throws { storage = Int(try integer(column)) }

    @inlinable
    public func read(_ column: Int32, into storage: inout Int64?) throws { storage = try integer(column) }

    @inlinable
    public func read(_ column: Int32, into storage: inout Bool?) throws { storage = try integer(column) != 0 }

    @inlinable
    public func read(_ column: Int32, into storage: inout Double?) throws { storage = try real(column) ?? .nan }

    @inlinable
    public func read(_ column: Int32, into storage: inout String?) throws { storage = try text(column) }

    @inlinable
    public func read(_ column: Int32, into storage: inout Data?) throws { storage = try blob(column) }

    @inlinable
    public func read(_ column: Int32, into storage: inout Date?) throws {
        storage = try Date._decode(from: self, column: column)
    }
}

extension _RowWriter {
    // Direct paths for the common types, with the same meaning as their `_encode`. A `nil` argument means the
    // property was never set. (Optional attributes have doubly optional storage, which only the generic
    // overloads accept.)

    @inlinable
    public func write(_ value: Int?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(Int64(value), parameter)
    }

    @inlinable
    public func write(_ value: Int64?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value, parameter)
    }

    @inlinable
    public func write(_ value: Bool?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value ? 1 as Int64 : 0, parameter)
    }

    @inlinable
    public func write(_ value: Double?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value, parameter)
    }

    @inlinable
    public func write(_ value: String?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value, parameter)
    }

    @inlinable
    public func write(_ value: Data?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value, parameter)
    }

    @inlinable
    public func write(_ value: Date?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try bind(value.timeIntervalSinceReferenceDate, parameter)
    }
}

extension _RowWriter {
    /// Encodes a value of a type the store knows natively. `nil` means the property was never set.
    @inlinable
    public func write<Value: _PersistentValue>(_ value: Value?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try value._encode(to: self, parameter: parameter)
    }

    /// Encodes any other attribute type. `nil` means the property was never set.
    @inlinable
    public func write<Value>(_ value: Value?, _ parameter: Int32, property: StaticString) throws {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try ValueCodec.encode(value, to: self, parameter: parameter)
    }
}
