/// A `SELECT` inside an expression: `SELECT result FROM sources WHERE condition ORDER BY orderings LIMIT limit`.
/// Rendered as a scalar subquery (`SQLExpression.subquery`) or as a test (`SQLExpression.exists`).
package struct SQLSubquery: Equatable, Sendable {
    /// The selected value.
    package var result: SQLExpression
    /// The first source is the `FROM` clause; each later one is `JOIN`ed with its `on` condition.
    package var sources: [SQLSource]
    /// The `WHERE` condition, if any.
    package var condition: SQLExpression?
    /// The `ORDER BY` terms, for a scalar subquery that picks the first of several rows.
    package var orderings: [SQLOrdering] = []
    /// The `LIMIT`, if any.
    package var limit: Int?

    /// A subquery selecting `result` from `sources`.
    package init(
        result: SQLExpression, sources: [SQLSource], condition: SQLExpression?, orderings: [SQLOrdering] = [],
        limit: Int? = nil
    ) {
        self.result = result
        self.sources = sources
        self.condition = condition
        self.orderings = orderings
        self.limit = limit
    }

    /// The subquery with every column of the fetched table qualified by `table` (see
    /// `SQLExpression.qualifyingColumns(with:)`); the sources' own columns are qualified by their aliases already.
    package func qualifyingColumns(with table: String) -> SQLSubquery {
        var copy = self
        copy.result = result.qualifyingColumns(with: table)
        copy.sources = sources.map {
            SQLSource(
                $0.source.qualifyingColumns(with: table), alias: $0.alias, on: $0.on?.qualifyingColumns(with: table))
        }
        copy.condition = condition?.qualifyingColumns(with: table)
        copy.orderings = orderings.map {
            SQLOrdering($0.expression.qualifyingColumns(with: table), descending: $0.descending)
        }
        return copy
    }
}

/// A table or table-valued function in a subquery's `FROM` or `JOIN`, under an alias.
package struct SQLSource: Equatable, Sendable {
    /// A table (`SQLExpression.table`) or a table-valued function call.
    package var source: SQLExpression
    /// The name the subquery's expressions call it by.
    package var alias: String
    /// The join condition, for every source but the first.
    package var on: SQLExpression?

    /// A source under an alias, joined `on` a condition unless it is the first.
    package init(_ source: SQLExpression, alias: String, on: SQLExpression? = nil) {
        self.source = source
        self.alias = alias
        self.on = on
    }
}
