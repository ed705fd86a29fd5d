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

/// Models not registered in any context, made from the rows of a request (with its `properties` and
/// `subentityProperties`) to evaluate a predicate on: of the row's class in a hierarchy.
struct DetachedModels<T: PersistentModel> {
    private let request: FetchRequest<T>
    private let schema: Schema
    /// Where each subentity's own properties start in a row.
    private var starts: [String: Int32] = [:]

    init(_ request: FetchRequest<T>, schema: Schema) {
        self.request = request
        self.schema = schema
        var next = Int32(request.properties.count)
        for level in request.subentityProperties {
            starts[level.entity.name] = next
            next += Int32(level.properties.count)
        }
    }

    /// The model of the statement's current row, with its attributes loaded.
    func model(of row: SQLiteStatement) throws -> T {
        let readsEntity = StoreLayout.readsEntity(request.entity)
        let first: Int32 = readsEntity ? 2 : 1
        let entity = readsEntity && !row.isNull(1) ? schema.entitiesByName[try row.string(1)] : nil
        let model = entity?.modelType.flatMap { make($0) as? T } ?? T(backingData: DefaultBackingData(for: T.self))
        for (offset, property) in request.properties.enumerated() {
            try model._$load(property, from: row, column: first + Int32(offset))
        }
        guard let entity, entity !== request.entity else { return model }
        for level in entity.selfAndAncestors.reversed() {
            guard let start = starts[level.name],
                let own = request.subentityProperties.first(where: { $0.entity === level })?.properties
            else { continue }
            for (offset, property) in own.enumerated() {
                try model._$load(property, from: row, column: first + start + Int32(offset))
            }
        }
        return model
    }

    private func make<M: PersistentModel>(_ type: M.Type) -> M {
        M(backingData: DefaultBackingData(for: M.self))
    }
}
