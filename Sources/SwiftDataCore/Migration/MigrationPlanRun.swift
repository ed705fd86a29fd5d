/// Core's part of migrating a store with a migration plan: which version of the plan the store is at, and the stages
/// that lead from there to the models' version, run in order with a context on each stage's models. The store
/// (`SchemaMigrationTarget`) changes its tables, inside one transaction that makes the whole run atomic.
package enum MigrationPlanRun {
    /// The version of the plan a store is at: the version whose models the recorded schema describes (as Apple
    /// recognises a store by its entities' version hashes), so that a store written before the app adopted a plan,
    /// by a plain `ModelContainer(for:)`, is recognised as the plan's first version. When several versions describe
    /// the same tables, the version the store records wins, then the earliest. A store whose tables match no
    /// version is taken at the version it records, if the plan lists it; otherwise `nil`.
    package static func storeVersion(
        recorded version: Schema.Version?, in plan: any SchemaMigrationPlan.Type, target: some SchemaMigrationTarget
    ) -> Schema.Version? {
        var exact: [Schema.Version] = []
        var contained: [(version: Schema.Version, entities: Int)] = []
        for versioned in plan.schemas {
            switch target.recordedTables(match: Schema(versionedSchema: versioned)) {
            case .exact: exact.append(versioned.versionIdentifier)
            // A store keeps the tables of models a later version dropped, so a version may match a part of it.
            case .contained(let entities): contained.append((versioned.versionIdentifier, entities))
            case .different: continue
            }
        }
        if let version, exact.contains(version) { return version }
        if let first = exact.first { return first }
        if let version, contained.contains(where: { $0.version == version }) { return version }
        if let best = contained.max(by: { $0.entities < $1.entities }) { return best.version }
        return plan.schemas.map { $0.versionIdentifier }.contains(version ?? Schema.Version(0, 0, 0)) ? version : nil
    }

    /// The container's schema at the version of the plan its models belong to. A container opened as Apple's
    /// "Model your schema with SwiftData" shows, `ModelContainer(for: Trip.self, migrationPlan: TripsPlan.self)`,
    /// gets model types and no version; its version is the plan's version whose models are those types (all of
    /// them, or the fewest more), or else whose schema describes the same entities. The schema's own version stays
    /// when it is one of those versions (`Schema(versionedSchema:)`), and a schema that matches no version of the
    /// plan keeps its version.
    package static func versioned(_ schema: Schema, in plan: any SchemaMigrationPlan.Type) -> Schema {
        func types(_ schema: Schema) -> Set<ObjectIdentifier> {
            Set(schema.entities.compactMap { $0.modelType.map(ObjectIdentifier.init) })
        }
        let given = types(schema)
        let versions = plan.schemas.map { Schema(versionedSchema: $0) }
        let exact = versions.filter { types($0) == given }
        let containing = versions.filter { types($0).isSuperset(of: given) }
            .sorted { types($0).count < types($1).count }
        let alike = versions.filter { version in
            version.entities.count == schema.entities.count
                && version.entities.allSatisfy { schema.entitiesByName[$0.name] == $0 }
        }
        let candidates =
            !exact.isEmpty
            ? exact
            : !containing.isEmpty ? containing.filter { types($0).count == types(containing[0]).count } : alike
        guard let last = candidates.last, !candidates.contains(where: { $0.version == schema.version }) else {
            return schema
        }
        return Schema(entities: schema.entities, version: last.version)
    }

    /// Runs the stages of a migration plan that lead from the store's version to the models' version: the
    /// shortest chain of stages, preferring stages in the plan's order, so that a plan may also lead back to an
    /// older version (a downgrade). A lightweight stage migrates the tables; a custom stage calls `willMigrate`
    /// with a context on the stage's old models, migrates, then calls `didMigrate` with a context on its new ones.
    /// The caller's transaction makes the whole run atomic; an error names the stage that failed.
    package static func run<Target: SchemaMigrationTarget>(
        _ plan: any SchemaMigrationPlan.Type, from stored: Schema.Version, to target: Schema.Version,
        on store: inout Target
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
                    try runStage(willMigrate, schema: Schema(versionedSchema: from), on: store)
                }
                try store.migrateTables(to: Schema(versionedSchema: to))
                if case .custom(_, _, _, let didMigrate?) = stage {
                    try runStage(didMigrate, schema: Schema(versionedSchema: to), on: store)
                }
            } catch let error as SwiftDataError
                where error.storeCode != nil && (error == .storeError || error == .loadIssueModelContainer)
            {
                // The store failed (damaged, locked, full, ...), not the stage: its error says what to do, and keeps
                // its code, by which the store retries a lock another process holds.
                throw error.with(
                    reason: "migration \(name) failed, and the store was left as it was: \(error.reason ?? "\(error)")")
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
    package static func chain(of stages: [MigrationStage], from start: Schema.Version, to target: Schema.Version)
        -> [Int]?
    {
        var paths: [Schema.Version: [Int]] = [start: []]
        var frontier = [start]
        while !frontier.isEmpty, paths[target] == nil {
            var next: [Schema.Version] = []
            for version in frontier {
                for (number, stage) in stages.enumerated() where stage.versions.from.versionIdentifier == version {
                    let to = stage.versions.to.versionIdentifier
                    guard paths[to] == nil, let path = paths[version] else { continue }
                    paths[to] = path + [number]
                    next.append(to)
                }
            }
            frontier = next
        }
        return paths[target]
    }

    /// Calls a stage's closure with a context on the stage's models, over the migration's transaction, and saves
    /// what it changed.
    private static func runStage(
        _ body: (ModelContext) throws -> Void, schema: Schema, on target: some SchemaMigrationTarget
    ) throws {
        let stage = try target.stageStore(for: schema)
        let container = try ModelContainer(
            schema: schema, migrationPlan: nil, configurations: [stage.configuration], openStore: { _ in stage.store })
        let context = ModelContext(container)
        try body(context)
        if context.hasChanges { try context.save() }
    }
}

extension MigrationStage {
    /// The versions a stage migrates between.
    package var versions: (from: any VersionedSchema.Type, to: any VersionedSchema.Type) {
        switch self {
        case .lightweight(let from, let to): (from, to)
        case .custom(let from, let to, _, _): (from, to)
        }
    }
}
