import Foundation

/// Reads into a property's plain (not optional) storage: `@Model` keeps persisted properties of fixed-size types
/// that way, with whether they hold a value in the model's state (see `_PersistentState._isLoaded(_:)`), and calls
/// these. The storage's exact type picks the overload, as for optional storage.
extension _RowReader {
    /// Decodes a value of a type the store knows natively.
    @inlinable
    public func read<Value: _PersistentValue>(_ column: Int32, intoPlain storage: inout Value) throws {
        storage = try Value._decode(from: self, column: column)
    }

    // Direct paths for the common types, with the same meaning as their `_decode`: no generic code, no type
    // metadata at run time.

    @inlinable @inline(__always)
    public func read(_ column: Int32, intoPlain storage: inout Int) throws { storage = Int(try int64(column)) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, intoPlain storage: inout Int64) throws { storage = try int64(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, intoPlain storage: inout Bool) throws { storage = try bool(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, intoPlain storage: inout Double) throws { storage = try double(column) }

    @inlinable @inline(__always)
    public func read(_ column: Int32, intoPlain storage: inout Date) throws { storage = try date(column) }
}
