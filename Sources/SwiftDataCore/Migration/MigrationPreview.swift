import Foundation

/// What opening a store with a schema (and a migration plan) would do to it, worked out without changing the store:
/// the stages that would run, and for each the tables it would create or migrate, with the columns added, renamed
/// and dropped and the rows affected, or why it would fail. An addition to Apple's API, made by
/// `ModelContainer.migrationPreview(for:migrationPlan:configurations:)`.
///
/// A custom stage's `willMigrate` and `didMigrate` are not run: the preview lists them. To run them too, migrate a
/// copy of the store with `ModelContainer.migrateCopy(for:migrationPlan:configuration:)`.
public struct MigrationPreview: Sendable, CustomStringConvertible {
    /// The configuration's name.
    public let configurationName: String
    /// The schema version the store records; `nil` when there is no store yet.
    public let storeVersion: Schema.Version?
    /// The version of the schema the store would be opened with.
    public let targetVersion: Schema.Version
    /// The steps that would run, in order: the plan's stages, then the lightweight migration to the schema.
    public let stages: [Stage]
    /// Why opening the store would fail, naming the stage; `nil` when it would open.
    public let failure: String?

    /// Whether opening the store would change it.
    public var changesStore: Bool { stages.contains { !$0.changes.isEmpty || $0.runsCustomCode } }

    /// One step of the migration.
    public struct Stage: Sendable {
        /// The stage, as errors name it: `stage 1 (1.0.0 to 2.0.0)`, or `lightweight migration to 2.0.0`.
        public let name: String
        /// Whether the stage is custom and calls `willMigrate` or `didMigrate` (which the preview does not run).
        public let runsCustomCode: Bool
        /// What the stage does to each table it changes.
        public let changes: [TableChange]
    }

    /// What a stage does to one entity's table.
    public struct TableChange: Sendable, CustomStringConvertible {
        /// The entity (for a model hierarchy, its root).
        public let entity: String
        /// Whether the table is new.
        public let isCreated: Bool
        /// Whether the store writes the table anew (SQLite rebuilds a table whose columns change; PostgreSQL changes
        /// them in place).
        public let isRebuilt: Bool
        /// The columns added.
        public let addedColumns: [String]
        /// The columns renamed, old name first.
        public let renamedColumns: [(from: String, to: String)]
        /// The columns dropped.
        public let droppedColumns: [String]
        /// Whether the unique constraints and indexes are made again.
        public let rebuildsIndexes: Bool
        /// The rows the change touches: all of the table's rows, when the columns change.
        public let rowsAffected: Int64

        public var description: String {
            if isCreated { return "create \(entity) (\(addedColumns.joined(separator: ", ")))" }
            var parts: [String] = []
            if !addedColumns.isEmpty { parts.append("add \(addedColumns.joined(separator: ", "))") }
            if !renamedColumns.isEmpty {
                parts.append("rename \(renamedColumns.map { "\($0.from) to \($0.to)" }.joined(separator: ", "))")
            }
            if !droppedColumns.isEmpty { parts.append("drop \(droppedColumns.joined(separator: ", "))") }
            if isRebuilt { parts.append("rebuild the table") }
            if rebuildsIndexes { parts.append("make its indexes again") }
            return "\(entity): \(parts.joined(separator: "; ")) (\(rowsAffected) row\(rowsAffected == 1 ? "" : "s"))"
        }
    }

    public var description: String {
        var lines = [
            "\(configurationName): store at \(storeVersion.map { "\($0)" } ?? "none (a new store)"), models at \(targetVersion)"
        ]
        for stage in stages {
            lines.append("  \(stage.name)\(stage.runsCustomCode ? " (runs willMigrate/didMigrate)" : "")")
            lines += stage.changes.map { "    \($0)" }
        }
        if let failure { lines.append("  fails: \(failure)") }
        if failure == nil && !changesStore { lines.append("  nothing to change") }
        return lines.joined(separator: "\n")
    }
}

extension ModelContainer {
    /// What opening each configuration's store with `schema` and `migrationPlan` would do, without changing the
    /// stores (see `MigrationPreview`). An addition to Apple's API, for a test or a check before an app's update.
    public static func migrationPreview(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [any DataStoreConfiguration]
    ) throws -> [MigrationPreview] {
        let schema = migrationPlan.map { MigrationPlanRun.versioned(schema, in: $0) } ?? schema
        return try configurations.map { configuration in
            guard let previewing = configuration as? any MigrationPreviewing else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "a \(type(of: configuration)) store cannot preview a migration",
                    suggestion: "Preview stores of this package: ModelConfiguration or PostgresConfiguration")
            }
            let entities = configuration.schema.map { Schema(entities: $0.entities, version: schema.version) }
            return try MigrationPreviewTarget.preview(
                previewing, name: configuration.name, schema: entities ?? schema, plan: migrationPlan)
        }
    }

    /// Runs the real migration, custom stages included, on a temporary copy of a configuration's store (SQLite: a
    /// copy of the file and its external files; PostgreSQL: a copy of its tables in a new PostgreSQL schema), then
    /// deletes the copy; the store itself is only read. Throws what opening the store would throw, which names the
    /// stage and model that failed. An addition to Apple's API: a test in an app's CI can migrate a copy of
    /// production data this way.
    public static func migrateCopy(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configuration: any DataStoreConfiguration
    ) throws {
        guard let previewing = configuration as? any MigrationPreviewing else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "a \(type(of: configuration)) store cannot be copied to migrate",
                suggestion: "Migrate copies of stores of this package: ModelConfiguration or PostgresConfiguration")
        }
        let copy = try previewing.temporaryCopy()
        defer { copy.remove() }
        _ = try ModelContainer(schema: schema, migrationPlan: migrationPlan, configurations: [copy.configuration])
    }
}
