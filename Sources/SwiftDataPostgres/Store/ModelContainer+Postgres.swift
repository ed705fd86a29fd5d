import SwiftDataCore

extension ModelContainer {
    /// A container for a schema whose PostgreSQL stores are migrated with a migration plan: an addition to Apple's
    /// API, whose initializers take a migration plan only with `ModelConfiguration`s.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: PostgresConfiguration...
    ) throws {
        try self.init(schema: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }
}
