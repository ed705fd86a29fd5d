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
        if let attribute = boolAttribute(sortedBy: keyPath, in: entity) {
            return .column(attribute.name)
        }
        guard let index = entity.propertyIndex(for: keyPath),
            let attribute = entity.orderedAttributes.first(where: { $0.index == index })
        else {
            throw SQLTranslationError(
                reason: "sorting by \(keyPath), which is not a stored attribute of \(entity.name)")
        }
        let column = SQLTerm(expression: .column(attribute.name), type: attribute.valueType)
        guard let comparator = descriptor.stringComparator else { return try translator.orderingKey(column) }
        let comparison: ValueComparison
        switch comparator {
        case .lexical: comparison = .lexical
        case .localizedStandard: comparison = .localizedStandard
        case .localized: comparison = .localized
        default: throw SQLTranslationError(reason: "the string comparator \(comparator) has no SQL translation")
        }
        return try translator.collated(column.expression, comparison)
    }

    /// The `Bool` attribute whose sort key `keyPath` is (see `SortDescriptor.init(_:order:)` for `Bool`s).
    private static func boolAttribute(sortedBy keyPath: AnyKeyPath, in entity: Schema.Entity) -> Schema.Attribute? {
        entity.orderedAttributes.first { attribute in
            SQLValueKind(attribute.valueType) == .bool
                && attribute.keyPath.flatMap(Bool.sortKeyPath(forAttribute:)) == keyPath
        }
    }
}
