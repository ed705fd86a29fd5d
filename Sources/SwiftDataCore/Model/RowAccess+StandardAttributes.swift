import Foundation

// Reads and writes of attributes of the standard types `@Model` recognises by their spelling (`String`, `Int`,
// `Date`, ... and their optionals; see `_PersistentValue`), each under a name of its own: the overloads of
// `read(_:into:)` and `write(_:_:property:)`, which serve every other type, cost the compiler more than the rest of
// the generated functions. Always inlined, each is specialized to the reader's or writer's method for the type in
// optimized builds, as the overloads' direct paths are.

extension _RowReader {
    /// The value of column `column` as an `Int` (internal plumbing for `@Model`; not API): `int64(_:)` converted
    /// here, so that generated code calls no overloaded initializer.
    @inlinable @inline(__always)
    public func int(_ column: Int32) throws -> Int { Int(truncatingIfNeeded: try int64(column)) }

    /// Decodes the value of column `column + offset` into a property's optional storage (internal plumbing for
    /// `@Model`; not API). The offset spares generated code an addition, whose operator has many overloads.
    @inlinable @inline(__always)
    public func readValue<Value: _PersistentValue>(
        _ column: Int32, offset: Int32 = 0, into storage: inout Value?
    ) throws {
        storage = try Value._decode(from: self, column: column &+ offset)
    }

    /// Decodes the value of column `column + offset` into a property's plain (not optional) storage (internal
    /// plumbing for `@Model`; not API): `@Model` keeps persisted properties of fixed-size types that way, with
    /// whether they hold a value in the model's state (see `_PersistentState._isLoaded(_:)`).
    @inlinable @inline(__always)
    public func read<Value: _PersistentValue>(
        _ column: Int32, offset: Int32 = 0, intoPlain storage: inout Value
    ) throws {
        storage = try Value._decode(from: self, column: column &+ offset)
    }
}

extension _RowWriter {
    /// Encodes the value of a property's optional storage; `nil` means the property was never set (internal
    /// plumbing for `@Model`; not API).
    @inlinable @inline(__always)
    public func writeValue<Value: _PersistentValue>(_ value: Value?, _ parameter: Int32, property: StaticString) throws
    {
        guard let value else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try value._encode(to: self, parameter: parameter)
    }

    /// Encodes the value of a property's plain storage, which holds one when `loaded` (internal plumbing for
    /// `@Model`; not API).
    @inlinable @inline(__always)
    public func writePlain<Value: _PersistentValue>(
        _ value: Value, loaded: Bool, _ parameter: Int32, property: StaticString
    ) throws {
        guard loaded else { throw SwiftDataError.unsetProperty(String(describing: property)) }
        try value._encode(to: self, parameter: parameter)
    }
}
