import SwiftDataCore

/// A dialect-neutral SQL expression. Values are never spliced into SQL text: they render as parameters.
package indirect enum SQLExpression: Equatable, Sendable {
    /// A column of the fetched entity's table.
    case column(String)
    /// A bound value.
    case value(StoredValue)
    /// A keyword or constant the dialect renders as is (`NULL`, `1`).
    case keyword(String)
    case prefix(String, SQLExpression)
    case infix(SQLExpression, String, SQLExpression)
    /// `expression COLLATE name`.
    case collate(SQLExpression, String)
    case function(String, [SQLExpression])
    /// A parenthesized, comma-separated list, as the right side of `IN`.
    case list([SQLExpression])

    package static func and(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .infix(lhs, "AND", rhs) }
    package static func or(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .infix(lhs, "OR", rhs) }
    package static func not(_ operand: SQLExpression) -> SQLExpression { .prefix("NOT", operand) }
    package static let `true` = SQLExpression.keyword("1")
    package static let `false` = SQLExpression.keyword("0")
}

/// One `ORDER BY` term.
package struct SQLOrdering: Equatable, Sendable {
    package var expression: SQLExpression
    package var descending: Bool

    package init(_ expression: SQLExpression, descending: Bool) {
        self.expression = expression
        self.descending = descending
    }
}
