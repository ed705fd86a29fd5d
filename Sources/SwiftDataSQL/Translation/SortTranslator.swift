import Foundation
import SwiftDataCore

/// Translates `SortDescriptor`s into `ORDER BY` terms with Swift's ordering: a descriptor's `Comparable` order,
/// or its `String` comparator's, with `nil` first in forward order as Foundation's optional comparator puts it.
package enum SortTranslator {
    /// The `ORDER BY` terms of `descriptors`, or `SQLTranslationError` naming one that SQL cannot order by
    /// (the caller then sorts in memory).
    package static func orderings<T: PersistentModel>(
        for descriptors: [SortDescriptor<T>], entity: Schema.Entity, dialect: any SQLDialect
    ) throws -> [SQLOrdering] {
        let translator = PredicateTranslator(entity: entity, dialect: dialect, variables: [:])
        return try descriptors.map { descriptor in
            let expression = try orderingKey(descriptor, entity: entity, translator: translator)
            return SQLOrdering(expression, descending: descriptor.order == .reverse)
        }
    }

    private static func orderingKey<T>(
        _ descriptor: SortDescriptor<T>, entity: Schema.Entity, translator: PredicateTranslator
    ) throws -> SQLExpression {
        guard let keyPath = descriptor.keyPath else {
            throw SQLTranslationError(reason: "a sort descriptor without a key path has no SQL translation")
        }
        // An attribute's own key path is found at once; only other key paths can be sort keys, whose search
        // builds several key paths per attribute.
        let index = entity.propertyIndex(for: keyPath)
        if index == nil, let (attribute, key) = sortKey(keyPath, in: entity) {
            switch key {
            case .bool: return .column(attribute.name)
            case .localizedStandard: return try translator.collated(.column(attribute.name), .localizedStandard)
            case .localized: return try translator.collated(.column(attribute.name), .localized)
            }
        }
        guard let index,
            let attribute = entity.orderedAttributes.first(where: { $0.index == index })
        else {
            throw SQLTranslationError(
                reason: "sorting by \(keyPath), which is not a stored attribute of \(entity.name)")
        }
        let column = SQLTerm(expression: .column(attribute.name), type: attribute.valueType)
        guard let comparator = descriptor.stringComparator else { return try translator.orderingKey(column) }
        guard comparator == .lexical else {
            throw SQLTranslationError(reason: "the string comparator \(comparator) has no SQL translation")
        }
        return try translator.collated(column.expression, .lexical)
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
