import Foundation
import SwiftDataCore

/// Relationships in SQL. A model term's expression is the model's key: the fetched row's `_pk`, a foreign-key
/// column, or a subquery that finds the key. Its columns are read from the fetched row, from a subquery's alias,
/// or by a scalar subquery on the key, which is `NULL` when there is no model (a `nil` to-one, or a key whose row
/// is gone). To-many relationships become `EXISTS` and `count(*)` subqueries over the members' rows.
extension PredicateTranslator {
    /// A column of a model's row.
    func column(_ name: String, of model: SQLTerm, in entity: Schema.Entity) -> SQLExpression {
        switch model.row {
        case .fetched:
            return .column(name)
        case .alias(let alias):
            return .qualifiedColumn(table: alias, column: name)
        case .lookup:
            if name == StoreLayout.keyColumn { return model.expression }
            if case .subquery(var finding) = model.expression, finding.sources.count == 1,
                finding.sources[0].source == .table(StoreLayout.table(of: entity)),
                finding.result == .qualifiedColumn(table: finding.sources[0].alias, column: StoreLayout.keyColumn)
            {
                // The key is found by a subquery over the model's table: it can select the column instead.
                finding.result = .qualifiedColumn(table: finding.sources[0].alias, column: name)
                return .subquery(finding)
            }
            let alias = aliases.next()
            let lookup = SQLSubquery(
                result: .qualifiedColumn(table: alias, column: name),
                sources: [SQLSource(.table(StoreLayout.table(of: entity)), alias: alias)],
                condition: .binary(
                    .qualifiedColumn(table: alias, column: StoreLayout.keyColumn), .equal, model.expression))
            return .subquery(lookup.qualifyingColumns(with: fetchedTable))
        }
    }

    /// The entity a relationship leads to.
    func destination(of relationship: Schema.Relationship) throws -> Schema.Entity {
        guard let destination = schema.entitiesByName[relationship.destination] else {
            throw unsupported(
                "the relationship \(relationship.name) leads to \(relationship.destination), which the store lacks")
        }
        return destination
    }

    /// A relationship of a model: a to-one relationship is the related model (its key); a to-many relationship is
    /// its related rows.
    func relationship(
        _ relationship: Schema.Relationship, of model: SQLTerm, in entity: Schema.Entity, type: Any.Type
    ) throws -> SQLTerm {
        let destination = try destination(of: relationship)
        let owner = column(StoreLayout.keyColumn, of: model, in: entity)
        guard relationship.isToOneRelationship else {
            var term = SQLTerm(expression: owner, type: type, nulls: .never)
            term.related = try relatedRows(relationship, of: owner, destination: destination)
            term.canFail = model.canFail
            return term
        }
        let key: SQLExpression
        switch relationship.storage {
        case .column:
            key = column(relationship.name, of: model, in: entity)
        case .inverseColumn:
            // The other side of a one-to-one holds the key; the first such row is the one a context loads.
            guard let inverse = relationship.inverse else {
                throw unsupported("the relationship \(entity.name).\(relationship.name) has no inverse to read")
            }
            let alias = aliases.next()
            let keyColumn = SQLExpression.qualifiedColumn(table: alias, column: StoreLayout.keyColumn)
            let finding = SQLSubquery(
                result: keyColumn, sources: [SQLSource(.table(StoreLayout.table(of: destination)), alias: alias)],
                condition: .binary(.qualifiedColumn(table: alias, column: inverse.name), .equal, owner),
                orderings: [SQLOrdering(keyColumn, descending: false)], limit: 1)
            key = .subquery(finding.qualifyingColumns(with: fetchedTable))
        case .joinTable:
            throw unsupported("the to-one relationship \(entity.name).\(relationship.name) is kept in a join table")
        }
        var term = SQLTerm(expression: key, type: type)
        term.entity = destination
        term.row = .lookup
        term.canFail = model.canFail
        if model.row == .lookup { term.nullWith = model.expression }
        return term
    }

    /// The rows of a to-many relationship's members for the owner with key `owner`.
    private func relatedRows(
        _ relationship: Schema.Relationship, of owner: SQLExpression, destination: Schema.Entity
    ) throws -> RelatedRows {
        guard let elementType = relationship.destinationType else {
            throw unsupported("the relationship \(relationship.name) has no model type")
        }
        let alias = aliases.next()
        let table = SQLSource(.table(StoreLayout.table(of: destination)), alias: alias)
        switch relationship.storage {
        case .inverseColumn:
            guard let inverse = relationship.inverse else {
                throw unsupported("the relationship \(relationship.name) has no inverse to read")
            }
            let condition = SQLExpression.binary(.qualifiedColumn(table: alias, column: inverse.name), .equal, owner)
            return RelatedRows(
                entity: destination, elementType: elementType, alias: alias, sources: [table], condition: condition)
        case .joinTable(let name, let isOwner):
            let join = aliases.next()
            let columns = StoreLayout.joinColumns(isOwner: isOwner)
            let member = SQLExpression.binary(
                .qualifiedColumn(table: join, column: columns.other), .equal,
                .qualifiedColumn(table: alias, column: StoreLayout.keyColumn))
            let condition = SQLExpression.binary(.qualifiedColumn(table: join, column: columns.this), .equal, owner)
            return RelatedRows(
                entity: destination, elementType: elementType, alias: alias,
                sources: [table, SQLSource(.table(name), alias: join, on: member)], condition: condition)
        case .column:
            throw unsupported("the to-many relationship \(relationship.name) is kept in a column")
        }
    }

    /// `count` and `isEmpty` of related rows.
    func relatedMember(
        _ member: CollectionMember?, of term: SQLTerm, rows: RelatedRows, type: Any.Type
    ) throws -> SQLTerm {
        switch member {
        case .count?:
            let count = rows.subquery(selecting: .countRows)
            var result = SQLTerm(expression: .subquery(count.qualifyingColumns(with: fetchedTable)), type: type)
            result.canFail = term.canFail
            return result
        case .isEmpty?:
            return .condition(.not(exists(rows)), canFail: term.canFail)
        default:
            throw unsupported("only count and isEmpty of a to-many relationship have an SQL translation")
        }
    }

    /// `EXISTS` over related rows that pass `test`.
    func exists(_ rows: RelatedRows, where test: SQLExpression? = nil) -> SQLExpression {
        .exists(rows.subquery(where: test).qualifyingColumns(with: fetchedTable))
    }

    /// A closure's test of a member of related rows, with the closure's parameter bound to the member. A test that
    /// can fail is left to memory: SQL would not meet the members in the order Swift does.
    func memberTest(_ rows: RelatedRows, parameter: PredicateExpressions.VariableID, test: Any) throws -> SQLExpression
    {
        let condition = try binding(parameter, to: rows.member()).condition(test)
        guard !condition.canFail else {
            throw unsupported("a test of a relationship's members that can fail has no SQL translation")
        }
        return condition.expression
    }

    /// Whether `keyPath` is a model's `persistentModelID` (or its `id`, when that is the identifier).
    static func isIdentifier(_ keyPath: AnyKeyPath, of entity: Schema.Entity) -> Bool {
        guard let modelType = entity.modelType else { return false }
        return PredicateReach.identifierKeyPaths(modelType).contains(keyPath)
    }
}
