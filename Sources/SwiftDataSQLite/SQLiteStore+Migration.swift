import Foundation
import SwiftDataCore

extension SQLiteStore {
    /// The version of the plan a store is at: the version whose models the recorded schema describes (as Apple
    /// recognises a store by its entities' version hashes), so that a store written before the app adopted a
    /// plan, by a plain `ModelContainer(for:)`, is recognised as the plan's first version. When several versions
    /// describe the same tables, the version the store records wins, then the earliest. A store whose tables
    /// match no version is taken at the version it records, if the plan lists it; otherwise `nil`.
    static func storeVersion(
        of recorded: StoredSchema, recorded version: Schema.Version?, in plan: any SchemaMigrationPlan.Type
    ) -> Schema.Version? {
        let recordedNames = Set(recorded.entities.map(\.name))
        var exact: [Schema.Version] = []
        var contained: [(version: Schema.Version, entities: Int)] = []
        for versioned in plan.schemas {
            let entities = StoredSchema(Schema(versionedSchema: versioned)).entities
            guard entities.allSatisfy({ recorded.entities.contains($0) }) else { continue }
            // A store keeps the tables of models a later version dropped, so a version may match a part of it.
            if Set(entities.map(\.name)) == recordedNames {
                exact.append(versioned.versionIdentifier)
            } else {
                contained.append((versioned.versionIdentifier, entities.count))
            }
        }
        if let version, exact.contains(version) { return version }
        if let first = exact.first { return first }
        if let version, contained.contains(where: { $0.version == version }) { return version }
        if let best = contained.max(by: { $0.entities < $1.entities }) { return best.version }
        return plan.schemas.map { $0.versionIdentifier }.contains(version ?? Schema.Version(0, 0, 0)) ? version : nil
    }

    /// Runs the stages of a migration plan that lead from the store's version to the models' version: the
    /// shortest chain of stages, preferring stages in the plan's order, so that a plan may also lead back to an
    /// older version (a downgrade). A lightweight stage migrates the tables; a custom stage calls `willMigrate`
    /// with a context on the stage's old models, migrates, then calls `didMigrate` with a context on its new ones.
    /// The caller's transaction makes the whole run atomic; an error names the stage that failed.
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
        guard let chain = chain(of: plan.stages, from: stored, to: target) else {
            if stored > target {
                throw SwiftDataError.backwardMigration.with(
                    reason:
                        "the store was written by schema version \(stored), newer than the models' \(target), and no stages of the plan lead back",
                    suggestion:
                        "Open it with the newer version of the program, or add a stage from \(stored) to \(target)")
            }
            throw SwiftDataError.unknownSchema.with(
                reason: "no stages of the migration plan lead from schema version \(stored) to \(target)",
                suggestion: "Add a MigrationStage from \(stored) to \(target)")
        }
        for number in chain {
            let stage = plan.stages[number]
            let (from, to) = stage.versions
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
        }
    }

    /// The indexes of the fewest stages that lead from `start` to `target`, in the order to run them (a
    /// breadth-first search that tries stages in the plan's order); empty when they are the same, `nil` when no
    /// chain exists.
    static func chain(of stages: [MigrationStage], from start: Schema.Version, to target: Schema.Version) -> [Int]? {
        var paths: [Schema.Version: [Int]] = [start: []]
        var frontier = [start]
        while !frontier.isEmpty, paths[target] == nil {
            var next: [Schema.Version] = []
            for version in frontier {
                for (number, stage) in stages.enumerated() where stage.versions.from.versionIdentifier == version {
                    let to = stage.versions.to.versionIdentifier
                    guard paths[to] == nil else { continue }
                    paths[to] = paths[version]! + [number]
                    next.append(to)
                }
            }
            frontier = next
        }
        return paths[target]
    }

    /// Calls a stage's closure with a context on `schema`, over the migration's connection, and saves what it
    /// changed.
    private static func run(
        _ body: (ModelContext) throws -> Void, schema: Schema, _ database: SQLiteDatabase,
        _ configuration: ModelConfiguration, _ identifier: String, _ external: ExternalStorage?
    ) throws {
        // The stage's contexts see the stage's models, not the final version's that the configuration names.
        var stageConfiguration = configuration
        stageConfiguration.schema = nil
        let container = try ModelContainer(
            schema: schema, migrationPlan: nil, configurations: [stageConfiguration],
            openStore: { configuration in
                SQLiteStore(
                    sharing: database, configuration: stageConfiguration, schema: configuration.schema ?? schema,
                    identifier: identifier, external: external)
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
