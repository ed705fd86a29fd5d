extension Schema.Entity {
    /// The relationships the entity's class declares (inherited ones are its superentity's).
    package var ownRelationships: [Schema.Relationship] {
        storedProperties.compactMap { $0 as? Schema.Relationship }
    }

    /// The number of persisted properties the entity inherits: its own are numbered after them.
    package var inheritedCount: Int { indexedProperties.count - storedProperties.count }

    /// The entity at the top of the entity's hierarchy: itself, when it has no superentity.
    package var rootEntity: Schema.Entity {
        // Most entities are in no hierarchy: the flag says so without loading the weak reference.
        isInHierarchy ? superentity?.rootEntity ?? self : self
    }

    /// Whether a store's fetch of the entity reports each row's entity name: rows may be of its subentities, whose
    /// models are of their own classes (see `RowStore.fetch`).
    package var fetchReadsEntity: Bool { isInHierarchy && !subentities.isEmpty }

    /// The entity and every entity below it, parents before their subentities, siblings by name: the entities
    /// whose models a fetch of this entity returns.
    package var selfAndDescendants: [Schema.Entity] {
        [self] + subentities.sorted { $0.name < $1.name }.flatMap(\.selfAndDescendants)
    }

    /// The relationships of the entity and those its subentities add: the ones a model stored as one of its rows
    /// may have (its delete rules apply to rows whose class only the store knows).
    package var relationshipsOfSelfAndDescendants: [Schema.Relationship] {
        subentities.isEmpty
            ? orderedRelationships : orderedRelationships + selfAndDescendants.dropFirst().flatMap(\.ownRelationships)
    }

    /// The entity and every entity above it, nearest first.
    package var selfAndAncestors: [Schema.Entity] {
        [self] + (superentity?.selfAndAncestors ?? [])
    }

    /// Whether `other` is this entity or one below it.
    package func includes(_ other: Schema.Entity) -> Bool {
        other === self || other.superentity.map(includes) == true
    }

    /// The unique constraints a model of this entity must satisfy: its own, then its superentities', each with the
    /// entity whose models it spans (values must differ among that entity's models, subentities included).
    package var inheritedUniquenessConstraints: [(constraint: [String], scope: Schema.Entity)] {
        selfAndAncestors.flatMap { entity in entity.uniquenessConstraints.map { ($0, entity) } }
    }

    // MARK: The table of a hierarchy

    /// The column of a hierarchy's table that names each row's entity (a model cannot declare a property of that
    /// name).
    package static let entityColumn = "_entity"

    /// The entity a row store's table of this root entity is made from: the entity itself outside a hierarchy; for
    /// a hierarchy, the columns of all its entities (a subentity's own attributes nullable: rows of other entities
    /// have none), the entity column, and the root's constraints (the subentities' stay in `subentities`).
    package var tableEntity: Schema.Entity {
        guard !subentities.isEmpty else { return self }
        let table = Schema.Entity(name)
        var names = Set<String>()
        for entity in selfAndDescendants {
            for property in entity.storedProperties where names.insert(property.name).inserted {
                if let attribute = property as? Schema.Attribute {
                    table.orderedAttributes.append(entity === self ? attribute : Self.nullable(attribute))
                } else if let relationship = property as? Schema.Relationship {
                    table.orderedRelationships.append(relationship)
                }
            }
        }
        let entityColumn = Schema.Attribute(name: Self.entityColumn, valueType: String.self, defaultValue: name)
        entityColumn.index = -1
        table.orderedAttributes.append(entityColumn)
        table.uniquenessConstraints = uniquenessConstraints
        table.indices = indices
        for columns in selfAndDescendants.flatMap(\.spatialIndices) where !table.spatialIndices.contains(columns) {
            table.spatialIndices.append(columns)
        }
        for columns in selfAndDescendants.flatMap(\.searchIndices) where !table.searchIndices.contains(columns) {
            table.searchIndices.append(columns)
        }
        table.subentities = subentities
        return table
    }

    /// A copy of a subentity's attribute whose column accepts no value.
    private static func nullable(_ attribute: Schema.Attribute) -> Schema.Attribute {
        let copy = Schema.Attribute(
            name: attribute.name, originalName: attribute.originalName, options: attribute.options,
            valueType: attribute.valueType, defaultValue: attribute.defaultValue, hashModifier: attribute.hashModifier)
        copy.index = attribute.index
        copy.keyPath = attribute.keyPath
        copy.layout = attribute.layout
        copy.coding = attribute.coding
        copy.isOptional = true
        return copy
    }

    /// Whether a column of this table entity belongs to one of its subentities (whose rows alone have values there).
    package func isSubentityColumn(_ name: String) -> Bool {
        subentities.contains { subentity in
            subentity.selfAndDescendants.contains { entity in entity.storedProperties.contains { $0.name == name } }
        }
    }
}
