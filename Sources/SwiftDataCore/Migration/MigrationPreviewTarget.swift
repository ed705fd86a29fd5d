import Foundation

/// A store's configuration that can show what a migration would do without doing it, and copy its store to migrate
/// the copy (see `MigrationPreview`).
package protocol MigrationPreviewing: DataStoreConfiguration {
    /// The store's migration target over a read-only connection, with the version the store records; `nil` when
    /// there is no store yet. The preview only asks it questions.
    func previewTarget() throws -> (target: any SchemaMigrationTarget, version: Schema.Version?)?
    /// Whether the store writes a table anew when its columns change.
    var rebuildsChangedTables: Bool { get }
    /// A copy of the store in a temporary place, with its configuration and what deletes it.
    func temporaryCopy() throws -> (configuration: any DataStoreConfiguration, remove: () -> Void)
}

/// A migration target that records what a migration would do instead of doing it: questions about the data go to
/// the store's own target (tables the preview created count as empty), changes are noted.
struct MigrationPreviewTarget: SchemaMigrationTarget {
    let base: any SchemaMigrationTarget
    let rebuilds: Bool
    var recorded: StoredSchema
    private var created: Set<String> = []
    private var columns: [String: [String]] = [:]
    var changes: [MigrationPreview.TableChange] = []

    init(base: any SchemaMigrationTarget, rebuilds: Bool) {
        self.base = base
        self.rebuilds = rebuilds
        recorded = base.recorded
    }

    /// The preview of opening a store with `schema`, as the stores' opening does it: the plan's stages from the
    /// store's version, then a lightweight migration to the models.
    static func preview(
        _ configuration: any MigrationPreviewing, name: String, schema: Schema, plan: (any SchemaMigrationPlan.Type)?
    ) throws -> MigrationPreview {
        guard let (base, version) = try configuration.previewTarget() else {
            let tables = schema.entities.filter { $0.superentity == nil }
            return MigrationPreview(
                configurationName: name, storeVersion: nil, targetVersion: schema.version,
                stages: [
                    MigrationPreview.Stage(
                        name: "creation of the store", runsCustomCode: false,
                        changes: tables.map { created($0.tableEntity) })
                ], failure: nil)
        }
        var target = MigrationPreviewTarget(base: base, rebuilds: configuration.rebuildsChangedTables)
        var stages: [MigrationPreview.Stage] = []
        var current = "lightweight migration to \(schema.version)"
        do {
            if let plan, !target.recorded.entities.isEmpty,
                let from = MigrationPlanRun.storeVersion(recorded: version, in: plan, target: target) ?? version,
                from != schema.version
            {
                _ = try MigrationPlanRun.chain(of: plan.stages, from: from, to: schema.version).map { chain in
                    for number in chain {
                        let stage = plan.stages[number]
                        let (old, new) = stage.versions
                        current = "stage \(number + 1) (\(old.versionIdentifier) to \(new.versionIdentifier))"
                        var custom = false
                        if case .custom(_, _, let will, let did) = stage { custom = will != nil || did != nil }
                        try target.migrateTables(to: Schema(versionedSchema: new))
                        stages.append(
                            MigrationPreview.Stage(name: current, runsCustomCode: custom, changes: target.changes))
                        target.changes = []
                    }
                }
                current = "lightweight migration to \(schema.version)"
            }
            try LightweightMigration.migrate(&target, to: schema)
            if !target.changes.isEmpty {
                stages.append(MigrationPreview.Stage(name: current, runsCustomCode: false, changes: target.changes))
            }
            return MigrationPreview(
                configurationName: name, storeVersion: version, targetVersion: schema.version, stages: stages,
                failure: nil)
        } catch {
            let reason = (error as? SwiftDataError)?.reason ?? "\(error)"
            return MigrationPreview(
                configurationName: name, storeVersion: version, targetVersion: schema.version, stages: stages,
                failure: "\(current) would fail: \(reason)")
        }
    }

    private static func created(_ entity: Schema.Entity) -> MigrationPreview.TableChange {
        MigrationPreview.TableChange(
            entity: entity.name, isCreated: true, isRebuilt: false, addedColumns: columns(of: entity),
            renamedColumns: [], droppedColumns: [], rebuildsIndexes: false, rowsAffected: 0)
    }

    /// The columns of a new table, after its key.
    private static func columns(of entity: Schema.Entity) -> [String] {
        entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }.map(\.name)
            + entity.orderedRelationships.filter { $0.storage == .column }.flatMap {
                [$0.name] + ($0.positionColumn.map { [$0] } ?? [])
            }
    }

    func storage(of attribute: Schema.Attribute) -> String { base.storage(of: attribute) }
    func acceptsNoValue(storage: String) -> Bool { base.acceptsNoValue(storage: storage) }

    func rowCount(of table: String) throws -> Int64 {
        created.contains(table) ? 0 : try base.rowCount(of: table)
    }

    func rowCount(of table: String, entities: [String]) throws -> Int64 {
        created.contains(table) ? 0 : try base.rowCount(of: table, entities: entities)
    }

    func nilCount(of table: String, column: String) throws -> Int64 {
        if created.contains(table) { return 0 }
        // A column the preview added holds no values yet: every row's is missing.
        if let columns = columns[table], columns.contains(column), !(try base.columnNames(of: table).contains(column)) {
            return try base.rowCount(of: table)
        }
        return try base.nilCount(of: table, column: column)
    }

    func columnNames(of table: String) throws -> [String] {
        try columns[table] ?? base.columnNames(of: table)
    }

    func hasTable(_ table: String) throws -> Bool {
        try created.contains(table) || base.hasTable(table)
    }

    func duplicates(in table: String, columns: [String]) throws -> [String] {
        guard !created.contains(table) else { return [] }
        let existing = Set(try base.columnNames(of: table))
        return columns.allSatisfy(existing.contains) ? try base.duplicates(in: table, columns: columns) : []
    }

    mutating func createTable(for entity: Schema.Entity) throws {
        created.insert(entity.name)
        columns[entity.name] = Self.columns(of: entity)
        changes.append(Self.created(entity))
    }

    mutating func migrateTable(_ migration: EntityMigration) throws {
        let table = migration.entity.name
        let old = try columnNames(of: table)
        let sources = Set(migration.columns.compactMap(\.source))
        let rows = try rowCount(of: table)
        changes.append(
            MigrationPreview.TableChange(
                entity: table, isCreated: false, isRebuilt: rebuilds && migration.changesColumns,
                addedColumns: migration.columns.filter { $0.source == nil }.map(\.name),
                renamedColumns: migration.columns.compactMap { column in
                    column.source.flatMap { $0 == column.name ? nil : ($0, column.name) }
                },
                droppedColumns: old.filter { !sources.contains($0) && !migration.columns.map(\.name).contains($0) },
                rebuildsIndexes: migration.changesIndexes || migration.changesColumns,
                rowsAffected: migration.changesColumns ? rows : 0))
        if migration.changesColumns { columns[table] = migration.columns.map(\.name) }
    }

    mutating func createIndexes(of entity: Schema.Entity) throws {}

    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
        throw SwiftDataError.loadIssueModelContainer.with(
            reason: "a preview does not run a stage's code", suggestion: "Migrate a copy of the store instead")
    }
}
