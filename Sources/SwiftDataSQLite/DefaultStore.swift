import Foundation
import SwiftDataCore

/// Apple's default store, here this package's SQLite store: what a `ModelConfiguration` opens. Contexts read and
/// write it row by row, not through snapshots.
///
/// Differences from Apple's: its snapshot methods (`fetch(_:)`, `fetchCount(_:)`, `fetchIdentifiers(_:)`,
/// `save(_:)`, `delete(_:)`, `cachedSnapshots(for:editingState:)`) throw `DataStoreError.unsupportedFeature`: use a
/// `ModelContext`. Its history (`HistoryProviding`) is the one `ModelContext.fetchHistory(_:)` reads.
public final class DefaultStore: _RowStoreDataStore, RowStoreBacked {
    public typealias Configuration = ModelConfiguration
    public typealias Snapshot = DefaultSnapshot
    /// The store keeps `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction
    /// The type of the store's history tokens.
    public typealias TokenType = DefaultHistoryToken

    /// The configuration the store was opened with.
    public let configuration: ModelConfiguration
    /// The configuration's name.
    public let name: String
    /// The models the store holds.
    public let schema: Schema
    /// The identifier the store records, which its models' identifiers carry.
    public var identifier: String { store.identifier }
    private let store: SQLiteStore
    package var rowStore: any RowStore { store }

    /// Opens (creating or migrating it) the SQLite store of a configuration.
    public convenience init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?)
        throws
    {
        try self.init(
            SQLiteStore(
                configuration: configuration, schema: configuration.schema ?? Schema(), migrationPlan: migrationPlan))
    }

    init(_ store: SQLiteStore) {
        self.store = store
        self.configuration = store.configuration
        self.name = store.configuration.name
        self.schema = store.schema
    }

    /// Removes every model the store holds.
    public func erase() throws {
        try store.erase()
    }
}

/// A `ModelConfiguration` opens the default store.
extension ModelConfiguration: DataStoreConfiguration {
    public typealias Store = DefaultStore
}
