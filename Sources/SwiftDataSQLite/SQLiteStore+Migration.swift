import Foundation
import SwiftDataCore

extension SQLiteStore {
    /// Runs the stages of a migration plan that lead from the store's version to the models' version, in order:
    /// a lightweight stage migrates the tables; a custom stage calls `willMigrate` with a context on the old
    /// models, migrates, then calls `didMigrate` with a context on the new ones. The caller's transaction makes
    /// the whole run atomic; an error names the stage that failed.
    static func runStages(
        of plan: any SchemaMigrationPlan.Type, from stored: Schema.Version, to target: Schema.Version,
        migrator: inout SQLiteMigrator, configuration: ModelConfiguration, identifier: String, tables: Set<String>,
        external: ExternalStorage?
    ) throws {
        let versions = plan.schemas.map { $0.versionIdentifier }
        guard versions.contains(stored) else {
            throw SwiftDataError.unknownSchema.with(
                reason: "the store was written by schema version \(stored), which the migration plan does not list",
                suggestion: "Add that version's VersionedSchema and a stage from it to the plan")
        }
        if stored > target {
            throw SwiftDataError.backwardMigration.with(
                reason: "the store was written by schema version \(stored), newer than the models' \(target)",
                suggestion: "Open it with the newer version of the program")
        }
        var current = stored
        for (number, stage) in plan.stages.enumerated() where current != target {
            let (from, to) = stage.versions
            guard from.versionIdentifier == current else { continue }
            let name = "stage \(number + 1) (\(from.versionIdentifier) to \(to.versionIdentifier))"
            do {
                if case .custom(_, _, let willMigrate?, _) = stage {
                    try run(
                        willMigrate, schema: Schema(versionedSchema: from), migrator.database, configuration,
                        identifier, external)
                }
                try migrator.migrate(to: Schema(versionedSchema: to), existingTables: [])
                if case .custom(_, _, _, let didMigrate?) = stage {
                    try run(
                        didMigrate, schema: Schema(versionedSchema: to), migrator.database, configuration, identifier,
                        external)
                }
            } catch {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "migration \(name) failed, and the store was left as it was: \(error)",
                    suggestion: "Fix the stage, then open the store again")
            }
            current = to.versionIdentifier
        }
        if current != target {
            throw SwiftDataError.unknownSchema.with(
                reason: "no stages of the migration plan lead from schema version \(current) to \(target)",
                suggestion: "Add a MigrationStage from \(current) to \(target)")
        }
    }

    /// Calls a stage's closure with a context on `schema`, over the migration's connection, and saves what it
    /// changed.
    private static func run(
        _ body: (ModelContext) throws -> Void, schema: Schema, _ database: SQLiteDatabase,
        _ configuration: ModelConfiguration, _ identifier: String, _ external: ExternalStorage?
    ) throws {
        let container = try ModelContainer(
            schema: schema, migrationPlan: nil, configurations: [configuration],
            openStore: { configuration, schema in
                SQLiteStore(
                    sharing: database, configuration: configuration, schema: schema, identifier: identifier,
                    external: external)
            })
        let context = ModelContext(container)
        try body(context)
        if context.hasChanges { try context.save() }
    }
}

extension MigrationStage {
    /// The versions a stage migrates between.
    var versions: (from: any VersionedSchema.Type, to: any VersionedSchema.Type) {
        switch self {
        case .lightweight(let from, let to): (from, to)
        case .custom(let from, let to, _, _): (from, to)
        }
    }
}
