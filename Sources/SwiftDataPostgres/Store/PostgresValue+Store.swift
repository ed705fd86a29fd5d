import Foundation
import SwiftDataCore
import SwiftDataSQL

extension PostgresValue {
    /// A value as the PostgreSQL store keeps it (see `PostgreSQLDialect`): `UInt64` as its bit pattern, NaN as
    /// `NULL`, `Decimal.nan` as `-Infinity`, a `Date` as its seconds since 2001, a URL as its absolute string.
    init(storing value: StoreValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int64(let value): self = .int8(value)
        case .uint64(let value): self = .int8(Int64(bitPattern: value))
        case .double(let value): self = value.isNaN ? .null : .float8(value)
        case .decimal(let value): self = value.isNaN ? .numericText("-Infinity") : .numeric(value)
        case .string(let value): self = .text(value)
        case .data(let value): self = .bytea(value)
        case .date(let value): self = .float8(value.timeIntervalSinceReferenceDate)
        case .uuid(let value): self = .uuid(value)
        case .url(let value): self = .text(value.absoluteString)
        case .json(let value): self = .jsonb(value)
        }
    }
}

extension PostgresType {
    /// The type of parameters of an SQL type (see `PostgreSQLDialect.typeName`).
    init(_ type: SQLType) {
        switch type {
        case .boolean: self = .bool
        case .integer: self = .int8
        case .real, .date: self = .float8
        case .decimal: self = .numeric
        case .text: self = .text
        case .blob: self = .bytea
        case .uuid: self = .uuid
        case .json: self = .jsonb
        }
    }

    /// The type of the column that keeps values of a meaning.
    init(storing type: StoreValueType) { self.init(SQLType(storing: type)) }

    /// The SQL name of the type, for column definitions and casts.
    var sqlName: String {
        switch self {
        case .bool: "boolean"
        case .int8: "bigint"
        case .float8: "double precision"
        case .numeric: "numeric"
        case .bytea: "bytea"
        case .uuid: "uuid"
        case .jsonb: "jsonb"
        default: "text"
        }
    }
}

extension Schema.Attribute {
    /// The PostgreSQL type of the attribute's column: an externally stored value's column holds a reference.
    var postgresType: PostgresType {
        if isExternal { return .text }
        return PostgresType(storing: layout?.valueType ?? .data)
    }
}
