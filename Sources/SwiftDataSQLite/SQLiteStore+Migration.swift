import Foundation
import SwiftDataCore

/// The SQLite store's side of a migration: its recorded schema, the lightweight changes of its tables
/// (`SQLiteMigrator`), and a store over the migration's connection for a stage's contexts. Core runs the plan
/// (`MigrationPlanRun`).
struct SQLiteMigration: SchemaMigrationTarget {
    var migrator: SQLiteMigrator
    let configuration: ModelConfiguration
    let identifier: String

    func recordedTables(match schema: Schema) -> RecordedTablesMatch {
        let recorded = migrator.stored.entities
        let entities = StoredSchema(schema).entities
        guard entities.allSatisfy({ recorded.contains($0) }) else { return .different }
        return Set(entities.map(\.name)) == Set(recorded.map(\.name)) ? .exact : .contained(entities: entities.count)
    }

    mutating func migrateTables(to schema: Schema) throws {
        try migrator.migrate(to: schema, existingTables: [])
    }

    func stageStore(for schema: Schema) -> (configuration: any DataStoreConfiguration, store: any RowStore) {
        // The stage's contexts see the stage's models, not the final version's that the configuration names.
        var stageConfiguration = configuration
        stageConfiguration.schema = nil
        let store = SQLiteStore(
            sharing: migrator.database, configuration: stageConfiguration, schema: schema, identifier: identifier,
            external: migrator.external)
        return (stageConfiguration, store)
    }
}
