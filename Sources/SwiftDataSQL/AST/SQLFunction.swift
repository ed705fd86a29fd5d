/// Computations a predicate's SQL needs with Swift's semantics, beyond what every SQL database does alike. Each
/// dialect writes them as its database can, or reports that it cannot. Those that stand for a Swift trap raise an
/// SQL error whose message starts with `SQLFunction.errorPrefix`.
package enum SQLFunction: Hashable, Sendable, CaseIterable {
    /// `(a, b, min, max)`: integer `a + b`, or an error when it overflows or leaves `min...max`.
    case checkedAdd
    /// `(a, b, min, max)`: integer `a - b`, or an error when it overflows or leaves `min...max`.
    case checkedSubtract
    /// `(a, b, min, max)`: integer `a * b`, or an error when it overflows or leaves `min...max`.
    case checkedMultiply
    /// `(x, min, max)`: integer `-x`, or an error when it leaves `min...max`.
    case checkedNegate
    /// `(a, b, min, max)`: `a / b` truncated as Swift does; an error for a zero divisor or an overflow.
    case integerDivide
    /// `(a, b, min, max)`: `a % b` with the dividend's sign; an error for a zero divisor or `min % -1`.
    case integerRemainder
    /// `(a, b)`: `Double` `a + b` in IEEE arithmetic (overflow to infinities), NaN as `NULL`.
    case realAdd
    /// `(a, b)`: `Double` `a - b` in IEEE arithmetic, NaN as `NULL`.
    case realSubtract
    /// `(a, b)`: `Double` `a * b` in IEEE arithmetic, NaN as `NULL`.
    case realMultiply
    /// `(a, b)`: `Double` `a / b` in IEEE arithmetic: infinities for a zero divisor, NaN as `NULL`.
    case realDivide
    /// `(x)`: `Double` `-x`, keeping the sign of zero.
    case realNegate
    /// `(x)`: `x`, or an error when it is `NULL` (a force unwrap of `nil`).
    case unwrap
    /// `(message)`: always an error; stands for a Swift trap (a range whose bounds are out of order).
    case fail
    /// `(a, b)`: `Collection.contains(_:)` on `String`s, by `Character`.
    case contains
    /// `(a, b)`: `Sequence.starts(with:)` on `String`s, by `Character`.
    case startsWith
    /// `(a, b)`: `localizedStandardContains(_:)`.
    case localizedStandardContains
    /// `(a, b)`: the raw value of `caseInsensitiveCompare(_:)`'s `ComparisonResult`.
    case caseInsensitiveCompare
    /// `(a, b)`: the raw value of `localizedCompare(_:)`'s `ComparisonResult`.
    case localizedCompare

    /// The start of the message of an SQL error raised by a function that stands for a Swift trap.
    package static let errorPrefix = "swiftdata:"
}
