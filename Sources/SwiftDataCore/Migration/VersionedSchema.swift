/// One version of a schema: the models it contains.
///
/// ```swift
/// enum TripsV1: VersionedSchema {
///     static let versionIdentifier = Schema.Version(1, 0, 0)
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///
///     @Model final class Trip {
///         var name: String
///         init(name: String) { self.name = name }
///     }
/// }
/// ```
public protocol VersionedSchema: SendableMetatype {
    /// The model classes of this version, usually nested in the conforming type.
    static var models: [any PersistentModel.Type] { get }
    /// The version's number; the store records it, and migration plans go from one number to the next.
    static var versionIdentifier: Schema.Version { get }
}

/// How a schema evolved: its versions in order and the stages between them.
///
/// A container opened with a plan recognises the version a store is at by comparing its recorded schema with each
/// version's models, then runs the shortest chain of stages from there to the models' version (a downgrade too,
/// when the plan has a stage for it), all in one transaction: when a stage fails, the store is left as it was.
///
/// ```swift
/// enum TripsV2: VersionedSchema {
///     static let versionIdentifier = Schema.Version(2, 0, 0)
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///
///     @Model final class Trip {
///         @Attribute(originalName: "name") var title: String  // renamed
///         var rating = 0                                       // added, with a default
///         init(title: String) { self.title = title }
///     }
/// }
///
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
///     static var stages: [MigrationStage] { [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self)] }
/// }
///
/// let container = try ModelContainer(for: TripsV2.Trip.self, migrationPlan: TripsMigrationPlan.self)
/// ```
public protocol SchemaMigrationPlan: SendableMetatype {
    /// Every version of the schema, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages from each version to the next.
    static var stages: [MigrationStage] { get }
}

/// A migration between two versions of a schema. `Sendable`, with `@Sendable` closures, as Apple's, so a stage can
/// be a `static let` of a plan in Swift 6.
public enum MigrationStage: Sendable {
    /// A migration the store makes on its own: added, removed and renamed properties and models, and the other
    /// lightweight changes.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A lightweight migration with code around it: `willMigrate` runs with a context on the old version's models
    /// before the tables change, `didMigrate` with a context on the new version's after; what they change is saved.
    @preconcurrency
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (_ context: ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (_ context: ModelContext) throws -> Void)?)
}
