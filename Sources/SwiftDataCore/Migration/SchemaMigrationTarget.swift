/// A store's side of a migration: what Core asks of it while it migrates the store's tables to the models
/// (`LightweightMigration`) and runs a migration plan (`MigrationPlanRun`). Core decides what may change and how
/// (the lightweight-change rules, `SchemaDiff`), which version the store is at and which stages run with which
/// contexts; the store answers questions about the data it holds, changes its tables inside the migration's
/// transaction, and records its schema.
package protocol SchemaMigrationTarget {
    /// The schema of the store's tables as it records it; Core keeps it current as tables change.
    var recorded: StoredSchema { get set }
    /// The store's word for how it keeps an attribute's values, recorded with the attribute: a change of it is a
    /// change of type.
    func storage(of attribute: Schema.Attribute) -> String
    /// Whether the store can leave a required attribute kept this way without a value (the SQLite store keeps NaN as
    /// NULL, so a floating-point column can be NULL).
    func acceptsNoValue(storage: String) -> Bool

    /// The number of rows of a table.
    func rowCount(of table: String) throws -> Int64
    /// The number of rows of a hierarchy's table whose entity column names one of `entities`.
    func rowCount(of table: String, entities: [String]) throws -> Int64
    /// The number of rows of a table whose column holds no value.
    func nilCount(of table: String, column: String) throws -> Int64
    /// The columns a table has, except the store's own key.
    func columnNames(of table: String) throws -> [String]
    /// Whether the store has a table of that name.
    func hasTable(_ table: String) throws -> Bool
    /// Up to three sets of values that more than one row of a table holds in `columns` (none of them `nil`), each
    /// described as `column = value, ... (n models)`.
    func duplicates(in table: String, columns: [String]) throws -> [String]

    /// Creates the table of a new entity, with its indexes and join tables.
    mutating func createTable(for entity: Schema.Entity) throws
    /// Applies a lightweight migration of an entity's table (see `EntityMigration`), its indexes aside.
    mutating func migrateTable(_ migration: EntityMigration) throws
    /// Creates the entity's unique constraints and indexes, replacing those it had.
    mutating func createIndexes(of entity: Schema.Entity) throws

    /// A store over the migration's transaction, for tables that already hold `schema`'s models: what a stage's
    /// contexts use, with the configuration their container records (whose own schema is `nil`: all of `schema`).
    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore)

    /// How the tables the store records compare with the tables of `schema`'s models; by default, by comparing
    /// `recorded` with the schema's description.
    func recordedTables(match schema: Schema) -> RecordedTablesMatch
    /// Brings the store's tables to `schema`'s models with lightweight changes, inside the migration's transaction;
    /// by default, with Core's rules (`LightweightMigration`).
    mutating func migrateTables(to schema: Schema) throws
}

extension SchemaMigrationTarget {
    /// All of the table's rows: a store that cannot tell its rows' entities counts them all, which refuses more
    /// migrations of a hierarchy than needed, never fewer.
    package func rowCount(of table: String, entities: [String]) throws -> Int64 {
        try rowCount(of: table)
    }

    package func recordedTables(match schema: Schema) -> RecordedTablesMatch {
        let entities = StoredSchema(schema, storage: storage).entities
        guard entities.allSatisfy({ recorded.entities.contains($0) }) else { return .different }
        return Set(entities.map(\.name)) == Set(recorded.entities.map(\.name))
            ? .exact : .contained(entities: entities.count)
    }

    package mutating func migrateTables(to schema: Schema) throws {
        try LightweightMigration.migrate(&self, to: schema)
    }
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
