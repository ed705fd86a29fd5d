/// Brings a store's tables from the schema it records to a model schema, when the change is lightweight (see
/// `SchemaDiff`), inside the store's migration transaction: a failure leaves the store as it was.
package enum LightweightMigration {
    /// Migrates every entity of `schema`, a model hierarchy as one table; entities the store has and `schema` lacks
    /// are kept as they are.
    /// With `checkingForeignTables` (a store that records no schema yet), a table the store did not create that a
    /// model would need is an error.
    package static func migrate(
        _ store: inout some SchemaMigrationTarget, to schema: Schema, checkingForeignTables: Bool = false
    ) throws {
        // A model hierarchy migrates as its table (see `Schema.Entity.tableEntity`).
        for root in schema.entities where root.superentity == nil {
            let entity = root.tableEntity
            if let old = store.recorded.entities.first(where: { $0.name == entity.name }) {
                if !root.subentities.isEmpty || old.subentities != nil {
                    try SchemaDiff.checkHierarchy(of: root, old: old, in: store)
                }
                if let migration = try SchemaDiff.migration(from: old, to: entity, in: store) {
                    try store.migrateTable(migration)
                    if migration.changesColumns || migration.changesIndexes {
                        try SchemaDiff.checkUniqueness(of: entity, in: store)
                        try store.createIndexes(of: entity)
                    }
                }
            } else {
                if checkingForeignTables, try store.hasTable(entity.name) {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "the store has a table \(entity.name) that it did not create", model: entity.name,
                        suggestion: "Use a separate store file")
                }
                try store.createTable(for: entity)
            }
            let recorded = StoredSchema.table(of: root, storage: store.storage)
            if let index = store.recorded.entities.firstIndex(where: { $0.name == entity.name }) {
                store.recorded.entities[index] = recorded
            } else {
                store.recorded.entities.append(recorded)
            }
        }
    }
}
