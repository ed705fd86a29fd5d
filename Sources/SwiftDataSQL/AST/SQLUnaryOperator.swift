/// A unary SQL operator.
package enum SQLUnaryOperator: Hashable, Sendable {
    case not
    /// Arithmetic negation.
    case negate
}
