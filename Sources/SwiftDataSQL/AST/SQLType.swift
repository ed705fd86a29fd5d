import SwiftDataCore

/// The SQL type of a value, by meaning: what a column of an attribute of that Swift type holds. Each store picks the
/// physical type (SQLite: `INTEGER`, `REAL`, `TEXT`, `BLOB`; see `PostgreSQLDialect` for PostgreSQL's).
package enum SQLType: Hashable, Sendable {
    /// `Bool`.
    case boolean
    /// Integers of every width, keys, and `UInt64` as its bit pattern.
    case integer
    /// `Double` and `Float`.
    case real
    /// `Decimal`.
    case decimal
    /// `String` and `URL`.
    case text
    /// `Data`.
    case blob
    /// `Date`.
    case date
    /// `UUID`.
    case uuid
    /// A `Codable` value or an array, as JSON.
    case json

    /// The type of the values of a kind, or `nil` for kinds that have no single SQL type.
    package init?(_ kind: SQLValueKind) {
        switch kind {
        case .bool: self = .boolean
        case .integer, .unsigned64, .model: self = .integer
        case .double, .float: self = .real
        case .decimal: self = .decimal
        case .string, .url: self = .text
        case .date: self = .date
        case .uuid: self = .uuid
        case .data: self = .blob
        case .json: self = .json
        case .rawValue(let inner): self.init(inner)
        case .unknown: return nil
        }
    }
}

extension SQLType {
    /// The type of values stored as `type`.
    package init(storing type: StoreValueType) {
        switch type {
        case .bool: self = .boolean
        case .int64, .uint64: self = .integer
        case .double: self = .real
        case .date: self = .date
        case .decimal: self = .decimal
        case .string, .url: self = .text
        case .data: self = .blob
        case .uuid: self = .uuid
        case .json: self = .json
        }
    }

    /// The type of an attribute's column: a reference to an externally stored value is text.
    package init(column attribute: Schema.Attribute) {
        self = attribute.isExternal ? .text : SQLType(storing: attribute.layout?.valueType ?? .data)
    }
}
