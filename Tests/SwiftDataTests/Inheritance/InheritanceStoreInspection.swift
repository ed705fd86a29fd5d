import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres
@testable import SwiftDataSQLite

/// What the inheritance suites look at in either store's tables: the same questions, asked of SQLite's catalog or
/// PostgreSQL's.
extension StoreLocation {
    /// The rows of a query of the store's tables (PostgreSQL: in the location's schema), each value as text, `NULL`
    /// for none. `container` is a container on the location's store.
    func rows(_ sql: String, container: ModelContainer) throws -> [[String]] {
        switch kind {
        case .sqlite:
            return try sqliteStore(container).withDatabase { database in
                try database.rows(sql).map { row in
                    row.map { value in
                        if case .text(let text) = value { text } else { value.description }
                    }
                }
            }
        case .postgres, .pooled:
            let connection = try PostgresConnection(kind.postgresServer().superuserConnectionString)
            let result = try connection.execute("SET search_path TO \"\(postgresSchema)\"; \(sql)")
            return try (0..<result.rowCount).map { row in
                try (0..<result.columnCount).map { try result.string(row, $0) ?? "NULL" }
            }
        }
    }

    /// The names of the store's tables.
    func tableNames(container: ModelContainer) throws -> [String] {
        let sql =
            kind == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table'"
            : "SELECT tablename::text FROM pg_tables WHERE schemaname = '\(postgresSchema)'"
        return try rows(sql, container: container).map { $0[0] }
    }

    /// The columns of a table, in order.
    func columnNames(of table: String, container: ModelContainer) throws -> [String] {
        let sql =
            kind == .sqlite
            ? "SELECT name FROM pragma_table_info('\(table)')"
            : """
            SELECT column_name::text FROM information_schema.columns WHERE table_schema = '\(postgresSchema)' \
            AND table_name = '\(table)' ORDER BY ordinal_position
            """
        return try rows(sql, container: container).map { $0[0] }
    }

    /// The indexes of a table, by name, each with its definition (`CREATE ... INDEX ...`).
    func indexes(of table: String, container: ModelContainer) throws -> [String: String] {
        let sql =
            kind == .sqlite
            ? "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)' AND sql IS NOT NULL"
            : "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = '\(postgresSchema)' AND tablename = '\(table)'"
        return Dictionary(try rows(sql, container: container).map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
    }
}

/// Fetches the models `predicate` selects (in key order) from a store of either kind and checks that the store ran
/// all of the predicate in SQL, selecting what `Predicate.evaluate` selects among all models. On SQLite it also
/// counts the statements (`fetchInSQL`); the statement log watches SQLite stores only.
func fetchInSQL<T: PersistentModel>(
    _ predicate: Predicate<T>, _ context: ModelContext, store: StoreKind, classLookup: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [T] {
    if store == .sqlite {
        return try fetchInSQL(predicate, context, classLookup: classLookup, sourceLocation: sourceLocation)
    }
    let rowStore = try #require(context.container.stores.first, sourceLocation: sourceLocation)
    let entity = try context.binding(for: T.self).entity
    let plan = rowStore.prepare(FetchRequest<T>(entity: entity, predicate: predicate, properties: []))
    #expect(plan.coverage.isComplete, "ran in memory", sourceLocation: sourceLocation)
    let models = try context.fetch(FetchDescriptor(predicate: predicate))
    let expected = try context.fetch(FetchDescriptor<T>()).filter(predicate.evaluate)
    #expect(models.map(\.persistentModelID) == expected.map(\.persistentModelID), sourceLocation: sourceLocation)
    return models
}
