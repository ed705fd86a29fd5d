import Foundation
import SwiftDataCore

/// Translates `SortDescriptor`s into `ORDER BY` terms with Swift's ordering: a descriptor's `Comparable` order,
/// or its `String` comparator's, with `nil` first in forward order as Foundation's optional comparator puts it.
/// A descriptor may sort by an attribute of a related model (`\Animal.category?.name`): models without one (a `nil`
/// relationship on the way) come first, as `nil` does.
package enum SortTranslator {
    /// The `ORDER BY` terms of `descriptors`, or `SQLTranslationError` naming one that SQL cannot order by
    /// (the caller then sorts in memory).
    package static func orderings<T: PersistentModel>(
        for descriptors: [SortDescriptor<T>], entity: Schema.Entity, schema: Schema, dialect: any SQLDialect
    ) throws -> [SQLOrdering] {
        let translator = PredicateTranslator(entity: entity, schema: schema, storeIdentifier: nil, dialect: dialect)
        return try descriptors.map { descriptor in
            let (expression, column) = try orderingKey(descriptor, translator: translator)
            return SQLOrdering(expression, descending: descriptor.order == .reverse, isNullable: column.nulls != .never)
        }
    }

    /// The ordering key of a descriptor, and the term of the value it sorts by.
    private static func orderingKey<T>(
        _ descriptor: SortDescriptor<T>, translator: PredicateTranslator
    ) throws -> (SQLExpression, SQLTerm) {
        guard let keyPath = descriptor.keyPath else {
            throw SQLTranslationError(reason: "a sort descriptor without a key path has no SQL translation")
        }
        let (column, key) = try sortedValue(keyPath, translator: translator)
        return (try orderingKey(descriptor, of: column, sortKey: key, translator: translator), column)
    }

    private static func orderingKey<T>(
        _ descriptor: SortDescriptor<T>, of column: SQLTerm, sortKey key: SortKey?, translator: PredicateTranslator
    ) throws -> SQLExpression {
        switch key {
        case .bool?: return column.expression
        case .localizedStandard?: return try translator.collated(column.expression, .localizedStandard)
        case .localized?: return try translator.collated(column.expression, .localized)
        case nil: break
        }
        guard let comparator = descriptor.stringComparator else { return try translator.orderingKey(column) }
        guard comparator == .lexical else {
            throw SQLTranslationError(reason: "the string comparator \(comparator) has no SQL translation")
        }
        return try translator.collated(column.expression, .lexical)
    }

    /// The attribute a key path sorts by, of the fetched model or of a related one, and the sort key a model sort
    /// descriptor appended to it (what aggregates and groups read too).
    static func sortedValue(
        _ keyPath: AnyKeyPath, translator: PredicateTranslator
    ) throws -> (SQLTerm, SortKey?) {
        let entity = translator.entity
        // An attribute's own key path is found at once; only other key paths can be sort keys, whose search
        // builds several key paths per attribute.
        if let index = entity.propertyIndex(for: keyPath), let attribute = entity.attribute(at: index) {
            return (SQLTerm(expression: .column(attribute.name), type: attribute.valueType), nil)
        }
        if let (attribute, key) = sortKey(keyPath, in: entity) {
            return (SQLTerm(expression: .column(attribute.name), type: attribute.valueType), key)
        }
        guard let chain = RelationshipKeyPath(keyPath, from: entity, in: translator.schema) else {
            throw SQLTranslationError(
                reason: "sorting by \(keyPath), which is not a stored attribute of \(entity.name) or of a related model"
            )
        }
        var model = translator.fetchedModel(Any.self)
        var modelEntity = entity
        for relationship in chain.relationships {
            model = try translator.relationship(relationship, of: model, in: modelEntity, type: Any.self)
            modelEntity = try translator.destination(of: relationship)
        }
        let column = translator.column(chain.attribute.name, of: model, in: modelEntity)
        // `NULL` also where a relationship on the way is `nil`.
        return (SQLTerm(expression: column, type: chain.attribute.valueType, nulls: .nilValue), chain.sortKey)
    }

    /// The attribute and sort key of a key path that a model sort descriptor of this module built.
    private static func sortKey(_ keyPath: AnyKeyPath, in entity: Schema.Entity) -> (Schema.Attribute, SortKey)? {
        for attribute in entity.orderedAttributes {
            guard let attributeKeyPath = attribute.keyPath else { continue }
            for key in SortKey.allCases where key.keyPath(sorting: attributeKeyPath) == keyPath {
                return (attribute, key)
            }
        }
        return nil
    }
}
