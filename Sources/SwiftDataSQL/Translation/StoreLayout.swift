import SwiftDataCore

/// The parts of a store's table layout that translated predicates read, the same in every SQL store: an integer
/// key column in every entity table, and join tables of (`owner`, `member`) pairs for many-to-many relationships
/// and to-many relationships without an inverse.
///
/// A model hierarchy (a `@Model` class and its `@Model` subclasses) has one table, named after its root entity:
/// every column of every entity of the hierarchy, and an entity column naming each row's entity. Fetching the root
/// type is one query over one table, with no join; a subentity's fetch adds a condition on the entity column. Keys
/// are unique across the hierarchy, so a foreign key to any of its entities is a key of that table.
package enum StoreLayout {
    /// The primary key column of every entity table.
    package static let keyColumn = "_pk"

    /// The column of a hierarchy's table that holds each row's entity name.
    package static let entityColumn = Schema.Entity.entityColumn

    /// The join table's column holding this side's key, and the one holding the other side's, for the side that
    /// is (or is not) the table's owner.
    package static func joinColumns(isOwner: Bool) -> (this: String, other: String) {
        isOwner ? ("owner", "member") : ("member", "owner")
    }

    /// The table that holds an entity's rows: its root entity's (its own, outside a hierarchy).
    package static func table(of entity: Schema.Entity) -> String {
        entity.isInHierarchy ? entity.rootEntity.name : entity.name
    }

    /// Whether the entity's table has an entity column: its hierarchy has subentities.
    package static func hasEntityColumn(_ entity: Schema.Entity) -> Bool {
        entity.isInHierarchy
    }

    /// Whether a fetch of the entity reads each row's entity name, to make a model of the row's class: the entity
    /// has subentities (see `RowStore.fetch`).
    package static func readsEntity(_ entity: Schema.Entity) -> Bool {
        entity.fetchReadsEntity
    }

    /// The entity names a fetch of the entity selects (its own and its subentities', or exactly its own), or `nil`
    /// when it selects every row of its table.
    package static func entityNames(selectedBy entity: Schema.Entity, includingSubentities: Bool = true) -> [String]? {
        guard hasEntityColumn(entity) else { return nil }
        if !includingSubentities { return [entity.name] }
        return entity.superentity == nil ? nil : entity.selfAndDescendants.map(\.name)
    }

    /// The condition that keeps the rows of `entity` (and of its subentities, unless `includingSubentities` is
    /// false), given the SQL of the row's entity column; `nil` when every row qualifies.
    package static func entityCondition(
        _ entity: Schema.Entity, column: SQLExpression = .column(entityColumn), includingSubentities: Bool = true
    ) -> SQLExpression? {
        guard let names = entityNames(selectedBy: entity, includingSubentities: includingSubentities) else {
            return nil
        }
        if names.count == 1 { return .binary(column, .equal, .bind(.string(names[0]), .text)) }
        return .inList(column, names.map { .bind(.string($0), .text) })
    }

    /// Problems with storing the schema's hierarchies in one table each: a property named like the entity column,
    /// or two entities that are not above one another declaring properties of the same name, which would share a
    /// column. Sibling attributes of the same type and options may share one; relationships may not.
    package static func hierarchyProblems(in schema: Schema) -> [SwiftDataError] {
        var problems: [SwiftDataError] = []
        for root in schema.entities where root.superentity == nil && !root.subentities.isEmpty {
            var declared: [String: (entity: Schema.Entity, property: any SchemaProperty)] = [:]
            for entity in root.selfAndDescendants {
                for property in entity.storedProperties {
                    if property.name == entityColumn {
                        problems.append(
                            SwiftDataError.loadIssueModelContainer.with(
                                reason: "'\(entityColumn)' is the name of the store's entity column",
                                model: entity.name,
                                property: property.name, suggestion: "Rename the property"))
                    }
                    guard let earlier = declared[property.name] else {
                        declared[property.name] = (entity, property)
                        continue
                    }
                    let shared =
                        (earlier.property as? Schema.Attribute).map { attribute in
                            (property as? Schema.Attribute).map {
                                $0.valueType == attribute.valueType && $0.options == attribute.options
                            } ?? false
                        } ?? false
                    if !shared {
                        problems.append(
                            SwiftDataError.loadIssueModelContainer.with(
                                reason:
                                    "\(earlier.entity.name).\(property.name) and \(entity.name).\(property.name) would share a column of \(root.name)'s table, which holds their whole hierarchy",
                                model: entity.name, property: property.name,
                                suggestion:
                                    "Rename one of them, or give both attributes the same type and options"))
                    }
                }
            }
        }
        return problems
    }
}
