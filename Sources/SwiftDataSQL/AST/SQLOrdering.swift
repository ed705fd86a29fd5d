/// One `ORDER BY` term.
package struct SQLOrdering: Equatable, Sendable {
    package var expression: SQLExpression
    package var descending: Bool
    /// Whether the expression can be `NULL` (a `nil` value, or no related model on the way). `NULL` then orders
    /// before every value in ascending order and after them in descending order, as `nil` does in Swift's sorts;
    /// each dialect writes that explicitly where its default differs.
    package var isNullable: Bool

    package init(_ expression: SQLExpression, descending: Bool, isNullable: Bool = false) {
        self.expression = expression
        self.descending = descending
        self.isNullable = isNullable
    }
}
