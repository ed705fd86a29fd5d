/// A store's side of a migration: what Core asks of it while it runs a migration plan (`MigrationPlanRun`). The
/// store records the schema of its tables, changes them, and gives the contexts of a stage a store over the
/// migration's transaction; Core decides which version the store is at and which stages run, in which order, with
/// which contexts.
package protocol SchemaMigrationTarget {
    /// How the tables the store records compare with the tables of `schema`'s models.
    func recordedTables(match schema: Schema) -> RecordedTablesMatch
    /// Brings the store's tables to `schema`'s models with lightweight changes, inside the migration's transaction.
    mutating func migrateTables(to schema: Schema) throws
    /// A store over the migration's transaction, for tables that already hold `schema`'s models: what a stage's
    /// contexts use, with the configuration their container records (whose own schema is `nil`: all of `schema`).
    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore)
}

/// How a store's recorded tables compare with a schema's.
package enum RecordedTablesMatch: Equatable, Sendable {
    /// The store records exactly the schema's tables.
    case exact
    /// The store records the schema's tables and more (of models a later version dropped): `entities` of them.
    case contained(entities: Int)
    /// Some table of the schema differs from the store's, or is missing.
    case different
}
