import Foundation

/// A store of this package as Apple's `DataStore` API sees it, whose contexts read and write it row by row (through
/// its `RowStore`), not through snapshots. Its snapshot methods throw `DataStoreError.unsupportedFeature` (use a
/// `ModelContext`), and its history (`HistoryProviding`) is the one `ModelContext.fetchHistory(_:)` reads. The
/// SQLite and PostgreSQL stores adopt it; a store of your own implements `DataStore` instead.
public protocol _RowStoreDataStore: DataStore, DataStoreBatching, HistoryProviding
where Snapshot == DefaultSnapshot, HistoryType == DefaultHistoryTransaction {}

extension _RowStoreDataStore {
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

    /// The type of the store's transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions of the store's history that `descriptor` selects.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws
        -> [DefaultHistoryTransaction]
    {
        try history().fetch(descriptor)
    }

    /// Deletes the transactions of the store's history that `descriptor` selects; later ones are kept.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        try history().delete(descriptor)
    }

    /// The history of the store's rows.
    private func history() throws -> HistoryQuery {
        guard let backed = self as? any RowStoreBacked else { throw DataStoreError.unsupportedFeature }
        return HistoryQuery(store: backed.rowStore, schema: schema)
    }
}
