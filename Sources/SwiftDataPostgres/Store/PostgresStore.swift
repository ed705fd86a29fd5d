import Foundation
import SwiftDataCore

/// The PostgreSQL store: what a `PostgresConfiguration` opens. Contexts read and write it row by row, as they do
/// the default SQLite store, not through snapshots; how it keeps models is described in `PostgresRowStore`.
///
/// An addition to Apple's API. Its snapshot methods (`fetch(_:)`, `save(_:)`, ...) throw
/// `DataStoreError.unsupportedFeature`: use a `ModelContext`.
public final class PostgresStore: _RowStoreDataStore, RowStoreBacked {
    public typealias Configuration = PostgresConfiguration
    public typealias Snapshot = DefaultSnapshot
    /// The store keeps `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction

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

    /// Removes every model the store holds.
    public func erase() throws {
        try store.erase()
    }
}
