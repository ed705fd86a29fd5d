/// Pairs relationships with their inverses and decides where a store keeps each one.
///
/// An inverse is taken from `@Relationship(inverse:)` on either side; without one, a relationship whose
/// destination has exactly one relationship back (and which is the only relationship of its entity to that
/// destination) is paired with it, as Apple's SwiftData does, unless both are to-many: Apple's SwiftData never infers
/// a many-to-many pair, so two arrays between two models without `inverse:` are two independent relationships.
/// Anything else that could pair in more than one way is a problem the container reports, naming the properties. A
/// subentity's inherited relationships are its superentity's, resolved there.
enum RelationshipResolver {
    static func resolve(_ entities: [Schema.Entity]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            // A relationship without a key path (decoded, or built by hand) has its inverse from its name or none.
            for relationship in entity.ownRelationships
            where relationship.inverse == nil && relationship.keypath != nil {
                guard let destination = byName[relationship.destination] else { continue }
                if let inverse = inverse(of: relationship, in: entity, destination: destination, entities: byName) {
                    relationship.inverse = inverse
                    inverse.inverse = relationship
                }
            }
        }
        for entity in entities {
            for relationship in entity.ownRelationships {
                relationship.storage = storage(of: relationship, in: entity)
            }
        }
    }

    /// Whether `keyPath`, written for a model of `entity` (or of a subentity, which roots inherited properties at
    /// itself), names `relationship`.
    private static func keyPath(
        _ keyPath: AnyKeyPath?, names relationship: Schema.Relationship, in entities: [String: Schema.Entity]
    ) -> Bool {
        guard let keyPath else { return false }
        if keyPath == relationship.keypath { return true }
        guard let entity = entities[String(describing: type(of: keyPath).rootType)] else { return false }
        return entity.propertyIndex(for: keyPath) == relationship.index
            && entity.relationship(at: relationship.index)?.name == relationship.name
    }

    /// The inverse of `relationship`, or `nil`; records a problem when the declarations are contradictory or
    /// ambiguous.
    private static func inverse(
        of relationship: Schema.Relationship, in entity: Schema.Entity, destination: Schema.Entity,
        entities: [String: Schema.Entity]
    ) -> Schema.Relationship? {
        // Two to-many sides pair only when one names the other.
        let backward = destination.orderedRelationships.filter {
            $0.destination == entity.name && $0 !== relationship
                && ($0.inverseKeyPath != nil || $0.isToOneRelationship || relationship.isToOneRelationship)
        }
        if let keyPath = relationship.inverseKeyPath {
            guard
                let inverse = destination.orderedRelationships.first(where: {
                    self.keyPath(keyPath, names: $0, in: entities)
                })
            else {
                entity.foundProblems.append(
                    problem(
                        "the inverse of \(entity.name).\(relationship.name) is not a relationship of \(destination.name) back to \(entity.name)",
                        entity, relationship))
                return nil
            }
            if let other = inverse.inverse, other !== relationship {
                entity.foundProblems.append(
                    problem(
                        "\(entity.name).\(relationship.name) and \(entity.name).\(other.name) both name \(destination.name).\(inverse.name) as their inverse",
                        entity, relationship))
                return nil
            }
            if let declared = inverse.inverseKeyPath, !self.keyPath(declared, names: relationship, in: entities) {
                entity.foundProblems.append(
                    problem(
                        "\(entity.name).\(relationship.name) names \(destination.name).\(inverse.name) as its inverse, but \(destination.name).\(inverse.name) names another",
                        entity, relationship))
                return nil
            }
            return inverse
        }
        if let declaring = backward.first(where: { self.keyPath($0.inverseKeyPath, names: relationship, in: entities) })
        {
            return declaring
        }
        let candidates = backward.filter { $0.inverseKeyPath == nil && $0.inverse == nil }
        guard !candidates.isEmpty else { return nil }
        let rivals = entity.orderedRelationships.filter { rival in
            rival.destination == destination.name && rival.inverseKeyPath == nil && rival.inverse == nil
                && rival !== relationship && !candidates.contains { $0 === rival }
                && candidates.contains { $0.isToOneRelationship || rival.isToOneRelationship }
        }
        guard candidates.count == 1, rivals.isEmpty else {
            let names =
                ([relationship] + rivals).map { "\(entity.name).\($0.name)" }
                + candidates.map { "\(destination.name).\($0.name)" }
            entity.foundProblems.append(
                problem(
                    "the inverse of \(entity.name).\(relationship.name) is ambiguous between \(names.joined(separator: ", "))",
                    entity, relationship))
            return nil
        }
        return candidates[0]
    }

    private static func storage(of relationship: Schema.Relationship, in entity: Schema.Entity)
        -> Schema.Relationship.Storage
    {
        guard let inverse = relationship.inverse else {
            return relationship.isToOneRelationship
                ? .column : .joinTable(name: "\(entity.name)_\(relationship.name)", isOwner: true)
        }
        switch (relationship.isToOneRelationship, inverse.isToOneRelationship) {
        case (true, false): return .column
        case (false, true): return .inverseColumn
        case (true, true):
            // One side holds the column: the one that sorts first.
            return isFirst(relationship, in: entity) ? .column : .inverseColumn
        case (false, false):
            let owner = isFirst(relationship, in: entity)
            let ownerName =
                owner ? "\(entity.name)_\(relationship.name)" : "\(relationship.destination)_\(inverse.name)"
            return .joinTable(name: ownerName, isOwner: owner)
        }
    }

    /// Whether `relationship` sorts before its inverse by entity name, then property name.
    private static func isFirst(_ relationship: Schema.Relationship, in entity: Schema.Entity) -> Bool {
        guard let inverse = relationship.inverse else { return true }
        return (entity.name, relationship.name) <= (relationship.destination, inverse.name)
    }

    private static func problem(_ reason: String, _ entity: Schema.Entity, _ relationship: Schema.Relationship)
        -> SwiftDataError
    {
        SwiftDataError.loadIssueModelContainer.with(
            reason: reason, model: entity.name, property: relationship.name,
            suggestion: "Name the inverse on one side with @Relationship(inverse: \\Destination.property)")
    }
}
