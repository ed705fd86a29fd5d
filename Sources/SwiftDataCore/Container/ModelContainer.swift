import Foundation
import Synchronization

/// The schema of an app's models and the stores that hold them.
///
/// `ModelContainer` is `Sendable`: share one between actors and give each its own `ModelContext`. Each configuration
/// opens its store: a `ModelConfiguration` the default SQLite store, a configuration of a store of your own that
/// store (see `DataStore`).
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, Person.self)  // …/<executable>/default.store
/// let scratch = try ModelContainer(
///     for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
///
/// `@unchecked Sendable` because every stored property is immutable and `Sendable` or guarded by a `Mutex`, except
/// the main context, which only the main actor reads and writes.
public class ModelContainer: Equatable, @unchecked Sendable, CustomDebugStringConvertible {
    /// The models the container stores.
    public let schema: Schema
    /// The migration plan the container was opened with, if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The `ModelConfiguration`s of the container's stores, each with the schema of the models it holds
    /// (configurations of stores of your own are not listed). Settable, as in Apple's declaration: setting it
    /// replaces the recorded set, and the stores the container opened stay as they are.
    public var configurations: Set<ModelConfiguration> {
        get { recordedConfigurations.withLock { $0 } }
        set { recordedConfigurations.withLock { $0 = newValue } }
    }
    private let recordedConfigurations: Mutex<Set<ModelConfiguration>>

    private let bindings: [ObjectIdentifier: EntityBinding]
    package let stores: [any RowStore]
    /// Carries saves and outside changes to the container's contexts and observers.
    package let changes = ChangeCenter()
    private let watcher = ExternalChangeWatcher()

    /// Opens one store per configuration (`ModelConfiguration()` when there is none); each store holds the entities
    /// of its configuration's schema, or all of the container's schema when it has none. `openStore` opens a
    /// configuration's store once its schema is set; by default, the store its `Store` type opens.
    package init(
        schema givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: [any DataStoreConfiguration],
        openStore: ((any DataStoreConfiguration) throws -> any RowStore)? = nil
    ) throws {
        if let problem = givenSchema.entities.lazy.flatMap(\.problems).first { throw problem }
        // Model types without a version belong to the plan's version that has them.
        let schema = migrationPlan.map { MigrationPlanRun.versioned(givenSchema, in: $0) } ?? givenSchema
        var configurations = configurations.isEmpty ? [try ModelContainer.defaultConfiguration()] : configurations
        let files = configurations.compactMap(ModelContainer.modelConfiguration).filter { !$0.isStoredInMemoryOnly }
        if Set(files.map(\.url)).count < files.count {
            throw SwiftDataError.duplicateConfiguration.with(
                reason: "two configurations name the same store file",
                suggestion: "Give each configuration its own name or URL")
        }
        var bindings: [ObjectIdentifier: EntityBinding] = [:]
        var stores: [any RowStore] = []
        for index in configurations.indices {
            try configurations[index].validate()
            let names = Set(configurations[index].schema?.entities.map(\.name) ?? schema.entities.map(\.name))
            if let missing = names.first(where: { schema.entitiesByName[$0] == nil }) {
                throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                    reason: "configuration '\(configurations[index].name)' names a model the container lacks",
                    model: missing, suggestion: "Add \(missing) to the container's models")
            }
            let entities = schema.entities.filter { names.contains($0.name) }
            // A model hierarchy lives in one table.
            if let entity = entities.first(where: { entity in
                entity.rootEntity.selfAndDescendants.contains { !names.contains($0.name) }
            }) {
                let hierarchy = entity.rootEntity.selfAndDescendants.map(\.name).joined(separator: ", ")
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "configuration '\(configurations[index].name)' holds only part of the model hierarchy \(hierarchy)",
                    model: entity.name, suggestion: "Keep a model class and its subclasses in one configuration")
            }
            configurations[index].schema = Schema(entities: entities, version: schema.version)
            let store =
                try openStore?(configurations[index])
                ?? ModelContainer.openStore(configurations[index], migrationPlan: migrationPlan)
            stores.append(store)
            for entity in entities {
                guard let type = entity.modelType, bindings[ObjectIdentifier(type)] == nil else { continue }
                bindings[ObjectIdentifier(type)] = EntityBinding(entity: entity, store: store)
            }
        }
        self.schema = schema
        self.migrationPlan = migrationPlan
        self.recordedConfigurations = Mutex(Set(configurations.compactMap(ModelContainer.modelConfiguration)))
        self.bindings = bindings
        self.stores = stores
        // A store told of other processes' commits passes them on at once, without waiting for the watcher.
        for store in stores { store.onExternalChange { [weak self] in self?.checkForExternalChanges() } }
    }

    /// The context bound to the main actor, with autosave on. The container and its main context keep each
    /// other alive: once used, the main context lasts as long as the container does, as in Apple's.
    @MainActor
    public var mainContext: ModelContext {
        if let context = _mainContext { return context }
        let context = ModelContext(self, isMainContext: true)
        _mainContext = context
        return context
    }
    @MainActor private var _mainContext: ModelContext?

    /// The entity and store of a model type, or `nil` when the type is not in the schema.
    package func binding(for type: any PersistentModel.Type) -> EntityBinding? {
        bindings[ObjectIdentifier(type)]
    }

    /// The binding of an entity name.
    package func binding(forEntityName name: String) -> EntityBinding? {
        bindings.values.first { $0.entity.name == name }
    }

    /// Tells every context and observer when another process changed a store; returns whether one did.
    @discardableResult
    package func checkForExternalChanges() -> Bool {
        let changed = stores.contains { $0.hasExternalChanges() }
        if changed { changes.post(ChangeCenter.Notice(isExternal: true)) }
        return changed
    }

    /// Checks the stores for other processes' changes every few hundred milliseconds while `owner` lives, and
    /// tells every context and observer of those it finds.
    package func watchForExternalChanges(while owner: AnyObject) {
        watcher.watch(while: owner) { [weak self] in self?.checkForExternalChanges() }
    }

    /// The identifier of the store of the configuration named `name` (what the store records, and what
    /// `PersistentIdentifier.storeIdentifier` holds for its models), or `nil` when no store has that name.
    public func storeIdentifier(forConfigurationNamed name: String) -> String? {
        stores.first { $0.configurationName == name }?.identifier
    }

    /// The name of the configuration whose store has the identifier `identifier`, or `nil` when none has.
    public func configurationName(forStoreIdentifier identifier: String) -> String? {
        stores.first { $0.identifier == identifier }?.configurationName
    }

    /// Removes all data from every store of the container.
    public func erase() throws {
        for store in stores { try store.erase() }
    }

    /// Removes all data from every store; errors are reported on standard error.
    @available(*, deprecated, renamed: "erase", message: "use erase(), which throws")
    public func deleteAllData() {
        do { try erase() } catch { Log.error("deleteAllData failed: \(error)") }
    }

    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs === rhs }

    public var debugDescription: String {
        "ModelContainer(\(schema.entities.map(\.name).joined(separator: ", ")); \(configurations.map(\.debugDescription).joined(separator: ", ")))"
    }
}
