extension ModelContainer {
    /// A container for the given models (and every model their relationships reach), with a migration plan and
    /// `ModelConfiguration`s (the default store when there are none).
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema, with a migration plan and `ModelConfiguration`s.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema, with a migration plan and an array of `ModelConfiguration`s.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(
            schema: givenSchema, migrationPlan: migrationPlan,
            configurations: configurations.map(ModelContainer.storeConfiguration))
    }

    /// A container for the given models, with configurations of any stores: `ModelConfiguration`s and
    /// configurations of stores of your own (the default store when there are none).
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration...)
        throws
    {
        try self.init(schema: Schema(forTypes), migrationPlan: nil, configurations: configurations)
    }

    /// A container for a schema, with configurations of any stores.
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(schema: givenSchema, migrationPlan: nil, configurations: configurations)
    }

    /// The configuration needs its label: `ModelContainer(for: Item.self, configurations: config)`.
    @available(*, unavailable, renamed: "init(for:configurations:)")
    public convenience init(for forType: any PersistentModel.Type, _ configuration: ModelConfiguration) throws {
        try self.init(for: forType, configurations: configuration)
    }
}
