import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// The SQLite store of a container.
func sqliteStore(_ container: ModelContainer) throws -> SQLiteStore {
    try #require(container.stores.compactMap { $0 as? SQLiteStore }.first)
}

/// Fetches the models `predicate` selects (in key order) and checks that the store ran all of the predicate in
/// SQL: one `SELECT` with a `WHERE` clause, and nothing left to memory. Also checks that SQL selected exactly
/// what `Predicate.evaluate` selects among all models. With `classLookup`, a second `SELECT` may find the classes
/// of related models of a hierarchy.
func fetchInSQL<T: PersistentModel>(
    _ predicate: Predicate<T>, _ context: ModelContext, classLookup: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [T] {
    let store = try sqliteStore(context.container)
    let entity = try context.binding(for: T.self).entity
    let plan = store.plan(FetchRequest<T>(entity: entity, predicate: predicate, properties: []))
    #expect(
        plan.coverage.isComplete, "ran in memory: \(plan.predicate?.reason ?? "")", sourceLocation: sourceLocation)
    let log = StatementLog(context.container)
    let models = try context.fetch(FetchDescriptor(predicate: predicate))
    let selects = classLookup ? log.selects.filter { !$0.hasPrefix("SELECT \"_pk\", \"_entity\" FROM") } : log.selects
    #expect(selects.count == 1, sourceLocation: sourceLocation)
    #expect(selects.allSatisfy { $0.contains(" WHERE ") }, sourceLocation: sourceLocation)
    let expected = try context.fetch(FetchDescriptor<T>()).filter(predicate.evaluate)
    #expect(models.map(\.persistentModelID) == expected.map(\.persistentModelID), sourceLocation: sourceLocation)
    return models
}

/// The SQL a predicate becomes in the SQLite store.
func sql<T: PersistentModel>(_ predicate: Predicate<T>, _ context: ModelContext) throws -> String {
    let log = StatementLog(context.container)
    _ = try context.fetch(FetchDescriptor(predicate: predicate))
    return try #require(log.selects.first)
}
