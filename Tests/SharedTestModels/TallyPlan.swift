import SwiftData

/// `TallyV1` and `TallyV2` as versions of a migration plan.
public enum TallySchemaV1: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    public static var models: [any PersistentModel.Type] { [TallyV1.Tally.self] }
}

public enum TallySchemaV2: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    public static var models: [any PersistentModel.Type] { [TallyV2.Tally.self] }
}

/// Version 1 to 2 in a custom stage whose `willMigrate` changes and saves every tally, so that it writes to the
/// table (and waits for a lock another session holds on its rows).
public enum TallyPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [TallySchemaV1.self, TallySchemaV2.self] }
    public static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: TallySchemaV1.self, toVersion: TallySchemaV2.self,
                willMigrate: { context in
                    for tally in try context.fetch(FetchDescriptor<TallyV1.Tally>()) { tally.name += "+" }
                    try context.save()
                }, didMigrate: nil)
        ]
    }
}
