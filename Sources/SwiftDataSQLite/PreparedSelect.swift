import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// A fetch request as the SQLite store prepared it, for every request of its shape (see `FetchShape`): the
/// translation of its predicate and sort, and, for a request without a list of keys, its rendered `SELECT` and
/// `SELECT count(*)`. The window's parameters (limit and offset) come last in both, and each request binds its own.
final class PreparedSelect: Sendable {
    /// The translation.
    let plan: SQLiteStore.SelectPlan
    /// The select, before a list of keys limits it.
    private let select: SQLSelect
    /// The rendered select, for requests without keys.
    private let statement: SQLStatement?
    /// The rendered count, for requests without keys that read no properties (what `fetchCount` asks for).
    private let count: SQLStatement?
    /// How many of the statements' last parameters are the window's.
    private let windowParameters: Int
    /// For requests with keys, the statements rendered so far by number of keys, with the position of the first
    /// key's parameter: a batch of the same size binds its keys in their place instead of rendering again.
    private let keyed = Mutex<[Int: KeyedStatement]>([:])

    private struct KeyedStatement {
        var statement: SQLStatement
        var firstKey: Int
    }

    init<T: PersistentModel>(_ request: FetchRequest<T>, store: SQLiteStore) {
        plan = store.plan(request)
        select = store.select(request, plan: plan)
        var window = SQLGenerator(dialect: store.dialect)
        store.dialect.renderWindow(limit: select.limit, offset: select.offset, into: &window)
        windowParameters = window.statement.parameters.count
        guard request.keys == nil else {
            statement = nil
            count = nil
            return
        }
        let statement = SQLGenerator.statement(of: select, in: store.dialect)
        self.statement = statement
        guard request.properties.isEmpty else {
            count = nil
            return
        }
        if select.limit == nil && select.offset == nil {
            // Counting the table's rows itself: counting what an ordered `SELECT` yields makes SQLite run that
            // select as a subquery, row by row.
            let count = SQLSelect.count(
                from: StoreLayout.table(of: request.entity), condition: store.condition(request, plan.condition))
            self.count = SQLGenerator.statement(of: count, in: store.dialect)
        } else {
            var count = statement
            count.sql = "SELECT count(*) FROM (\(statement.sql))"
            self.count = count
        }
    }

    /// The `SELECT` statements of a request of this shape: one, or one per chunk of its keys.
    func statements<T: PersistentModel>(for request: FetchRequest<T>, store: SQLiteStore) -> [SQLStatement] {
        if let keys = request.keys {
            return stride(from: 0, to: keys.count, by: SQLiteStore.maximumKeys).map { start in
                let chunk = keys[start..<min(start + SQLiteStore.maximumKeys, keys.count)]
                var keyed = keyedStatement(count: chunk.count, store: store)
                for (offset, key) in chunk.enumerated() {
                    keyed.statement.parameters[keyed.firstKey + offset] = .int64(key)
                }
                return windowed(keyed.statement, request, store: store)
            }
        }
        return [windowed(statement ?? SQLGenerator.statement(of: select, in: store.dialect), request, store: store)]
    }

    /// The statement of a request of this shape limited to `count` keys, rendered once per count.
    private func keyedStatement(count: Int, store: SQLiteStore) -> KeyedStatement {
        if let keyed = keyed.withLock({ $0[count] }) { return keyed }
        let placeholders = Array(repeating: 0 as Int64, count: count)
        let statement = store.selectStatements(select, keys: placeholders)[0]
        // The keys follow the parameters of the select's own condition (`condition AND key IN (...)`).
        var condition = SQLGenerator(dialect: store.dialect)
        if let predicate = select.condition { condition.render(predicate) }
        let keyed = KeyedStatement(statement: statement, firstKey: condition.statement.parameters.count)
        self.keyed.withLock { statements in
            // Batches come in a few sizes (the batch size, and the last one's).
            if statements.count >= 16 { statements.removeAll() }
            statements[count] = keyed
        }
        return keyed
    }

    /// The `SELECT count(*)` of a request of this shape without keys.
    func countStatement<T: PersistentModel>(for request: FetchRequest<T>, store: SQLiteStore) -> SQLStatement {
        if let count { return windowed(count, request, store: store) }
        let count = SQLSelect.count(
            from: StoreLayout.table(of: request.entity), condition: store.condition(request, plan.condition))
        guard select.limit != nil || select.offset != nil else {
            return SQLGenerator.statement(of: count, in: store.dialect)
        }
        var inner = windowed(SQLGenerator.statement(of: select, in: store.dialect), request, store: store)
        inner.sql = "SELECT count(*) FROM (\(inner.sql))"
        return inner
    }

    /// The request's limit and offset where the select has them (only when it runs the whole request).
    private func window<T: PersistentModel>(of request: FetchRequest<T>) -> (limit: Int?, offset: Int?) {
        (
            select.limit == nil ? nil : request.fetchLimit.map { max($0, 0) },
            select.offset == nil ? nil : request.fetchOffset.map { max($0, 0) }
        )
    }

    /// A statement with the request's window parameters in place of those it was rendered with.
    private func windowed<T: PersistentModel>(
        _ statement: SQLStatement, _ request: FetchRequest<T>, store: SQLiteStore
    ) -> SQLStatement {
        guard windowParameters > 0 else { return statement }
        let (limit, offset) = window(of: request)
        var window = SQLGenerator(dialect: store.dialect)
        store.dialect.renderWindow(limit: limit, offset: offset, into: &window)
        var statement = statement
        let start = statement.parameters.count - windowParameters
        statement.parameters.replaceSubrange(start..., with: window.statement.parameters)
        statement.parameterTypes.replaceSubrange(start..., with: window.statement.parameterTypes)
        return statement
    }
}
