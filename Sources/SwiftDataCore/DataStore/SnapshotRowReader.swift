import Foundation

/// Reads a snapshot as a store's row: column `i` holds property `properties[i]` of the snapshot's model (a to-one
/// relationship as the related model's key, which `key` gives). A value of another meaning than the one asked for
/// throws `corruptValue`, as a store's column would.
final class SnapshotRowReader: _RowReader {
    private var columns: [StoreValue] = []
    private let entity: Schema.Entity

    init(entity: Schema.Entity) {
        self.entity = entity
    }

    /// Makes `snapshot` the current row, with `first` columns before its properties (holding nothing).
    func load(
        _ snapshot: DefaultSnapshot, properties: [Int], first: Int, key: (PersistentIdentifier) -> Int64
    ) {
        columns = Array(repeating: .null, count: first)
        columns.reserveCapacity(first + properties.count)
        for property in properties {
            guard let name = entity.attribute(at: property)?.name ?? entity.relationship(at: property)?.name else {
                columns.append(.null)
                continue
            }
            switch snapshot.values[name] {
            case .attribute(let value)?: columns.append(value)
            case .toOne(let identifier?)?: columns.append(.int64(key(identifier)))
            default: columns.append(.null)
            }
        }
    }

    /// Makes `values` the current row, column `i` holding `values[i]`.
    func load(_ values: [StoreValue]) {
        columns = values
    }

    private func value(_ column: Int32) -> StoreValue {
        columns.indices.contains(Int(column)) ? columns[Int(column)] : .null
    }

    private func mismatch(_ column: Int32, _ expected: String) -> SwiftDataError {
        .corruptValue("a snapshot holds \(value(column)) where \(expected) is expected")
    }

    func isNull(_ column: Int32) -> Bool { value(column) == .null }

    func bool(_ column: Int32) throws -> Bool {
        guard case .bool(let value) = value(column) else { throw mismatch(column, "a Bool") }
        return value
    }

    func int64(_ column: Int32) throws -> Int64 {
        switch value(column) {
        case .int64(let value): return value
        case .uint64(let value): return Int64(bitPattern: value)
        default: throw mismatch(column, "an integer")
        }
    }

    func uint64(_ column: Int32) throws -> UInt64 {
        switch value(column) {
        case .uint64(let value): return value
        case .int64(let value): return UInt64(bitPattern: value)
        default: throw mismatch(column, "an unsigned integer")
        }
    }

    func double(_ column: Int32) throws -> Double {
        switch value(column) {
        case .double(let value): return value
        case .int64(let value): return Double(value)
        default: throw mismatch(column, "a number")
        }
    }

    func decimal(_ column: Int32) throws -> Decimal {
        guard case .decimal(let value) = value(column) else { throw mismatch(column, "a Decimal") }
        return value
    }

    func string(_ column: Int32) throws -> String {
        guard case .string(let value) = value(column) else { throw mismatch(column, "a String") }
        return value
    }

    func data(_ column: Int32) throws -> Data {
        guard case .data(let value) = value(column) else { throw mismatch(column, "Data") }
        return value
    }

    func date(_ column: Int32) throws -> Date {
        guard case .date(let value) = value(column) else { throw mismatch(column, "a Date") }
        return value
    }

    func uuid(_ column: Int32) throws -> UUID {
        guard case .uuid(let value) = value(column) else { throw mismatch(column, "a UUID") }
        return value
    }

    func url(_ column: Int32) throws -> URL {
        guard case .url(let value) = value(column) else { throw mismatch(column, "a URL") }
        return value
    }

    func json(_ column: Int32) throws -> String {
        guard case .json(let value) = value(column) else { throw mismatch(column, "JSON") }
        return value
    }

    func relatedKey(_ column: Int32) throws -> Int64? {
        isNull(column) ? nil : try int64(column)
    }

    /// A snapshot keeps every value in itself.
    func external(_ column: Int32) throws -> _ExternalValue {
        isNull(column) ? .data(nil) : .data(try data(column))
    }
}
