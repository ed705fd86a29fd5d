import Foundation

/// Reads the columns of the current row of a store's result set (internal plumbing between a store and the code
/// `@Model` generates; not API). Column indexes are the store's, counted from 0.
///
/// Each read asks for a value of one meaning (a date, a UUID, ...); the store decides how it keeps such a value and
/// converts it back. A column that holds something that is not a value of that meaning (written by another program)
/// throws `corruptValue`, so a wrong value is never read silently.
public protocol _RowReader: AnyObject {
    /// Whether the column holds no value (`nil`).
    func isNull(_ column: Int32) -> Bool
    func bool(_ column: Int32) throws -> Bool
    func int64(_ column: Int32) throws -> Int64
    func uint64(_ column: Int32) throws -> UInt64
    /// A `Double`; a store that cannot keep NaN returns NaN for the value it keeps instead.
    func double(_ column: Int32) throws -> Double
    func decimal(_ column: Int32) throws -> Decimal
    func string(_ column: Int32) throws -> String
    func data(_ column: Int32) throws -> Data
    func date(_ column: Int32) throws -> Date
    func uuid(_ column: Int32) throws -> UUID
    func url(_ column: Int32) throws -> URL
    /// The JSON text of a `Codable` value.
    func json(_ column: Int32) throws -> String
    /// The key of the model a to-one relationship's column refers to, or `nil`.
    func relatedKey(_ column: Int32) throws -> Int64?
    /// The value of an attribute the store may keep outside its rows (`.externalStorage`): the data, or a reference
    /// Core reads it through later (`RowStore.readExternal`). Throws when the store finds the reference broken.
    func external(_ column: Int32) throws -> _ExternalValue
}

/// Binds values to the parameters of a store's statement (internal plumbing; not API). Parameter indexes are the
/// store's. Each value comes with its meaning; the store decides its physical form.
public protocol _RowWriter: AnyObject {
    func bindNull(_ parameter: Int32) throws
    func bind(_ value: Bool, _ parameter: Int32) throws
    func bind(_ value: Int64, _ parameter: Int32) throws
    func bind(_ value: UInt64, _ parameter: Int32) throws
    func bind(_ value: Double, _ parameter: Int32) throws
    func bind(_ value: Decimal, _ parameter: Int32) throws
    func bind(_ value: String, _ parameter: Int32) throws
    func bind(_ value: Data, _ parameter: Int32) throws
    func bind(_ value: Date, _ parameter: Int32) throws
    func bind(_ value: UUID, _ parameter: Int32) throws
    func bind(_ value: URL, _ parameter: Int32) throws
    /// Binds the JSON text of a `Codable` value.
    func bindJSON(_ text: String, _ parameter: Int32) throws
    /// Binds the data of an attribute the store may keep outside its rows (`.externalStorage`): the store keeps it
    /// apart (a file) and binds a reference, or binds the data itself.
    func bindExternal(_ data: Data, _ parameter: Int32) throws
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

    /// An optional to-one relationship's column, as `_$loadRow` reads it: the relationship is left not loaded, and
    /// the context resolves the key the column holds. (Written for models, whose storage's layout is known without
    /// looking its type up at run time, as a `_RelationshipValue` overload did for each row.) Always inlined: a call
    /// looked up the model's type metadata and witness table for an assignment of `nil` (about 40 instructions a row).
    @inlinable @inline(__always)
    public func read<Model: PersistentModel>(_ column: Int32, into storage: inout Model??) throws {
        storage = nil
    }

    /// A non-optional to-one relationship's column, as `_$loadRow` reads it (see above).
    @inlinable @inline(__always)
    public func read<Model: PersistentModel>(_ column: Int32, into storage: inout Model?) throws {
        storage = nil
    }

    // Direct paths for the common types, with the same meaning as their `_decode`: no generic code, no type
    // metadata at run time. Always inlined into the generated loaders, which then call the reader's method directly
    // instead of through a call of their own (and the merged thunk the compiler made of them).

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Int?) throws { storage = Int(try int64(column)) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Int64?) throws { storage = try int64(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Bool?) throws { storage = try bool(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Double?) throws { storage = try double(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout String?) throws { storage = try string(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Data?) throws { storage = try data(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, into storage: inout Date?) throws { storage = try date(column) }
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
        try bind(value, parameter)
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
        try bind(value, parameter)
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

extension _RowWriter {
    /// Binds a value that travelled apart from a model.
    package func bind(_ value: StoreValue, _ parameter: Int32) throws {
        switch value {
        case .null: try bindNull(parameter)
        case .bool(let value): try bind(value, parameter)
        case .int64(let value): try bind(value, parameter)
        case .uint64(let value): try bind(value, parameter)
        case .double(let value): try bind(value, parameter)
        case .decimal(let value): try bind(value, parameter)
        case .string(let value): try bind(value, parameter)
        case .data(let value): try bind(value, parameter)
        case .date(let value): try bind(value, parameter)
        case .uuid(let value): try bind(value, parameter)
        case .url(let value): try bind(value, parameter)
        case .json(let value): try bindJSON(value, parameter)
        }
    }
}

extension _RowReader {
    /// The column's value as a value of `type` (`null` when the column holds none).
    package func value(_ column: Int32, as type: StoreValueType) throws -> StoreValue {
        if isNull(column) { return .null }
        switch type {
        case .bool: return .bool(try bool(column))
        case .int64: return .int64(try int64(column))
        case .uint64: return .uint64(try uint64(column))
        case .double: return .double(try double(column))
        case .decimal: return .decimal(try decimal(column))
        case .string: return .string(try string(column))
        case .data: return .data(try data(column))
        case .date: return .date(try date(column))
        case .uuid: return .uuid(try uuid(column))
        case .url: return .url(try url(column))
        case .json: return .json(try json(column))
        }
    }

    /// Whether the column holds exactly `value` (the same bits for numbers), so that reading it again would not
    /// change a property that holds `value`.
    package func holds(_ value: StoreValue, _ column: Int32) -> Bool {
        guard let type = value.type else { return isNull(column) }
        // A store that keeps NaN as no value reads it back as NaN.
        let stored = type == .double ? (try? double(column)).map(StoreValue.double) : try? self.value(column, as: type)
        return stored?.isIdentical(to: value) ?? false
    }
}
