import Foundation
import SwiftDataCore

/// A value as SQLite keeps it: one of its five storage classes. The store reads its own tables (metadata, keys,
/// migrations) this way; model values cross into Core by meaning (see `SQLiteStatement`).
package enum SQLiteValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    package var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

/// SQLite's storage classes, as the store records them for each attribute in its schema description.
package enum StorageClass: String, Codable, Sendable {
    case integer, real, text, blob

    /// The storage class of a layout: how this store keeps values of each meaning. `Bool` and unsigned 64-bit
    /// integers (as their bit pattern) are integers; a `Date` is a REAL of seconds since 2001 (exact); a `Decimal`
    /// is its exact text; a UUID its 16 bytes; a URL its absolute string; JSON text.
    package init(_ layout: ValueCodec.Layout) {
        switch layout.valueType {
        case .bool, .int64, .uint64: self = .integer
        case .double, .date: self = .real
        case .decimal, .string, .url, .json: self = .text
        case .data, .uuid: self = .blob
        }
    }
}
