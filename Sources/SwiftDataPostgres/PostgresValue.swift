import Foundation

/// A value sent to PostgreSQL as a statement parameter, in the semantic form the store gives it.
///
/// Each case is sent in the form the server reads fastest and exactly: binary for every type but `numeric`, which
/// travels as its decimal text (PostgreSQL's binary numeric is base 10,000 and gains nothing over text for values
/// that come from a `Decimal`). Text and JSON sent in binary form are checked by the server, so a string with a
/// NUL character is refused instead of being cut short.
package enum PostgresValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int8(Int64)
    case float8(Double)
    case text(String)
    case bytea(Data)
    case numeric(Decimal)
    /// A `numeric` given by its text, for values `Decimal` cannot hold (`-Infinity`).
    case numericText(String)
    case uuid(UUID)
    /// A point in time, kept to the microsecond (PostgreSQL's resolution); finer fractions are rounded.
    case timestamptz(Date)
    /// A JSON document, as text.
    case jsonb(String)
    /// A one-dimensional `bigint[]` without `NULL`s, such as a list of keys for `= ANY($1)`.
    case int8Array([Int64])

    /// The type the parameter is declared as.
    package var type: PostgresType {
        switch self {
        case .null: .unspecified
        case .bool: .bool
        case .int8: .int8
        case .float8: .float8
        case .text: .text
        case .bytea: .bytea
        case .numeric, .numericText: .numeric
        case .uuid: .uuid
        case .timestamptz: .timestamptz
        case .jsonb: .jsonb
        case .int8Array: .int8Array
        }
    }

    /// The form the parameter travels in.
    package var format: PostgresFormat {
        switch self {
        case .numeric, .numericText: .text
        default: .binary
        }
    }
}
