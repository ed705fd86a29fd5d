extension Schema {
    /// A unique constraint or index of a table: its columns, and, for a subentity's, the entity names whose rows it
    /// covers (its values need only differ among that subentity's rows).
    package struct TableIndex: Equatable, Sendable {
        package let columns: [String]
        package let isUnique: Bool
        package let entities: [String]?
    }
}

extension Schema.Entity {
    /// The indexes of the table made from this root entity (`tableEntity`): each unique constraint and index of its
    /// entities, with the entity names a subentity's unique constraint is limited to.
    package var tableIndexes: [Schema.TableIndex] {
        let subentities = subentities.sorted { $0.name < $1.name }.flatMap(\.selfAndDescendants)
        var indexes = uniquenessConstraints.map { Schema.TableIndex(columns: $0, isUnique: true, entities: nil) }
        for entity in subentities {
            let names = entity.selfAndDescendants.map(\.name)
            indexes += entity.uniquenessConstraints.map {
                Schema.TableIndex(columns: $0, isUnique: true, entities: names)
            }
        }
        var plain: [[String]] = []
        for columns in indices + subentities.flatMap(\.indices) where !plain.contains(columns) {
            plain.append(columns)
        }
        return indexes + plain.map { Schema.TableIndex(columns: $0, isUnique: false, entities: nil) }
    }
}
