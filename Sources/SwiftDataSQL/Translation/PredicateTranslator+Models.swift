import Foundation
import SwiftDataCore

/// Models and identifiers compared in SQL, by key. A captured model or identifier is its row's key; one that names
/// no row of this store (an unsaved model, another entity's or another store's identifier) equals no stored model.
extension PredicateTranslator {
    /// `lhs == rhs` (or `!=`) where a side is a model or a `persistentModelID`: the keys compared, `nil` (no
    /// model) equal only to `nil`.
    func modelEquality(_ left: SQLTerm, _ right: SQLTerm, negated: Bool) throws -> SQLTerm {
        guard left.related == nil, right.related == nil else {
            throw unsupported("== on to-many relationships has no SQL translation")
        }
        let canFail = left.canFail || right.canFail
        let keys: (SQLExpression, SQLExpression)?
        switch (left.constant, right.constant) {
        case (nil, nil):
            guard let leftEntity = left.entity ?? left.identifies, let rightEntity = right.entity ?? right.identifies
            else { throw unsupported("a compared model has no SQL translation") }
            // Models of one hierarchy share a table, and so the keys of its rows.
            let sameTable = StoreLayout.table(of: leftEntity) == StoreLayout.table(of: rightEntity)
            keys = sameTable ? (left.expression, right.expression) : nil
        case (let constant?, nil):
            keys = try storedKey(of: constant, comparedWith: right).map {
                (.bind(.int64($0), .integer), right.expression)
            }
        case (nil, let constant?):
            keys = try storedKey(of: constant, comparedWith: left).map {
                (left.expression, .bind(.int64($0), .integer))
            }
        default:
            throw unsupported("comparing two captured models has no SQL translation")
        }
        guard let (lhs, rhs) = keys else {
            guard !canFail else { throw unsupported("a comparison that can fail with a model that has no row") }
            return .condition(negated ? .true : .false)
        }
        return .condition(.binary(lhs, negated ? .notIdentical : .identical, rhs), canFail: canFail)
    }

    /// The key of the row a captured model or identifier names, when it is a row of the store and of the entity of
    /// `other`, the term it is compared with; `nil` when it names none.
    func storedKey(of constant: Any, comparedWith other: SQLTerm) throws -> Int64? {
        guard let entity = other.entity ?? other.identifies else {
            throw unsupported("a captured model compared with a value that is not a model")
        }
        var value = constant
        if let optional = constant as? any _OptionalValue {
            guard let wrapped = optional._wrapped else { return nil }
            value = wrapped
        }
        let identifier: PersistentIdentifier
        if let given = value as? PersistentIdentifier {
            identifier = given
        } else if let model = value as? any PersistentModel {
            identifier = model.persistentModelID
        } else {
            return nil
        }
        guard identifier.entityName == entity.name || sharesTable(identifier.entityName, with: entity),
            let key = identifier.primaryKey
        else { return nil }
        if let storeIdentifier, let other = identifier.storeIdentifier, other != storeIdentifier { return nil }
        return key
    }

    /// `captured.contains(x)` for captured models or identifiers: `x`'s key `IN` the keys of those that have rows;
    /// a captured `nil` matches `nil`.
    func modelMembership(of element: SQLTerm, in values: [Any]) throws -> SQLTerm {
        var keys: [SQLExpression] = []
        var containsNil = false
        for value in values {
            if let optional = value as? any _OptionalValue, optional._wrapped == nil {
                containsNil = true
            } else if let key = try storedKey(of: value, comparedWith: element) {
                keys.append(.bind(.int64(key), .integer))
            }
        }
        guard keys.count <= Self.maximumListLength else {
            throw unsupported("a captured collection of \(keys.count) models is too long for an SQL list")
        }
        var conditions: [SQLExpression] = []
        if !keys.isEmpty {
            conditions.append(.coalesce([.inList(element.expression, keys), .false]))
        }
        if containsNil { conditions.append(.binary(element.expression, .identical, .null)) }
        guard !conditions.isEmpty || !element.canFail else {
            throw unsupported("testing a value that can fail against no captured models")
        }
        let expression = conditions.count == 2 ? .or(conditions[0], conditions[1]) : conditions.first ?? .false
        return .condition(expression, canFail: element.canFail)
    }

    /// Whether the entity named `name` keeps its rows in the table of `entity`: both are of one hierarchy.
    private func sharesTable(_ name: String, with entity: Schema.Entity) -> Bool {
        schema.entitiesByName[name].map { StoreLayout.table(of: $0) == StoreLayout.table(of: entity) } ?? false
    }
}
