import Foundation
import SwiftDataCore

/// The schema as the PostgreSQL store records it in `_swiftdata_metadata`, to compare with the models when it
/// opens and to migrate from.
struct PostgresStoredSchema: Codable, Equatable {
    var entities: [Entity]

    struct Entity: Codable, Equatable {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship]
        var uniquenessConstraints: [[String]]
        var indices: [[String]]
    }

    struct Attribute: Codable, Equatable {
        var name: String
        /// The Swift type, without its module.
        var type: String
        /// The column's PostgreSQL type.
        var columnType: String
        var isOptional: Bool
        var isExternal: Bool
    }

    struct Relationship: Codable, Equatable {
        var name: String
        var destination: String
        var isToMany: Bool
        /// Where it lives: `column`, `inverse`, or `join:<table>:owner|member`.
        var storage: String
        var positionColumn: String?

        var description: String { "\(name) -> \(isToMany ? "[\(destination)]" : destination)" }
    }

    init(_ schema: Schema) {
        entities = schema.entities.map(Self.entity)
    }

    init(entities: [Entity]) {
        self.entities = entities
    }

    static func entity(_ entity: Schema.Entity) -> Entity {
        Entity(
            name: entity.name,
            attributes: entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }.map { attribute in
                Attribute(
                    name: attribute.name, type: typeName(attribute.valueType),
                    columnType: attribute.postgresType.sqlName, isOptional: attribute.isOptional,
                    isExternal: attribute.isExternal)
            },
            relationships: entity.orderedRelationships.map { relationship in
                let storage: String
                switch relationship.storage {
                case .column: storage = "column"
                case .inverseColumn: storage = "inverse"
                case .joinTable(let table, let isOwner): storage = "join:\(table):\(isOwner ? "owner" : "member")"
                }
                return Relationship(
                    name: relationship.name, destination: relationship.destination,
                    isToMany: !relationship.isToOneRelationship, storage: storage,
                    positionColumn: relationship.positionColumn)
            },
            uniquenessConstraints: entity.uniquenessConstraints, indices: entity.indices)
    }

    /// A type's name as Swift code spells it: `String?` rather than `Optional<String>`.
    static func typeName(_ type: Any.Type) -> String {
        if let optional = type as? any _OptionalValue.Type { return typeName(optional._wrappedType) + "?" }
        return String(describing: type)
    }

    /// Whether every entity of `schema` is recorded exactly as its model describes it.
    func holds(_ schema: Schema) -> Bool {
        PostgresStoredSchema(schema).entities.allSatisfy(entities.contains)
    }
}
