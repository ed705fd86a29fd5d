import Foundation
import SwiftDataCore

/// Translates `SortDescriptor`s into `ORDER BY` terms with Swift's ordering.
package enum SortTranslator {
    package static func orderings<T: PersistentModel>(
        for descriptors: [SortDescriptor<T>], entity: Schema.Entity, dialect: any SQLDialect
    ) throws -> [SQLOrdering] {
        try descriptors.map { descriptor in
            guard let keyPath = descriptor.keyPath, let index = entity.propertyIndex(for: keyPath),
                let attribute = entity.orderedAttributes.first(where: { $0.index == index })
            else {
                throw SwiftDataError.unsupportedSortDescriptor.with(
                    reason: "the sort key path is not a stored attribute", model: entity.name,
                    property: descriptor.keyPath.map { "\($0)" },
                    suggestion: "Sort by a stored attribute of \(entity.name), or sort the fetched models in Swift")
            }
            var expression = SQLExpression.column(attribute.name)
            let valueType = (attribute.valueType as? any _OptionalValue.Type)?._wrappedType ?? attribute.valueType
            if let comparator = descriptor.stringComparator {
                guard comparator == .lexical || comparator == String.StandardComparator(.lexical, order: .reverse),
                    let collation = dialect.collation(for: .lexical)
                else {
                    throw SwiftDataError.unsupportedSortDescriptor.with(
                        reason: "the string comparator \(comparator) has no SQL translation yet", model: entity.name,
                        property: attribute.name, suggestion: "Sort with .lexical or without a comparator")
                }
                if !collation.isEmpty { expression = .collate(expression, collation) }
            } else if valueType == Decimal.self, let collation = dialect.collation(for: .decimal), !collation.isEmpty {
                expression = .collate(expression, collation)
            }
            return SQLOrdering(expression, descending: descriptor.order == .reverse)
        }
    }
}
