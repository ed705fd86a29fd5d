/// The rules of a lightweight migration, in Core for every store: from the entity a store records to the model's,
/// the changes that keep every stored model (added models, added optional or defaulted properties, removed
/// properties, renames through `originalName`, optionality changes the stored data satisfies, moves into or out of
/// external storage, relationship changes that keep their storage, indexes and unique constraints), or the error
/// that names the model, the property and what to do instead. The store answers questions about its data
/// (`SchemaMigrationTarget`) and applies the result (`EntityMigration`).
package enum SchemaDiff {
    /// The migration of `old`, the entity as the store records it, to `entity`; `nil` when nothing changed.
    package static func migration(
        from old: StoredSchema.StoredEntity, to entity: Schema.Entity, in store: some SchemaMigrationTarget
    ) throws -> EntityMigration? {
        var new = StoredSchema.entity(entity, storage: store.storage)
        new.subentities = old.subentities
        // A hierarchy's table migrates whenever the schema has one: its subentities' indexes are recreated.
        guard old != new || !entity.subentities.isEmpty else { return nil }
        var migration = EntityMigration(entity: entity)
        var used = Set<String>()
        for attribute in entity.orderedAttributes where !attribute.options.contains(.ephemeral) {
            guard let target = new.attributes.first(where: { $0.name == attribute.name }) else { continue }
            let source =
                old.attributes.first { $0.name == attribute.name }
                ?? old.attributes.first {
                    $0.name == attribute.originalName && attribute.originalName != attribute.name
                }
            let fill = try attribute.defaultValue.map { try StoreValue(encoding: $0) }
            let canBeEmpty = target.isOptional || fill != nil || store.acceptsNoValue(storage: target.storage)
            guard let source else {
                if !canBeEmpty, try store.rowCount(of: entity.name) > 0 {
                    throw problem(
                        entity, attribute.name,
                        "the model adds the required property '\(attribute.name)' without a default value",
                        "Give it a default value or make it optional, or migrate with a custom MigrationStage")
                }
                migration.columns.append(.init(name: attribute.name, source: nil, fill: fill))
                migration.changesColumns = true
                continue
            }
            let retyped = source.baseType != target.baseType || source.storage != target.storage
            // A column of another type that holds no values is made anew: there is nothing to convert.
            if retyped, !store.acceptsNoValue(storage: source.storage),
                try store.nilCount(of: entity.name, column: source.name) == store.rowCount(of: entity.name)
            {
                migration.columns.append(.init(name: attribute.name, source: nil, fill: fill))
                migration.changesColumns = true
                continue
            }
            used.insert(source.name)
            if retyped {
                throw problem(
                    entity, attribute.name, "its type changed from \(source.type) to \(target.type)",
                    "Migrate the values with a MigrationStage.custom, or keep the old type")
            }
            if source.isOptional, !canBeEmpty, try store.nilCount(of: entity.name, column: source.name) > 0 {
                throw problem(
                    entity, attribute.name, "it became required, and stored models have no value for it",
                    "Give it a default value, or keep it optional")
            }
            if source.name != attribute.name || source.isOptional != target.isOptional
                || source.options != target.options
            {
                migration.changesColumns = true
            }
            if source.isExternal != attribute.isExternal {
                migration.movedValues.append((attribute.name, attribute.isExternal))
            }
            migration.columns.append(
                .init(name: attribute.name, source: source.name, fill: source.isOptional ? fill : nil))
        }
        if old.attributes.contains(where: { !used.contains($0.name) }) { migration.changesColumns = true }

        let oldColumns = Set(try store.columnNames(of: entity.name))
        try migrateRelationships(old, to: entity, oldColumns: oldColumns, into: &migration, in: store)
        if oldColumns != Set(migration.columns.map(\.name))
            || migration.columns.contains(where: { $0.source != $0.name })
        {
            migration.changesColumns = true
        }
        migration.changesIndexes =
            old.uniquenessConstraints ?? [] != entity.uniquenessConstraints || old.indices ?? [] != entity.indices
            || old.spatialIndices ?? [] != entity.spatialIndices || old.searchIndices ?? [] != entity.searchIndices
            || !entity.subentities.isEmpty
        return migration
    }

    /// The foreign-key columns of to-one relationships, and the join tables the entity owns.
    private static func migrateRelationships(
        _ old: StoredSchema.StoredEntity, to entity: Schema.Entity, oldColumns: Set<String>,
        into migration: inout EntityMigration, in store: some SchemaMigrationTarget
    ) throws {
        let oldRelationships = old.relationships ?? []
        var used = Set<String>()
        for relationship in entity.orderedRelationships {
            let source =
                oldRelationships.first { $0.name == relationship.name }
                ?? oldRelationships.first {
                    $0.name == relationship.originalName && relationship.originalName != relationship.name
                }
            if let source { used.insert(source.name) }
            switch relationship.storage {
            case .column:
                if let source, source.storage != "column" {
                    throw problem(
                        entity, relationship.name,
                        "its storage changed (\(source.description) became \(relationship.name))",
                        "Migrate it with a MigrationStage.custom")
                }
                if source?.name != relationship.name { migration.changesColumns = true }
                // A subentity's required relationship is checked against its rows (`checkHierarchy`).
                if !relationship.isOptional, relationship.isToOneRelationship, source == nil,
                    !entity.isSubentityColumn(relationship.name), try store.rowCount(of: entity.name) > 0
                {
                    throw problem(
                        entity, relationship.name,
                        "the model adds a required relationship that stored models cannot have",
                        "Make the relationship optional, or migrate with a MigrationStage.custom")
                }
                migration.columns.append(.init(name: relationship.name, source: source?.name, fill: nil))
                if let position = relationship.positionColumn {
                    let oldPosition = source.map { Schema.Relationship.positionColumn(of: $0.name) }
                    migration.columns.append(
                        .init(name: position, source: oldPosition.flatMap { oldColumns.contains($0) ? $0 : nil }))
                }
            case .joinTable(let name, true):
                if let source, let oldTable = source.joinTable {
                    // A rename may make this side the owner of the table its inverse owned, whose sides then swap.
                    if oldTable.name != name || !oldTable.isOwner {
                        migration.joinTables.append(.rename(from: oldTable.name, to: name, reversed: !oldTable.isOwner))
                    }
                } else if let source {
                    throw problem(
                        entity, relationship.name,
                        "its storage changed (\(source.description) became a many-to-many relationship)",
                        "Migrate it with a MigrationStage.custom")
                } else {
                    migration.joinTables.append(.create(name))
                }
            case .joinTable, .inverseColumn:
                continue
            }
        }
        for removed in oldRelationships where !used.contains(removed.name) {
            if removed.storage == "column" {
                migration.changesColumns = true
            } else if let table = removed.joinTable, table.isOwner {
                migration.joinTables.append(.drop(table.name))
            }
        }
    }

    /// Refuses unique constraints that the entity's stored models break, naming the duplicate values.
    package static func checkUniqueness(of entity: Schema.Entity, in store: some SchemaMigrationTarget) throws {
        for constraint in entity.uniquenessConstraints {
            let duplicates = try store.duplicates(in: entity.name, columns: constraint)
            if !duplicates.isEmpty {
                throw problem(
                    entity, constraint.joined(separator: ", "),
                    "stored models repeat values that the new unique constraint forbids: \(duplicates.joined(separator: "; "))",
                    "Remove or change the duplicates before adding the constraint")
            }
        }
    }

    static func problem(_ entity: Schema.Entity, _ property: String, _ reason: String, _ fix: String)
        -> SwiftDataError
    {
        SwiftDataError.loadIssueModelContainer.with(
            reason:
                "the store's \(entity.name).\(property) cannot be migrated automatically: \(reason); the store was left untouched",
            model: entity.name, property: property, suggestion: fix)
    }
}
