/// A `DataStore` of this package that contexts read and write row by row (`RowStore`), not through snapshots.
package protocol RowStoreBacked: AnyObject {
    /// The store's rows.
    var rowStore: any RowStore { get }
}

extension ModelContainer {
    /// Opens the store a configuration names: an instance of its `Store` type. A store of this package is used
    /// through its rows; a store of your own through snapshots (`SnapshotStoreAdapter`).
    package static func openStore(
        _ configuration: any DataStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> any RowStore {
        func open<Configuration: DataStoreConfiguration>(_ configuration: Configuration) throws -> any RowStore {
            let store = try Configuration.Store(configuration, migrationPlan: migrationPlan)
            if let backed = store as? any RowStoreBacked { return backed.rowStore }
            return try SnapshotStoreAdapter(store, configurationName: configuration.name)
        }
        return try open(configuration)
    }

    /// A `ModelConfiguration` as a configuration of the store it opens. `ModelConfiguration`'s conformance to
    /// `DataStoreConfiguration`, whose `Store` is the default SQLite store, comes with the SQLite store's module
    /// (which `import SwiftData` brings), so Core finds it at run time.
    package static func storeConfiguration(_ configuration: ModelConfiguration) throws -> any DataStoreConfiguration {
        guard let configuration = configuration as Any as? any DataStoreConfiguration else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "no store opens a ModelConfiguration: the default store's module is not linked",
                suggestion: "Depend on the SwiftData product and import SwiftData")
        }
        return configuration
    }

    /// A configuration as a `ModelConfiguration`, if it is one.
    static func modelConfiguration(_ configuration: any DataStoreConfiguration) -> ModelConfiguration? {
        configuration as Any as? ModelConfiguration
    }

    /// The configuration of a container given none: the default store.
    static func defaultConfiguration() throws -> any DataStoreConfiguration {
        try storeConfiguration(ModelConfiguration())
    }
}
