/// A PostgreSQL data type, named by its object identifier (`pg_type.oid`), as libpq reports a result column's type
/// and as a parameter's type is declared.
package struct PostgresType: Hashable, Sendable, CustomStringConvertible {
    /// The type's object identifier.
    package let oid: UInt32

    package init(oid: UInt32) { self.oid = oid }

    /// No declared type: the server infers it from the statement (only for parameters sent as text).
    package static let unspecified = PostgresType(oid: 0)
    package static let bool = PostgresType(oid: 16)
    package static let bytea = PostgresType(oid: 17)
    package static let name = PostgresType(oid: 19)
    package static let int8 = PostgresType(oid: 20)
    package static let int2 = PostgresType(oid: 21)
    package static let int4 = PostgresType(oid: 23)
    package static let text = PostgresType(oid: 25)
    package static let oidType = PostgresType(oid: 26)
    package static let json = PostgresType(oid: 114)
    package static let float4 = PostgresType(oid: 700)
    package static let float8 = PostgresType(oid: 701)
    package static let unknown = PostgresType(oid: 705)
    package static let bpchar = PostgresType(oid: 1042)
    package static let varchar = PostgresType(oid: 1043)
    package static let date = PostgresType(oid: 1082)
    package static let timestamp = PostgresType(oid: 1114)
    package static let timestamptz = PostgresType(oid: 1184)
    package static let numeric = PostgresType(oid: 1700)
    package static let uuid = PostgresType(oid: 2950)
    package static let jsonb = PostgresType(oid: 3802)
    package static let int8Array = PostgresType(oid: 1016)

    /// Types whose binary form is their UTF-8 text.
    var isText: Bool { self == .text || self == .varchar || self == .bpchar || self == .name || self == .unknown }

    package var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .bool: "bool"
        case .bytea: "bytea"
        case .name: "name"
        case .int8: "int8"
        case .int2: "int2"
        case .int4: "int4"
        case .text: "text"
        case .oidType: "oid"
        case .json: "json"
        case .float4: "float4"
        case .float8: "float8"
        case .unknown: "unknown"
        case .bpchar: "char"
        case .varchar: "varchar"
        case .date: "date"
        case .timestamp: "timestamp"
        case .timestamptz: "timestamptz"
        case .numeric: "numeric"
        case .uuid: "uuid"
        case .jsonb: "jsonb"
        case .int8Array: "int8[]"
        default: "type \(oid)"
        }
    }
}

/// How values travel between client and server: PostgreSQL's text form, or each type's binary form.
package enum PostgresFormat: Int32, Sendable {
    case text = 0
    case binary = 1
}
