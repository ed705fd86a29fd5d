/// A binary SQL operator, by meaning; the dialect writes it.
package enum SQLBinaryOperator: Hashable, Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    /// Null-safe equality, two-valued: `NULL` equals `NULL` and differs from every value (SQLite's `IS`, standard
    /// SQL's `IS NOT DISTINCT FROM`).
    case identical
    /// Null-safe inequality (SQLite's `IS NOT`, standard SQL's `IS DISTINCT FROM`).
    case notIdentical
    case and, or
    /// Plain arithmetic, for steps that cannot overflow; arithmetic with Swift's semantics is an `SQLFunction`.
    case add, subtract, multiply

    /// Whether the operator compares its operands (and so may compare them with a collation).
    package var isComparison: Bool {
        switch self {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .identical, .notIdentical: true
        case .and, .or, .add, .subtract, .multiply: false
        }
    }
}
