import Foundation

/// Apple's interface for a store of your own: SwiftData reads and writes a model's data through it without knowing
/// how the store keeps it (a file of JSON, a web service, ...).
///
/// A store receives fetch requests and returns snapshots of the models' values; it receives the snapshots of a
/// save's inserted, updated and deleted models and returns the permanent identifiers it gave the inserted ones.
/// Name the store in a configuration type of your own (`DataStoreConfiguration`), and pass that configuration to
/// `ModelContainer(for:configurations:)`.
///
/// Differences from Apple's: stores of this package (the default SQLite store) do not go through snapshots, so
/// calling their snapshot methods directly is not supported; a store's `Snapshot` must be `DefaultSnapshot`; see
/// `SnapshotStoreAdapter` for how a context uses a store of yours.
public protocol DataStore: AnyObject {
    /// The configuration type that names this store.
    associatedtype Configuration: DataStoreConfiguration
    /// The snapshot type the store keeps models' values in: `DefaultSnapshot`.
    associatedtype Snapshot: DataStoreSnapshot

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// A stable identifier of the store; the store identifier of the permanent identifiers it hands out.
    var identifier: String { get }
    /// The models the store holds.
    var schema: Schema { get }

    /// Opens the store of a configuration, whose `schema` the container has set to the models the store holds.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws

    /// The snapshots of the models a request's descriptor selects. A store that leaves the predicate or the sort to
    /// the context throws `DataStoreError.preferInMemoryFilter` or `.preferInMemorySort`, or returns every snapshot
    /// of the model's type: the context filters, sorts and windows what it returns.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot>
    /// The number of models a request selects.
    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int
    /// The identifiers of the models a request selects.
    func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    /// Saves a context's changes, all or nothing, and returns the permanent identifiers given to inserted models.
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>
    /// The snapshots the store has at hand for identifiers, so that a context need not fetch them.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    /// A context with this editing state starts using the store.
    func initializeState(for editingState: EditingState)
    /// A context with this editing state stops using the store: state kept for it can go.
    func invalidateState(for editingState: EditingState)
    /// Removes every model the store holds.
    func erase() throws
}

extension DataStore {
    /// The number of snapshots `fetch(_:)` returns for the request.
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        try fetch(request).fetchedSnapshots.count
    }

    /// The identifiers of the snapshots `fetch(_:)` returns for the request.
    public func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws
        -> [PersistentIdentifier]
    {
        try fetch(request).fetchedSnapshots.map(\.persistentIdentifier)
    }

    /// None: a store without a cache of its own is asked through `fetch(_:)`.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    {
        [:]
    }

    /// Does nothing.
    public func initializeState(for editingState: EditingState) {}

    /// Does nothing.
    public func invalidateState(for editingState: EditingState) {}

    /// Throws `DataStoreError.unsupportedFeature`: a store that can remove its models implements it.
    public func erase() throws {
        throw DataStoreError.unsupportedFeature
    }
}
