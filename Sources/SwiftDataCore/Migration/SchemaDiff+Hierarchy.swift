import Foundation

extension SchemaDiff {
    /// Checks a hierarchy's table before it migrates, where the table's own checks cannot see: a subentity's
    /// required property is nullable in the table, so a new one without a default value must find no rows of its
    /// entity. Stored models of entities the schema lacks are refused: their rows would lose their class and values.
    package static func checkHierarchy(
        of root: Schema.Entity, old: StoredSchema.StoredEntity, in store: some SchemaMigrationTarget
    ) throws {
        let table = root.name
        let kept = Set(root.selfAndDescendants.map(\.name))
        for missing in old.subentities ?? [] where !kept.contains(missing.name) {
            let count = try store.rowCount(of: table, entities: [missing.name])
            if count > 0 {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "the store keeps \(count) \(missing.name) models in the table of \(table), and the container lacks \(missing.name); the store was left untouched",
                    model: missing.name, suggestion: "Add \(missing.name) to the container's models")
            }
        }
        // A table that held one entity only has no rows of the subentities.
        guard old.subentities != nil else { return }
        let oldColumns = Set(old.attributes.map(\.name) + (old.relationships ?? []).map(\.name))
        for entity in root.selfAndDescendants.dropFirst() {
            let added = entity.storedProperties.filter { property in
                guard !oldColumns.contains(property.name), !oldColumns.contains(property.originalName),
                    !property.isOptional
                else { return false }
                if let attribute = property as? Schema.Attribute {
                    let storage = store.storage(of: attribute)
                    return attribute.defaultValue == nil && !attribute.options.contains(.ephemeral)
                        && !store.acceptsNoValue(storage: storage)
                }
                return (property as? Schema.Relationship)?.isToOneRelationship == true
            }
            guard let property = added.first else { continue }
            let count = try store.rowCount(of: table, entities: entity.selfAndDescendants.map(\.name))
            if count > 0 {
                throw problem(
                    entity, property.name,
                    "the model adds the required property '\(property.name)' without a default value, and the store has \(entity.name) models",
                    "Give it a default value or make it optional, or migrate with a custom MigrationStage")
            }
        }
    }
}
