import Foundation

extension StoredSchema {
    /// A schema built from what a store records, without the app's model classes: each attribute gets a stand-in
    /// type of its layout (`layout` says how the store keeps its values), each relationship the storage the store
    /// records. A store makes the same tables and indexes for it as for the models, which is what copying a store
    /// needs. A model hierarchy (one table for several entities) is refused.
    package func schema(
        version: Schema.Version, layout: (StoredEntity, StoredAttribute) throws -> ValueCodec.Layout
    ) throws -> Schema {
        var entities: [Schema.Entity] = []
        for stored in self.entities {
            guard stored.subentities == nil else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "\(stored.name) is the table of a model hierarchy, which this cannot rebuild without the models",
                    model: stored.name, suggestion: "Copy the store with the app's own models instead")
            }
            let entity = Schema.Entity(stored.name)
            for attribute in stored.attributes {
                let layout = try layout(stored, attribute)
                let built = Schema.Attribute(
                    name: attribute.name, options: attribute.isExternal ? [.externalStorage] : [],
                    valueType: StoredSchema.standIn(for: layout.valueType))
                built.layout = layout
                built.isOptional = attribute.isOptional
                entity.add(built)
            }
            for relationship in stored.relationships ?? [] {
                let built = Schema.Relationship()
                built.name = relationship.name
                built.originalName = relationship.name
                built.destination = relationship.destination
                built.isToOneRelationship = !relationship.isToMany
                built.isOptional = !relationship.isToMany
                built.inverseName = relationship.inverse
                entity.add(built)
            }
            entity.uniquenessConstraints = stored.uniquenessConstraints ?? []
            entity.indices = stored.indices ?? []
            entity.spatialIndices = stored.spatialIndices ?? []
            entities.append(entity)
        }
        let schema = Schema(entities: entities, version: version)
        // The store's own record of each relationship's place and inverse wins over what the resolver would guess.
        for stored in self.entities {
            for relationship in stored.relationships ?? [] {
                guard let built = schema.entitiesByName[stored.name]?.relationshipsByName[relationship.name] else {
                    continue
                }
                if let (table, isOwner) = relationship.joinTable {
                    built.storage = .joinTable(name: table, isOwner: isOwner)
                } else {
                    built.storage = relationship.storage == "inverse" ? .inverseColumn : .column
                }
                built.inverse = relationship.inverse.flatMap {
                    schema.entitiesByName[relationship.destination]?.relationshipsByName[$0]
                }
                built.inverseName = relationship.inverse
            }
        }
        return schema
    }

    /// A Swift type whose values a store keeps with this meaning.
    static func standIn(for type: StoreValueType) -> Any.Type {
        switch type {
        case .bool: Bool.self
        case .int64: Int64.self
        case .uint64: UInt64.self
        case .double: Double.self
        case .decimal: Decimal.self
        case .string: String.self
        case .data: Data.self
        case .date: Date.self
        case .uuid: UUID.self
        case .url: URL.self
        case .json: [String: String].self
        }
    }
}
