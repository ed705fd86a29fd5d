import Foundation
import SwiftDataCore

/// The schema as a store records it in its metadata table, to compare with the models when it opens.
struct StoredSchema: Codable, Equatable {
    var entities: [StoredEntity]

    struct StoredEntity: Codable, Equatable {
        var name: String
        var attributes: [StoredAttribute]
        var relationships: [StoredRelationship]? = nil
        var uniquenessConstraints: [[String]]? = nil
        var indices: [[String]]? = nil
        /// The `.rtree` indexes; `nil` when there are none, as in stores written before they existed.
        var spatialIndices: [[String]]? = nil
    }

    struct StoredRelationship: Codable, Equatable {
        var name: String
        var destination: String
        var isToMany: Bool
        var inverse: String?
        /// Where it lives: `column`, `inverse`, or `join:<table>:owner|member`.
        var storage: String

        var description: String { "\(name) -> \(isToMany ? "[\(destination)]" : destination)" }
    }

    struct StoredAttribute: Codable, Equatable {
        var name: String
        /// The Swift type, without its module.
        var type: String
        var storage: StorageClass
        var isOptional: Bool
        /// The attribute's options that matter to the store (`externalStorage`, `ephemeral`).
        var options: [String]? = nil

        var columnDescription: String { "\(name): \(type)" }
    }

    init(_ schema: Schema) {
        entities = schema.entities.map(StoredSchema.entity)
    }

    init(entities: [StoredEntity]) {
        self.entities = entities
    }

    static func entity(_ entity: Schema.Entity) -> StoredEntity {
        StoredEntity(
            name: entity.name,
            attributes: entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }.map { attribute in
                StoredAttribute(
                    name: attribute.name, type: typeName(attribute.valueType),
                    storage: attribute.layout.map(StorageClass.init) ?? .blob, isOptional: attribute.isOptional,
                    options: storedOptions(of: attribute))
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
            spatialIndices: entity.spatialIndices.isEmpty ? nil : entity.spatialIndices)
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
    static func mismatch(stored: StoredEntity, model: StoredEntity) -> String? {
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
