import Foundation

extension StoredSchema {
    /// A schema built from what a store records, without the app's model classes: each attribute gets a stand-in
    /// type of its layout (`layout` says how the store keeps a table's values), each relationship the storage the
    /// store records, and a model hierarchy its entities, each a subentity of the one whose properties its own
    /// begin with (see `members(of:)`). A store makes the same tables and indexes for it as for the models, which
    /// is what copying a store needs.
    package func schema(
        version: Schema.Version, layout: (StoredEntity, StoredAttribute) throws -> ValueCodec.Layout
    ) throws -> Schema {
        var entities: [Schema.Entity] = []
        var members: [StoredEntity] = []
        for table in self.entities {
            var layouts: [String: ValueCodec.Layout] = [:]
            for attribute in table.attributes { layouts[attribute.name] = try layout(table, attribute) }
            for (member, superentity) in try StoredSchema.members(of: table) {
                let entity = Schema.Entity(member.name)
                entity.superentityName = superentity
                for attribute in member.attributes {
                    let layout = try layouts[attribute.name] ?? layout(table, attribute)
                    let built = Schema.Attribute(
                        name: attribute.name, options: attribute.isExternal ? [.externalStorage] : [],
                        valueType: StoredSchema.standIn(for: layout.valueType))
                    built.layout = layout
                    built.isOptional = attribute.isOptional
                    entity.add(built)
                }
                for relationship in member.relationships ?? [] {
                    let built = Schema.Relationship()
                    built.name = relationship.name
                    built.originalName = relationship.name
                    built.destination = relationship.destination
                    built.isToOneRelationship = !relationship.isToMany
                    built.isOptional = !relationship.isToMany
                    built.inverseName = relationship.inverse
                    entity.add(built)
                }
                entity.uniquenessConstraints = member.uniquenessConstraints ?? []
                entity.indices = member.indices ?? []
                entity.spatialIndices = member.spatialIndices ?? []
                entity.searchIndices = member.searchIndices ?? []
                entities.append(entity)
            }
            members += [table] + (table.subentities ?? [])
        }
        let schema = Schema(entities: entities, version: version)
        // The store's own record of each relationship's place and inverse wins over what the resolver would guess.
        for stored in members {
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

    /// The entities a table holds, each with only the properties it declares and the name of its superentity: the
    /// table's own entity, or a hierarchy's root and its subentities. A store records a subentity with its
    /// inherited properties first, recorded as its superentity records them, so its superentity is the entity with
    /// the most properties that its own begin with; the root's are those every subentity begins with (a subentity's
    /// own attribute is optional in the table even when it is not in the subentity). When entities with the same
    /// properties could each be the superentity and one of them has a unique constraint (whose rows depend on which
    /// it is), the table is refused.
    static func members(of table: StoredEntity) throws -> [(entity: StoredEntity, superentity: String?)] {
        guard let subentities = table.subentities, !subentities.isEmpty else { return [(table, nil)] }
        var root = table
        root.subentities = nil
        let attributes = table.attributes.filter { $0.name != Schema.Entity.entityColumn }
        root.attributes = Array(
            attributes.enumerated().prefix { index, attribute in
                subentities.allSatisfy { index < $0.attributes.count && $0.attributes[index] == attribute }
            }.map(\.element))
        let relationships = table.relationships ?? []
        root.relationships = Array(
            relationships.enumerated().prefix { index, relationship in
                subentities.allSatisfy {
                    index < ($0.relationships ?? []).count && $0.relationships?[index] == relationship
                }
            }.map(\.element))
        func begins(_ entity: StoredEntity, with parent: StoredEntity) -> Bool {
            entity.attributes.starts(with: parent.attributes)
                && (entity.relationships ?? []).starts(with: parent.relationships ?? [])
        }
        func size(_ entity: StoredEntity) -> Int { entity.attributes.count + (entity.relationships ?? []).count }
        var members: [(entity: StoredEntity, superentity: String?)] = [(root, nil)]
        var full = [root]
        for subentity in subentities {
            let candidates = full.filter { begins(subentity, with: $0) }
            guard let largest = candidates.map(size).max() else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(subentity.name)'s properties do not begin with those of any entity of \(table.name)",
                    model: subentity.name, suggestion: "Copy the store with the app's own models instead")
            }
            let tied = candidates.filter { size($0) == largest }
            if tied.count > 1,
                let constrained = tied.dropFirst(tied[0].name == root.name ? 1 : 0).first(where: {
                    !($0.uniquenessConstraints ?? []).isEmpty
                })
            {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "the store does not tell whether \(subentity.name) is a subentity of \(tied.map(\.name).joined(separator: " or ")), which decides the rows \(constrained.name)'s unique constraint covers",
                    model: subentity.name, suggestion: "Copy the store with the app's own models instead")
            }
            let parent = tied[tied.count - 1]
            var own = subentity
            own.attributes.removeFirst(parent.attributes.count)
            own.relationships?.removeFirst((parent.relationships ?? []).count)
            members.append((own, parent.name))
            full.append(subentity)
        }
        return members
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
