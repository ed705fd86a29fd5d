import SwiftDataCore

/// A dialect-neutral SQL expression. Where databases differ (booleans, null-safe equality, collations, JSON,
/// functions), a node says what it means and the dialect decides how it is written (see `SQLGenerator`). Values are
/// never spliced into SQL text: they render as parameters.
package indirect enum SQLExpression: Equatable, Sendable {
    /// A column of the fetched entity's table.
    case column(String)
    /// A column of a named table or table alias: `table.column`.
    case qualifiedColumn(table: String, column: String)
    /// A bound value.
    case value(SQLBinding)
    /// `NULL`.
    case null
    /// A Boolean constant: `TRUE`/`FALSE`, or `1`/`0` where conditions are integers.
    case boolean(Bool)
    /// An integer constant that the translator writes (never a value of the predicate, which is bound).
    case integer(Int64)
    /// `operator operand`.
    case unary(SQLUnaryOperator, SQLExpression)
    /// `lhs operator rhs`.
    case binary(SQLExpression, SQLBinaryOperator, SQLExpression)
    /// `operand IN (elements...)`.
    case inList(SQLExpression, [SQLExpression])
    /// `operand IN (SELECT ...)`: whether the subquery selects the operand's value.
    case inSubquery(SQLExpression, SQLSubquery)
    /// The operand as a key that SQL compares and orders as the Swift comparison does.
    case collate(SQLExpression, ValueComparison)
    /// `coalesce(arguments...)`: the first argument that is not `NULL`.
    case coalesce([SQLExpression])
    /// `count(*)`.
    case countRows
    /// A computation with Swift's semantics, which each dialect writes in its own way (or cannot; see
    /// `SQLDialect.reasonUnsupported(_:)`).
    case call(SQLFunction, [SQLExpression])
    /// The value at `path` (keys, outermost first) in a JSON document, as a value of `type`: `.text`, `.integer` and
    /// `.boolean` for scalars, `.json` for a nested document. `NULL` when absent or JSON `null`.
    case jsonValue(document: SQLExpression, path: [String], type: SQLType)
    /// The number of elements of the JSON array at `path` in a document.
    case jsonArrayLength(document: SQLExpression, path: [String])
    /// The elements of the JSON array at `path` in a document, as a table to select from (see `jsonElement`).
    case jsonArrayElements(document: SQLExpression, path: [String])
    /// The value of an element of `jsonArrayElements` under the source alias `alias`, as a value of `type`.
    case jsonElement(alias: String, type: SQLType)
    /// `CASE WHEN c1 THEN v1 ... ELSE otherwise END`; SQL evaluates only the branch it takes.
    case cases([SQLBranch], otherwise: SQLExpression)
    /// A table, by name.
    case table(String)
    /// `(SELECT ...)`: a scalar subquery, `NULL` when it selects no row.
    case subquery(SQLSubquery)
    /// `EXISTS (SELECT ...)`: whether the subquery selects a row (its result is ignored).
    case exists(SQLSubquery)
    /// Whether a `.search` index (`index`, its name) finds `needle`, a text folded by `SearchText.folded`, in
    /// `column`'s folded text: a superset of the rows whose column contains it (see `SQLDialect.renderSearch`).
    /// `key` is the row's key column.
    case search(key: SQLExpression, column: SQLExpression, index: String, needle: String)

    package static func and(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .binary(lhs, .and, rhs) }
    package static func or(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .binary(lhs, .or, rhs) }
    package static func not(_ operand: SQLExpression) -> SQLExpression { .unary(.not, operand) }
    package static let `true` = SQLExpression.boolean(true)
    package static let `false` = SQLExpression.boolean(false)

    /// A bound value of the given SQL type.
    package static func bind(_ value: StoreValue, _ type: SQLType) -> SQLExpression {
        .value(SQLBinding(value, type))
    }

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
        case .qualifiedColumn, .value, .null, .boolean, .integer, .countRows, .jsonElement, .table: self
        case .unary(let op, let operand): .unary(op, operand.qualifyingColumns(with: table))
        case .binary(let lhs, let op, let rhs):
            .binary(lhs.qualifyingColumns(with: table), op, rhs.qualifyingColumns(with: table))
        case .inList(let operand, let elements):
            .inList(operand.qualifyingColumns(with: table), elements.map { $0.qualifyingColumns(with: table) })
        case .inSubquery(let operand, let subquery):
            .inSubquery(operand.qualifyingColumns(with: table), subquery.qualifyingColumns(with: table))
        case .collate(let operand, let comparison): .collate(operand.qualifyingColumns(with: table), comparison)
        case .coalesce(let arguments): .coalesce(arguments.map { $0.qualifyingColumns(with: table) })
        case .call(let function, let arguments): .call(function, arguments.map { $0.qualifyingColumns(with: table) })
        case .jsonValue(let document, let path, let type):
            .jsonValue(document: document.qualifyingColumns(with: table), path: path, type: type)
        case .jsonArrayLength(let document, let path):
            .jsonArrayLength(document: document.qualifyingColumns(with: table), path: path)
        case .jsonArrayElements(let document, let path):
            .jsonArrayElements(document: document.qualifyingColumns(with: table), path: path)
        case .cases(let branches, let otherwise):
            .cases(
                branches.map {
                    SQLBranch($0.condition.qualifyingColumns(with: table), $0.result.qualifyingColumns(with: table))
                }, otherwise: otherwise.qualifyingColumns(with: table))
        case .subquery(let subquery): .subquery(subquery.qualifyingColumns(with: table))
        case .exists(let subquery): .exists(subquery.qualifyingColumns(with: table))
        case .search(let key, let column, let index, let needle):
            .search(
                key: key.qualifyingColumns(with: table), column: column.qualifyingColumns(with: table), index: index,
                needle: needle)
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
