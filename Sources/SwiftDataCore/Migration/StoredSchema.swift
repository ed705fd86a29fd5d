import Foundation

/// The schema as a store records it, to compare with the models when it opens: what `SchemaDiff` migrates from.
/// Each attribute's `storage` is the store's own word for how it keeps the values (the SQLite store's storage
/// class), so that a change of it is a change of type; the rest describes the models.
package struct StoredSchema: Codable, Equatable, Sendable {
    package var entities: [StoredEntity]

    package struct StoredEntity: Codable, Equatable, Sendable {
        package var name: String
        package var attributes: [StoredAttribute]
        package var relationships: [StoredRelationship]? = nil
        package var uniquenessConstraints: [[String]]? = nil
        package var indices: [[String]]? = nil
        /// The `.rtree` indexes; `nil` when there are none, as in stores written before they existed.
        package var spatialIndices: [[String]]? = nil
        /// The `.search` indexes; `nil` when there are none, as in stores written before they existed.
        package var searchIndices: [[String]]? = nil
        /// For the table of a model hierarchy: the entities below the root that it holds, each as a table of its own
        /// would record it.
        package var subentities: [StoredEntity]? = nil
    }

    package struct StoredRelationship: Codable, Equatable, Sendable {
        package var name: String
        package var destination: String
        package var isToMany: Bool
        package var inverse: String?
        /// Where it lives: `column`, `inverse`, or `join:<table>:owner|member`.
        package var storage: String

        package var description: String { "\(name) -> \(isToMany ? "[\(destination)]" : destination)" }

        /// The join table, when the relationship lives in one.
        package var joinTable: (name: String, isOwner: Bool)? {
            let parts = storage.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "join" else { return nil }
            return (String(parts[1]), parts[2] == "owner")
        }
    }

    package struct StoredAttribute: Codable, Equatable, Sendable {
        package var name: String
        /// The Swift type, without its module.
        package var type: String
        /// How the store keeps the values (its own word for it).
        package var storage: String
        package var isOptional: Bool
        /// The attribute's options that matter to the store (`externalStorage`, `ephemeral`).
        package var options: [String]? = nil

        package var columnDescription: String { "\(name): \(type)" }
        /// The type without the `?` of an optional.
        package var baseType: String { isOptional && type.hasSuffix("?") ? String(type.dropLast()) : type }
        /// Whether the store keeps the values apart from its rows.
        package var isExternal: Bool { options?.contains("externalStorage") == true }
    }

    /// The tables of a schema's entities, one per entity or per hierarchy; `storage` names how the store keeps an
    /// attribute's values.
    package init(_ schema: Schema, storage: (Schema.Attribute) -> String) {
        entities = schema.entities.filter { $0.superentity == nil }.map { StoredSchema.table(of: $0, storage: storage) }
    }

    package init(entities: [StoredEntity]) {
        self.entities = entities
    }

    package static func entity(_ entity: Schema.Entity, storage: (Schema.Attribute) -> String) -> StoredEntity {
        StoredEntity(
            name: entity.name,
            attributes: entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }.map { attribute in
                StoredAttribute(
                    name: attribute.name, type: typeName(attribute.valueType), storage: storage(attribute),
                    isOptional: attribute.isOptional, options: storedOptions(of: attribute))
            },
            relationships: entity.orderedRelationships.map { relationship in
                let storage: String
                switch relationship.storage {
                case .column: storage = "column"
                case .inverseColumn: storage = "inverse"
                case .joinTable(let table, let isOwner): storage = "join:\(table):\(isOwner ? "owner" : "member")"
                }
                return StoredRelationship(
                    name: relationship.name, destination: relationship.destination,
                    isToMany: !relationship.isToOneRelationship, inverse: relationship.inverse?.name, storage: storage)
            },
            uniquenessConstraints: entity.uniquenessConstraints, indices: entity.indices,
            spatialIndices: entity.spatialIndices.isEmpty ? nil : entity.spatialIndices,
            searchIndices: entity.searchIndices.isEmpty ? nil : entity.searchIndices)
    }

    /// The table of a root entity: the entity itself, or the table of its hierarchy with the subentities it holds
    /// (see `Schema.Entity.tableEntity`).
    package static func table(of root: Schema.Entity, storage: (Schema.Attribute) -> String) -> StoredEntity {
        var table = entity(root.tableEntity, storage: storage)
        if !root.subentities.isEmpty {
            table.subentities = root.selfAndDescendants.dropFirst().map { entity($0, storage: storage) }
        }
        return table
    }

    /// The options of an attribute the store records.
    static func storedOptions(of attribute: Schema.Attribute) -> [String]? {
        let options = [Schema.Attribute.Option.externalStorage, .ephemeral].filter(attribute.options.contains)
        return options.isEmpty ? nil : options.map(\.debugDescription)
    }

    /// A type's name as Swift code spells it: `String?` rather than `Optional<String>`.
    static func typeName(_ type: Any.Type) -> String {
        if let optional = type as? any _OptionalValue.Type { return typeName(optional._wrappedType) + "?" }
        return String(describing: type)
    }

    /// Why the stored entity cannot hold the model's, or `nil` when it can.
    package static func mismatch(stored: StoredEntity, model: StoredEntity) -> String? {
        let storedByName = Dictionary(stored.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let modelByName = Dictionary(model.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for attribute in model.attributes {
            guard let old = storedByName[attribute.name] else {
                differences.append("the model adds '\(attribute.columnDescription)'")
                continue
            }
            if old.type != attribute.type || old.storage != attribute.storage || old.isOptional != attribute.isOptional
            {
                differences.append("'\(attribute.name)' was \(old.type), the model has \(attribute.type)")
            }
        }
        for attribute in stored.attributes where modelByName[attribute.name] == nil {
            differences.append("the store has '\(attribute.columnDescription)', which the model lacks")
        }
        let storedRelationships = stored.relationships ?? []
        for relationship in model.relationships ?? [] where !storedRelationships.contains(relationship) {
            let old = storedRelationships.first { $0.name == relationship.name }
            differences.append(
                old.map { "relationship '\($0.description)' became '\(relationship.description)'" }
                    ?? "the model adds relationship '\(relationship.description)'")
        }
        for relationship in storedRelationships
        where !(model.relationships ?? []).contains(where: { $0.name == relationship.name }) {
            differences.append("the store has relationship '\(relationship.description)', which the model lacks")
        }
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }
}
