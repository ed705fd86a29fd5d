import Foundation
import SwiftDataCore

/// Apple's initializers, which open the default (SQLite) store for each configuration.
extension ModelContainer {
    /// A container for the given models (and every model their relationships reach).
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema with an array of configurations.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(
            schema: givenSchema, migrationPlan: migrationPlan, configurations: configurations,
            openStore: { try SQLiteStore(configuration: $0, schema: $1, migrationPlan: migrationPlan) })
    }

    /// The configuration needs its label: `ModelContainer(for: Item.self, configurations: config)`.
    @available(*, unavailable, renamed: "init(for:configurations:)")
    public convenience init(for forType: any PersistentModel.Type, _ configuration: ModelConfiguration) throws {
        try self.init(for: forType, configurations: configuration)
    }
}
