import SwiftDataCore

/// The differences between SQL databases that SQL generation has to know.
package protocol SQLDialect {
    /// Quotes an identifier (a table or column name).
    func quote(_ identifier: String) -> String
    /// The placeholder of the parameter with the given 1-based index.
    func placeholder(_ index: Int) -> String
    /// The collation that orders values as the given Swift comparison does, `""` when the dialect's default
    /// already does, or `nil` when the dialect cannot.
    func collation(for comparison: ValueComparison) -> String?
}

/// How values are compared, in Swift's terms.
package enum ValueComparison: Hashable, Sendable {
    /// `Decimal`'s `<` on values stored as decimal text.
    case decimal
    /// `String.StandardComparator.lexical`.
    case lexical
}

/// SQL text with its parameters in order.
package struct SQLStatement: Equatable {
    package var sql: String
    package var parameters: [StoredValue]

    package init(sql: String = "", parameters: [StoredValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

extension SQLDialect {
    /// Renders an expression, appending its parameters.
    package func render(_ expression: SQLExpression, into statement: inout SQLStatement) {
        switch expression {
        case .column(let name):
            statement.sql += quote(name)
        case .value(let value):
            statement.parameters.append(value)
            statement.sql += placeholder(statement.parameters.count)
        case .keyword(let keyword):
            statement.sql += keyword
        case .prefix(let op, let operand):
            statement.sql += "\(op) ("
            render(operand, into: &statement)
            statement.sql += ")"
        case .infix(let lhs, let op, let rhs):
            statement.sql += "("
            render(lhs, into: &statement)
            statement.sql += " \(op) "
            render(rhs, into: &statement)
            statement.sql += ")"
        case .collate(let operand, let collation):
            render(operand, into: &statement)
            statement.sql += " COLLATE \(collation)"
        case .function(let name, let arguments):
            statement.sql += name
            render(.list(arguments), into: &statement)
        case .list(let elements):
            statement.sql += "("
            for (index, element) in elements.enumerated() {
                if index > 0 { statement.sql += ", " }
                render(element, into: &statement)
            }
            statement.sql += ")"
        }
    }

    /// Renders `ORDER BY` terms (without the keywords).
    package func render(_ orderings: [SQLOrdering], into statement: inout SQLStatement) {
        for (index, ordering) in orderings.enumerated() {
            if index > 0 { statement.sql += ", " }
            render(ordering.expression, into: &statement)
            if ordering.descending { statement.sql += " DESC" }
        }
    }
}
