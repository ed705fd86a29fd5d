/// One version of a schema: the models it contains.
public protocol VersionedSchema {
    /// The model classes of this version, usually nested in the conforming type.
    static var models: [any PersistentModel.Type] { get }
    /// The version's number; the store records it, and migration plans go from one number to the next.
    static var versionIdentifier: Schema.Version { get }
}

/// How a schema evolved: its versions in order and the stages between them.
///
/// A container opened with a plan runs, in order, the stages that lead from the version its store records to the
/// version of its models, all in one transaction: when a stage fails, the store is left as it was.
public protocol SchemaMigrationPlan {
    /// Every version of the schema, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages from each version to the next.
    static var stages: [MigrationStage] { get }
}

/// A migration between two versions of a schema.
public enum MigrationStage {
    /// A migration the store makes on its own: added, removed and renamed properties and models, and the other
    /// lightweight changes.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A lightweight migration with code around it: `willMigrate` runs with a context on the old version's models
    /// before the tables change, `didMigrate` with a context on the new version's after; what they change is saved.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: ((_ context: ModelContext) throws -> Void)?,
        didMigrate: ((_ context: ModelContext) throws -> Void)?)
}
