import SwiftDataCore

/// A dialect-neutral SQL expression. Values are never spliced into SQL text: they render as parameters.
package indirect enum SQLExpression: Equatable, Sendable {
    /// A column of the fetched entity's table.
    case column(String)
    /// A column of a named table or table alias: `table.column`.
    case qualifiedColumn(table: String, column: String)
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
    /// `CASE WHEN c1 THEN v1 ... ELSE otherwise END`; SQL evaluates only the branch it takes.
    case cases([SQLBranch], otherwise: SQLExpression)
    /// A table, by name.
    case table(String)
    /// `(SELECT ...)`: a scalar subquery, `NULL` when it selects no row.
    case subquery(SQLSubquery)
    /// `EXISTS (SELECT 1 ...)`: whether the subquery selects a row (its result is ignored).
    case exists(SQLSubquery)

    package static func and(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .infix(lhs, "AND", rhs) }
    package static func or(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .infix(lhs, "OR", rhs) }
    package static func not(_ operand: SQLExpression) -> SQLExpression { .prefix("NOT", operand) }
    package static let `true` = SQLExpression.keyword("1")
    package static let `false` = SQLExpression.keyword("0")
    package static let null = SQLExpression.keyword("NULL")

    /// `CASE WHEN condition THEN then ELSE otherwise END`.
    package static func when(
        _ condition: SQLExpression, then: SQLExpression, else otherwise: SQLExpression
    )
        -> SQLExpression
    {
        .cases([SQLBranch(condition, then)], otherwise: otherwise)
    }

    /// This expression with every column of the fetched table qualified by `table`, for use inside a subquery
    /// whose own columns could otherwise hide them.
    package func qualifyingColumns(with table: String) -> SQLExpression {
        switch self {
        case .column(let name): .qualifiedColumn(table: table, column: name)
        case .qualifiedColumn, .value, .keyword, .table: self
        case .prefix(let op, let operand): .prefix(op, operand.qualifyingColumns(with: table))
        case .infix(let lhs, let op, let rhs):
            .infix(lhs.qualifyingColumns(with: table), op, rhs.qualifyingColumns(with: table))
        case .collate(let operand, let name): .collate(operand.qualifyingColumns(with: table), name)
        case .function(let name, let arguments): .function(name, arguments.map { $0.qualifyingColumns(with: table) })
        case .list(let elements): .list(elements.map { $0.qualifyingColumns(with: table) })
        case .cases(let branches, let otherwise):
            .cases(
                branches.map {
                    SQLBranch($0.condition.qualifyingColumns(with: table), $0.result.qualifyingColumns(with: table))
                }, otherwise: otherwise.qualifyingColumns(with: table))
        case .subquery(let subquery): .subquery(subquery.qualifyingColumns(with: table))
        case .exists(let subquery): .exists(subquery.qualifyingColumns(with: table))
        }
    }
}

/// One `WHEN condition THEN result` of a `CASE` expression.
package struct SQLBranch: Equatable, Sendable {
    package var condition: SQLExpression
    package var result: SQLExpression

    package init(_ condition: SQLExpression, _ result: SQLExpression) {
        self.condition = condition
        self.result = result
    }
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
