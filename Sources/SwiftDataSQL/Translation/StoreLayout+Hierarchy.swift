import SwiftDataCore

/// What every SQL store does the same way with a hierarchy's table: the columns a fetch reads, the condition that
/// keeps an entity's rows, and the indexes of the table (a subentity's limited to its rows).
extension StoreLayout {
    /// A unique constraint or index of a table (see `Schema.TableIndex`).
    package typealias TableIndex = Schema.TableIndex

    /// The column of a persisted property: an attribute's, or a to-one relationship's foreign key; `nil` for a
    /// property kept elsewhere (a to-many relationship, a join table).
    package static func columnName(of property: Int, in entity: Schema.Entity) -> String? {
        if let attribute = entity.attribute(at: property) { return attribute.name }
        if let relationship = entity.relationship(at: property), relationship.storage == .column {
            return relationship.name
        }
        return nil
    }

    /// The columns a fetch reads after the key(s): for an entity with subentities the entity column first; then the
    /// properties, then each subentity's own (see `RowStore.fetch`).
    package static func fetchColumns(
        _ properties: [Int], of entity: Schema.Entity, subentityProperties: [SubentityProperties]
    ) -> [String] {
        let readsEntity = readsEntity(entity)
        var names: [String] = []
        names.reserveCapacity(properties.count + 1)
        if readsEntity { names.append(entityColumn) }
        for property in properties {
            if let column = columnName(of: property, in: entity) { names.append(column) }
        }
        guard readsEntity else { return names }
        for level in subentityProperties {
            names += level.properties.compactMap { columnName(of: $0, in: level.entity) }
        }
        return names
    }

    /// A request's planned condition, and the one that keeps the rows of its entity in its hierarchy's table, if it
    /// needs one.
    package static func condition<T: PersistentModel>(_ request: FetchRequest<T>, _ planned: SQLExpression?)
        -> SQLExpression?
    {
        guard let scope = entityCondition(request.entity, includingSubentities: request.includesSubentities) else {
            return planned
        }
        return planned.map { .and(scope, $0) } ?? scope
    }

    /// The indexes of a table made from a root entity (see `Schema.Entity.tableIndexes`).
    package static func tableIndexes(of table: Schema.Entity) -> [TableIndex] {
        table.tableIndexes
    }

    /// The `WHERE` clause of a partial index or count over the rows of the given entities, the names written as
    /// string literals (they come from the schema).
    package static func entityClause(_ entities: [String], in dialect: some SQLDialect) -> String {
        let names = entities.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ", ")
        return " WHERE \(dialect.quote(entityColumn)) IN (\(names))"
    }
}
