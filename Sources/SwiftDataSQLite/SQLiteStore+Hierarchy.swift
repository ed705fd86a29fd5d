import Foundation
import SwiftDataCore
import SwiftDataSQL

/// Model hierarchies in SQLite: one table per hierarchy, named after its root entity (see `StoreLayout`).
///
/// The table's columns are every entity's: the root's as they are, a subentity's own ones nullable (rows of other
/// entities have none), and `_entity`, which names each row's entity. The store creates and migrates that table
/// as it does an entity's: from a description of it as one entity (`Schema.Entity.tableEntity`), recorded with the
/// entities it holds.
extension SQLiteStore {
    /// The indexes of a table: each unique constraint and index of its entities, with the entity names a
    /// subentity's unique constraint is limited to (its values need only differ among that subentity's rows).
    static func tableIndexes(of table: Schema.Entity) -> [(columns: [String], isUnique: Bool, entities: [String]?)] {
        let subentities = table.subentities.sorted { $0.name < $1.name }.flatMap(\.selfAndDescendants)
        var indexes = table.uniquenessConstraints.map { (columns: $0, isUnique: true, entities: [String]?.none) }
        for entity in subentities {
            let names = entity.selfAndDescendants.map(\.name)
            indexes += entity.uniquenessConstraints.map { ($0, true, names) }
        }
        var plain: [[String]] = []
        for columns in table.indices + subentities.flatMap(\.indices) where !plain.contains(columns) {
            plain.append(columns)
        }
        return indexes + plain.map { ($0, false, nil) }
    }

    /// The `WHERE` clause of a partial index over the rows of the given entities.
    static func entityClause(_ entities: [String]) -> String {
        let dialect = SQLiteDialect()
        let names = entities.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ", ")
        return " WHERE \(dialect.quote(StoreLayout.entityColumn)) IN (\(names))"
    }
}
