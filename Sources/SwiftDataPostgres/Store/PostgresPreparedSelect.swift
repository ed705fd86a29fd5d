import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// A fetch request as the PostgreSQL store prepared it, for every request of its shape (see `FetchShape`): the
/// translation of its predicate and sort, and, for a request without a list of keys, its rendered `SELECT` and
/// `SELECT count(*)`, so that a repeated fetch neither translates nor writes SQL. The window's parameters (limit and
/// offset) come last, and each request binds its own; the connection prepares each statement once
/// (`PostgresConnection.preparedQuery`).
final class PostgresPreparedSelect: Sendable {
    /// The translation.
    let plan: PostgresRowStore.SelectPlan
    /// The select, before a list of keys limits it.
    private let select: SQLSelect
    /// The rendered select, for requests without keys.
    private let statement: SQLStatement?
    /// The rendered count, for requests without keys.
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

    /// The most keys one statement lists.
    static let maximumKeys = 10_000

    init<T: PersistentModel>(_ request: FetchRequest<T>, store: PostgresRowStore) {
        let plan = store.plan(request)
        self.plan = plan
        let entity = request.entity
        let columns = StoreLayout.fetchColumns(
            request.properties, of: entity, subentityProperties: request.subentityProperties)
        // In a hierarchy's table, the condition keeps the rows of the request's entity.
        let table = StoreLayout.table(of: entity)
        let condition = StoreLayout.condition(request, plan.predicate?.condition)
        select = SQLSelect.fetch(
            from: table, columns: columns, condition: condition,
            orderings: plan.orderings ?? [], limit: request.fetchLimit, offset: request.fetchOffset,
            isComplete: plan.coverage.isComplete)
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
        if select.limit == nil && select.offset == nil {
            count = SQLGenerator.statement(
                of: .count(from: table, condition: condition), in: store.dialect)
        } else {
            var count = statement
            count.sql = "SELECT count(*) FROM (\(statement.sql)) AS counted"
            self.count = count
        }
    }

    /// The `SELECT` statements of a request of this shape: one, or one per chunk of its keys.
    func statements<T: PersistentModel>(for request: FetchRequest<T>, store: PostgresRowStore) -> [SQLStatement] {
        guard let keys = request.keys else {
            return [windowed(statement ?? SQLGenerator.statement(of: select, in: store.dialect), request, store)]
        }
        return stride(from: 0, to: keys.count, by: Self.maximumKeys).map { start in
            let chunk = keys[start..<min(start + Self.maximumKeys, keys.count)]
            var keyed = keyedStatement(count: chunk.count, store: store)
            for (offset, key) in chunk.enumerated() {
                keyed.statement.parameters[keyed.firstKey + offset] = .int64(key)
            }
            return windowed(keyed.statement, request, store)
        }
    }

    /// The `SELECT count(*)` of a request of this shape without keys.
    func countStatement<T: PersistentModel>(for request: FetchRequest<T>, store: PostgresRowStore) -> SQLStatement {
        if let count { return windowed(count, request, store) }
        var inner = statements(for: request, store: store)[0]
        inner.sql = "SELECT count(*) FROM (\(inner.sql)) AS counted"
        return inner
    }

    /// The statement of a request of this shape limited to `count` keys, rendered once per count.
    private func keyedStatement(count: Int, store: PostgresRowStore) -> KeyedStatement {
        if let keyed = keyed.withLock({ $0[count] }) { return keyed }
        var select = self.select
        let inList = SQLExpression.inList(
            .column(PostgresRowStore.keyColumn), Array(repeating: .bind(.int64(0), .integer), count: count))
        select.condition = select.condition.map { .and($0, inList) } ?? inList
        // The keys follow the parameters of the select's own condition (`condition AND key IN (...)`).
        var condition = SQLGenerator(dialect: store.dialect)
        if let predicate = self.select.condition { condition.render(predicate) }
        let keyed = KeyedStatement(
            statement: SQLGenerator.statement(of: select, in: store.dialect),
            firstKey: condition.statement.parameters.count)
        self.keyed.withLock { statements in
            // Batches come in a few sizes (the batch size, and the last one's).
            if statements.count >= 16 { statements.removeAll() }
            statements[count] = keyed
        }
        return keyed
    }

    /// A statement with the request's window parameters in place of those it was rendered with.
    private func windowed<T: PersistentModel>(
        _ statement: SQLStatement, _ request: FetchRequest<T>, _ store: PostgresRowStore
    ) -> SQLStatement {
        guard windowParameters > 0 else { return statement }
        var window = SQLGenerator(dialect: store.dialect)
        store.dialect.renderWindow(
            limit: select.limit == nil ? nil : request.fetchLimit.map { max($0, 0) },
            offset: select.offset == nil ? nil : request.fetchOffset.map { max($0, 0) }, into: &window)
        var statement = statement
        let start = statement.parameters.count - windowParameters
        statement.parameters.replaceSubrange(start..., with: window.statement.parameters)
        statement.parameterTypes.replaceSubrange(start..., with: window.statement.parameterTypes)
        return statement
    }
}
