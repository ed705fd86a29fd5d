/// A top-level `SELECT` of one entity's table: `SELECT columns FROM table WHERE condition ORDER BY orderings`
/// (or `SELECT count(*) ...`), then `LIMIT` and `OFFSET`, which each dialect writes in its own way.
package struct SQLSelect: Equatable, Sendable {
    /// The selected columns, by name.
    package var columns: [String]
    /// Whether the select counts the rows instead (then `columns` is empty).
    package var countsRows = false
    /// The table selected from.
    package var table: String
    /// The `WHERE` condition, if any.
    package var condition: SQLExpression?
    /// The `ORDER BY` terms.
    package var orderings: [SQLOrdering]
    /// The most rows to select, or `nil` for all.
    package var limit: Int?
    /// The number of rows to skip, or `nil` for none.
    package var offset: Int?

    package init(
        columns: [String], table: String, condition: SQLExpression? = nil, orderings: [SQLOrdering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) {
        self.columns = columns
        self.table = table
        self.condition = condition
        self.orderings = orderings
        self.limit = limit
        self.offset = offset
    }
}

extension SQLSelect {
    /// The select of a fetch from a store that keeps `entity`'s models in rows keyed by `StoreLayout.keyColumn`: the
    /// key and `columns` of the rows that `condition` selects, in the order of `orderings`, ties in key order. The
    /// window (`limit` and `offset`, negative values counting as zero) applies only when the SQL does all of the
    /// fetch's work (`isComplete`): otherwise the context filters or sorts the rows first, and windows them itself.
    package static func fetch(
        from table: String, columns: [String], condition: SQLExpression?, orderings: [SQLOrdering],
        limit: Int?, offset: Int?, isComplete: Bool
    ) -> SQLSelect {
        var selected = [StoreLayout.keyColumn]
        selected.reserveCapacity(columns.count + 1)
        selected.append(contentsOf: columns)
        var ordered = orderings
        ordered.append(SQLOrdering(.column(StoreLayout.keyColumn), descending: false))
        var select = SQLSelect(columns: selected, table: table, condition: condition, orderings: ordered)
        if isComplete {
            select.limit = limit.map { max($0, 0) }
            select.offset = offset.map { max($0, 0) }
        }
        return select
    }

    /// `SELECT count(*) FROM table WHERE condition`.
    package static func count(from table: String, condition: SQLExpression?) -> SQLSelect {
        var select = SQLSelect(columns: [], table: table, condition: condition)
        select.countsRows = true
        return select
    }
}
