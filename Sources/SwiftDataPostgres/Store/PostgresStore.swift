import Foundation
import SwiftDataCore

/// The PostgreSQL store: what a `PostgresConfiguration` opens. Contexts read and write it row by row, as they do
/// the default SQLite store, not through snapshots; how it keeps models is described in `PostgresRowStore`.
///
/// An addition to Apple's API. Its snapshot methods (`fetch(_:)`, `save(_:)`, ...) throw
/// `DataStoreError.unsupportedFeature`: use a `ModelContext`.
public final class PostgresStore: DataStore, DataStoreBatching, RowStoreBacked {
    public typealias Configuration = PostgresConfiguration
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: PostgresConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// The identifier the store records, which its models' identifiers carry.
    public var identifier: String { store.identifier }
    private let store: PostgresRowStore
    package var rowStore: any RowStore { store }

    /// Connects to the configuration's database and creates or migrates the store's tables there.
    public init(_ configuration: PostgresConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        store = try PostgresRowStore(
            configuration: configuration, schema: configuration.schema ?? Schema(), migrationPlan: migrationPlan)
        self.configuration = configuration
        self.schema = store.schema
    }

    /// Not supported: fetch through a `ModelContext`.
    public func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<
        T, Snapshot
    > {
        throw DataStoreError.unsupportedFeature
    }

    /// Not supported: count through a `ModelContext`.
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        throw DataStoreError.unsupportedFeature
    }

    /// Not supported: fetch identifiers through a `ModelContext`.
    public func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws
        -> [PersistentIdentifier]
    {
        throw DataStoreError.unsupportedFeature
    }

    /// Not supported: save through a `ModelContext`.
    public func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot> {
        throw DataStoreError.unsupportedFeature
    }

    /// Not supported: delete through `ModelContext.delete(model:where:)`.
    public func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        throw DataStoreError.unsupportedFeature
    }

    /// Not supported: the store keeps no snapshots.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    {
        throw DataStoreError.unsupportedFeature
    }

    /// Removes every model the store holds.
    public func erase() throws {
        try store.erase()
    }
}
