import SwiftDataCore
import Synchronization

/// A fetch request as an SQL store prepared it, for every request of its shape (see `FetchShape`): how much of it
/// the store runs (`coverage`), and, for a request without a list of keys, its rendered `SELECT` and
/// `SELECT count(*)`, so that a repeated fetch neither translates nor writes SQL. The window's parameters (limit and
/// offset) come last, and each request binds its own. A request with keys gets one statement per batch of at most
/// `maximumKeys` keys: `condition AND key IN (?, ...)`, rendered once per batch size, or, for a batch of ascending
/// keys that fill most of the range between its first and last (a batched fetch's or `enumerate`'s batch),
/// `condition AND key BETWEEN ? AND ?`, whose rows of other keys the store skips (see `KeySelect`).
package final class PreparedSelect: Sendable {
    /// Which parts of the request the statements run (see `FetchCoverage`).
    package let coverage: FetchCoverage
    /// The select, before a list of keys limits it.
    private let select: SQLSelect
    private let dialect: any SQLDialect
    /// The rendered select, for requests without keys.
    let statement: SQLStatement?
    /// The rendered count, for requests without keys that read no properties (what `fetchCount` asks for).
    let count: SQLStatement?
    /// How many of the statements' last parameters are the window's.
    let windowParameters: Int
    /// For requests with keys, the statements rendered so far by number of keys, with the position of the first
    /// key's parameter: a batch of the same size binds its keys in their place instead of rendering again.
    private let keyed = Mutex<[Int: KeyedStatement]>([:])
    /// For requests with keys, the statement of a range of keys (rendered on first use), with the position of its
    /// lower bound's parameter.
    private let ranged = Mutex<KeyedStatement?>(nil)

    private struct KeyedStatement {
        var statement: SQLStatement
        var firstKey: Int
    }

    /// The most keys one statement lists (SQLite's limit on parameters is 32,766, PostgreSQL's 65,535).
    package static let maximumKeys = 10_000

    /// Prepares `request`'s statements from its translated `condition` (the predicate's, and any other the store
    /// adds) and `orderings` (`nil` when the sort has none), which together run `coverage` of it.
    package init<T: PersistentModel>(
        _ request: FetchRequest<T>, condition: SQLExpression?, orderings: [SQLOrdering]?, coverage: FetchCoverage,
        dialect: any SQLDialect
    ) {
        self.coverage = coverage
        self.dialect = dialect
        let entity = request.entity
        let table = StoreLayout.table(of: entity)
        // In a hierarchy's table, the condition keeps the rows of the request's entity.
        let condition = StoreLayout.condition(request, condition)
        select = SQLSelect.fetch(
            from: table,
            columns: StoreLayout.fetchColumns(
                request.properties, of: entity, subentityProperties: request.subentityProperties),
            condition: condition, orderings: orderings ?? [], limit: request.fetchLimit,
            offset: request.fetchOffset, isComplete: coverage.isComplete)
        windowParameters = dialect.windowParameters(limit: select.limit, offset: select.offset).count
        guard request.keys == nil else {
            statement = nil
            count = nil
            return
        }
        let statement = SQLGenerator.statement(of: select, in: dialect)
        self.statement = statement
        // Only `fetchCount` counts, and it reads no properties (a shape of its own).
        guard request.properties.isEmpty else {
            count = nil
            return
        }
        if select.limit == nil && select.offset == nil {
            // Counting the table's rows itself: counting what an ordered `SELECT` yields makes SQLite run that
            // select as a subquery, row by row.
            count = SQLGenerator.statement(of: .count(from: table, condition: condition), in: dialect)
        } else {
            count = Self.counting(statement)
        }
    }

    /// `base` with other values bound in its statements (see `binding(_:at:)`), for requests without keys: `select`
    /// still holds the base's values, and renders only statements with keys.
    init(_ base: PreparedSelect, statement: SQLStatement?, count: SQLStatement?) {
        coverage = base.coverage
        select = base.select
        dialect = base.dialect
        self.statement = statement
        self.count = count
        windowParameters = base.windowParameters
    }

    /// The `SELECT` statements of a request of this shape: one, or one per batch of its keys.
    package func statements<T: PersistentModel>(for request: FetchRequest<T>) -> [SQLStatement] {
        selects(for: request).map(\.statement)
    }

    /// The `SELECT` statements of a request of this shape, each with the keys the store keeps of its rows when it
    /// reads a range of keys: one, or one per batch of its keys.
    package func selects<T: PersistentModel>(for request: FetchRequest<T>) -> [KeySelect] {
        guard let keys = request.keys else { return [select(for: request)] }
        return stride(from: 0, to: keys.count, by: Self.maximumKeys).map { start in
            let chunk = keys[start..<min(start + Self.maximumKeys, keys.count)]
            // A window would count the rows of other keys in the range.
            if windowParameters == 0, KeySelect.readsRange(of: chunk) {
                var ranged = rangedStatement()
                ranged.statement.parameters[ranged.firstKey] = .int64(chunk[chunk.startIndex])
                ranged.statement.parameters[ranged.firstKey + 1] = .int64(chunk[chunk.endIndex - 1])
                return KeySelect(windowed(ranged.statement, request), keeping: chunk)
            }
            var keyed = keyedStatement(count: chunk.count)
            for (offset, key) in chunk.enumerated() {
                keyed.statement.parameters[keyed.firstKey + offset] = .int64(key)
            }
            return KeySelect(windowed(keyed.statement, request))
        }
    }

    /// The `SELECT` statement of a request of this shape without keys.
    package func select<T: PersistentModel>(for request: FetchRequest<T>) -> KeySelect {
        KeySelect(windowed(statement ?? SQLGenerator.statement(of: select, in: dialect), request))
    }

    /// The `SELECT count(*)` of a request of this shape (with keys, of its first batch).
    package func countStatement<T: PersistentModel>(for request: FetchRequest<T>) -> SQLStatement {
        if let count { return windowed(count, request) }
        return Self.counting(statements(for: request)[0])
    }

    /// A count of the rows a select yields, as a subquery (PostgreSQL requires its alias).
    private static func counting(_ select: SQLStatement) -> SQLStatement {
        var count = select
        count.sql = "SELECT count(*) FROM (\(select.sql)) AS counted"
        return count
    }

    /// The statement of a request of this shape limited to `count` keys, rendered once per count.
    private func keyedStatement(count: Int) -> KeyedStatement {
        if let keyed = keyed.withLock({ $0[count] }) { return keyed }
        let keyed = limited(
            by: .inList(.column(StoreLayout.keyColumn), Array(repeating: .bind(.int64(0), .integer), count: count)))
        self.keyed.withLock { statements in
            // Batches come in a few sizes (the batch size, and the last one's).
            if statements.count >= 16 { statements.removeAll() }
            statements[count] = keyed
        }
        return keyed
    }

    /// The statement of a request of this shape limited to a range of keys, rendered once.
    private func rangedStatement() -> KeyedStatement {
        if let ranged = ranged.withLock({ $0 }) { return ranged }
        let key = SQLExpression.column(StoreLayout.keyColumn)
        let ranged = limited(
            by: .and(
                .binary(key, .greaterOrEqual, .bind(.int64(0), .integer)),
                .binary(key, .lessOrEqual, .bind(.int64(0), .integer))))
        self.ranged.withLock { $0 = ranged }
        return ranged
    }

    /// The select with `keys` (a condition on the key column, whose parameters are the keys) added to its condition.
    private func limited(by keys: SQLExpression) -> KeyedStatement {
        var select = self.select
        select.condition = select.condition.map { .and($0, keys) } ?? keys
        // The keys follow the parameters of the select's own condition (`condition AND keys`).
        var condition = SQLGenerator(dialect: dialect)
        if let predicate = self.select.condition { condition.render(predicate) }
        return KeyedStatement(
            statement: SQLGenerator.statement(of: select, in: dialect), firstKey: condition.statement.parameters.count)
    }

    /// A statement with the request's window parameters in place of those it was rendered with.
    private func windowed<T: PersistentModel>(_ statement: SQLStatement, _ request: FetchRequest<T>) -> SQLStatement {
        guard windowParameters > 0 else { return statement }
        var statement = statement
        var index = statement.parameters.count - windowParameters
        let window = dialect.windowParameters(
            limit: select.limit == nil ? nil : request.fetchLimit.map { max($0, 0) },
            offset: select.offset == nil ? nil : request.fetchOffset.map { max($0, 0) })
        for parameter in window {
            statement.parameters[index] = parameter
            index += 1
        }
        return statement
    }
}
