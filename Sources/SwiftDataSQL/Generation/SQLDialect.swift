import SwiftDataCore

/// What differs between SQL databases in the SQL of predicates and sorts: how constants, parameters, null-safe
/// equality, Swift's comparisons, Swift's arithmetic and string functions, JSON, `NULL` ordering and windows are
/// written, and which of them the database cannot express with Swift's semantics. A construct a dialect cannot
/// express is reported by `reasonUnsupported`, never written with other semantics; the translator then leaves that
/// part of the predicate or sort to memory. `SQLGenerator` writes everything else the same for every dialect.
package protocol SQLDialect: Sendable {
    /// Quotes an identifier (a table, column or alias name).
    func quote(_ identifier: String) -> String
    /// The placeholder of the parameter with the given 1-based index, which holds a value of `type`.
    func placeholder(_ index: Int, type: SQLType) -> String
    /// A Boolean constant.
    func boolean(_ value: Bool) -> String
    /// The operator of null-safe equality (or, `negated`, inequality), which is never `NULL`.
    func nullSafeEquality(negated: Bool) -> String
    /// Whether a collation on the left operand of a comparison governs it, so that a right operand compared the
    /// same way is written without one (SQLite's rule; it keeps the SQL the indexes were built for).
    var collatesByLeftOperand: Bool { get }

    /// Why the dialect cannot compare values as `comparison` does, or `nil` when it can.
    func reasonUnsupported(_ comparison: ValueComparison) -> String?
    /// Why the dialect cannot compute `function` with Swift's semantics, or `nil` when it can.
    func reasonUnsupported(_ function: SQLFunction) -> String?

    /// Writes `operand` as a key that SQL compares and orders as `comparison` does.
    func renderCollated(_ operand: SQLExpression, _ comparison: ValueComparison, into generator: inout SQLGenerator)
    /// Writes a call of `function`.
    func renderCall(_ function: SQLFunction, _ arguments: [SQLExpression], into generator: inout SQLGenerator)
    /// Writes the value at `path` in a JSON document as a value of `type` (see `SQLExpression.jsonValue`).
    func renderJSONValue(
        _ document: SQLExpression, path: [String], type: SQLType, into generator: inout SQLGenerator)
    /// Writes the number of elements of the JSON array at `path` in a document.
    func renderJSONArrayLength(_ document: SQLExpression, path: [String], into generator: inout SQLGenerator)
    /// Writes a subquery source over the elements of the JSON array at `path`, under `alias` when given.
    func renderJSONArrayElements(
        _ document: SQLExpression, path: [String], alias: String?, into generator: inout SQLGenerator)
    /// Writes the value of an element of a `jsonArrayElements` source as a value of `type`.
    func renderJSONElement(alias: String, type: SQLType, into generator: inout SQLGenerator)
    /// What follows an `ORDER BY` term that can be `NULL` so that `NULL` comes first in ascending order and last in
    /// descending order, as `nil` does in Swift; empty when that is the dialect's default.
    func nullsOrdering(descending: Bool) -> String
    /// Whether a `.search` index can find the candidates of a folded needle (see `SearchText.folded`) as a superset.
    func searches(_ needle: String) -> Bool
    /// Writes `SQLExpression.search`: the condition that a row's folded `column` may contain `needle`, through the
    /// `.search` index named `index`.
    func renderSearch(
        key: SQLExpression, column: SQLExpression, index: String, needle: String, into generator: inout SQLGenerator)
    /// Writes the `LIMIT` and `OFFSET` of a select, when either is given.
    func renderWindow(limit: Int?, offset: Int?, into generator: inout SQLGenerator)
    /// The parameters `renderWindow` binds for `limit` and `offset`, in order, all integers: a prepared statement
    /// binds a request's window by putting them in place of those it was rendered with.
    func windowParameters(limit: Int?, offset: Int?) -> [StoreValue]

    // MARK: What a store's own statements need (see `RowStatements` and its siblings)

    /// Whether a placeholder names its parameter (`$1`), so that a parameter can be bound first whatever its place
    /// in the text; otherwise parameters bind in the order their placeholders appear (`?`).
    var numbersParameters: Bool { get }
    /// The name of the column type that holds values of `type`.
    func typeName(_ type: SQLType) -> String
    /// The definition of an integer key column whose values the database numbers itself, in insertion order.
    func identityColumn(_ name: String) -> String
    /// The condition that `column` is one of `count` keys, bound from parameter `first` on as the store binds a
    /// list of keys (one parameter each, or one parameter for the whole list).
    func keysCondition(_ column: String, count: Int, first: Int) -> String
    /// The condition that `column` is one of the integers of parameter `index`, which holds them all
    /// (`integerList(_:)`), so that a statement's text does not depend on how many there are.
    func integerListCondition(_ column: String, parameter index: Int) -> String
    /// Integers as the value of one parameter (see `integerListCondition(_:parameter:)`).
    func integerList(_ values: some Sequence<Int64>) -> StoreValue
    /// The name the database keeps for an index named `name` (a name too long for it, shortened).
    func indexName(_ name: String) -> String
    /// What follows the definition of a table whose rows are found by their primary key alone, if anything.
    var keyOnlyTableOptions: String { get }
}

extension SQLDialect {
    /// `text` as an SQL string literal: in single quotes, each `'` inside doubled.
    package func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
