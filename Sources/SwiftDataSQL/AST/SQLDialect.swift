import SwiftDataCore

/// The differences between SQL databases that SQL generation has to know. A dialect names the collations and
/// functions that give SQL Swift's semantics; `nil` means the database has none, and the translator then
/// leaves that part of a predicate or sort to be evaluated in memory.
package protocol SQLDialect {
    /// Quotes an identifier (a table or column name).
    func quote(_ identifier: String) -> String
    /// The placeholder of the parameter with the given 1-based index.
    func placeholder(_ index: Int) -> String
    /// The collation that compares values as the given Swift comparison does, `""` when the dialect's default
    /// already does, or `nil` when the dialect cannot. An index serves a comparison only when it was created
    /// with the same collation.
    func collation(for comparison: ValueComparison) -> String?
    /// The name of the function that computes `function`, or `nil` when the dialect has none.
    func name(of function: SQLFunction) -> String?
}

/// How values are compared, in Swift's terms.
package enum ValueComparison: Hashable, Sendable, CaseIterable {
    /// `String`'s `==` and `<` (Unicode canonical equivalence, then scalar order).
    case string
    /// `Decimal`'s `<` on values stored as decimal text.
    case decimal
    /// `String.StandardComparator.lexical`.
    case lexical
    /// `localizedStandardCompare`: how model sort descriptors with the `.localizedStandard` comparator order.
    case localizedStandard
    /// `localizedCompare`: how model sort descriptors with the `.localized` comparator order.
    case localized
}

/// Functions a predicate's SQL needs beyond standard SQL, each with Swift's semantics. Functions that stand for
/// a Swift trap raise an SQL error whose message starts with `SQLFunction.errorPrefix`.
package enum SQLFunction: String, Hashable, Sendable, CaseIterable {
    /// `(x, min, max)`: `x`, or an error when integer arithmetic overflowed (SQLite turns such results into
    /// floating point) or left `min...max`.
    case checkedInteger
    /// `(a, b, min, max)`: `a / b` truncated as Swift does; an error for a zero divisor or an overflow.
    case integerDivide
    /// `(a, b, min, max)`: `a % b` with the dividend's sign; an error for a zero divisor or `min % -1`.
    case integerRemainder
    /// `(a, b)`: `a / b` in IEEE arithmetic: infinities for a zero divisor, NaN as `NULL`.
    case realDivide
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
    /// `(document, path)`: the SQL value at a JSON path, `NULL` when absent.
    case jsonExtract
    /// `(document)`: the number of elements of a JSON array.
    case jsonArrayLength
    /// A table-valued function over a JSON array's elements, with a `value` column.
    case jsonEach

    /// The start of the message of an SQL error raised by a function that stands for a Swift trap.
    package static let errorPrefix = "swiftdata:"
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
        case .qualifiedColumn(let table, let column):
            statement.sql += quote(table) + "." + quote(column)
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
        case .cases(let branches, let otherwise):
            statement.sql += "CASE"
            for branch in branches {
                statement.sql += " WHEN "
                render(branch.condition, into: &statement)
                statement.sql += " THEN "
                render(branch.result, into: &statement)
            }
            statement.sql += " ELSE "
            render(otherwise, into: &statement)
            statement.sql += " END"
        case .table(let name):
            statement.sql += quote(name)
        case .subquery(let subquery):
            statement.sql += "("
            render(subquery, into: &statement)
            statement.sql += ")"
        case .exists(let subquery):
            statement.sql += "EXISTS ("
            var selectsOne = subquery
            selectsOne.result = .true
            render(selectsOne, into: &statement)
            statement.sql += ")"
        }
    }

    /// Renders a subquery's `SELECT` (without parentheses).
    package func render(_ subquery: SQLSubquery, into statement: inout SQLStatement) {
        statement.sql += "SELECT "
        render(subquery.result, into: &statement)
        for (index, source) in subquery.sources.enumerated() {
            statement.sql += index == 0 ? " FROM " : " JOIN "
            render(source.source, into: &statement)
            statement.sql += " AS \(quote(source.alias))"
            if let join = source.on {
                statement.sql += " ON "
                render(join, into: &statement)
            }
        }
        if let condition = subquery.condition {
            statement.sql += " WHERE "
            render(condition, into: &statement)
        }
        if !subquery.orderings.isEmpty {
            statement.sql += " ORDER BY "
            render(subquery.orderings, into: &statement)
        }
        if let limit = subquery.limit { statement.sql += " LIMIT \(limit)" }
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
