import Foundation

/// What a context asks a store to compute over the rows a fetch request selects (`RowStore.fetchAggregates`):
/// the values of `groups` that make a group (none: one group of every row), then `terms` for each group, the groups
/// kept by `condition`, in the order of `orderings` and then of their keys. Key paths are attributes of the fetched
/// model or of models it reaches through to-one relationships, checked by the context before a store sees them.
package struct AggregateQuery {
    /// The key paths whose values make a group, in the order their columns come.
    package var groups: [AnyKeyPath] = []
    /// The values computed for each group, in the order their columns come after the groups'.
    package var terms: [AggregateTerm] = []
    /// The condition a group must meet (SQL's `HAVING`), if any.
    package var condition: AggregateCondition?
    /// How groups are ordered before their keys order them.
    package var orderings: [AggregateOrdering] = []

    package init() {}

    /// Every term the query computes: `terms`, then those only its condition and orderings read.
    package var allTerms: [AggregateTerm] {
        var all = terms
        var conditions = condition.map { [$0] } ?? []
        while let condition = conditions.popLast() {
            switch condition {
            case .compare(let term, _, _): if !all.contains(term) { all.append(term) }
            case .and(let lhs, let rhs), .or(let lhs, let rhs): conditions += [rhs, lhs]
            case .not(let operand): conditions.append(operand)
            }
        }
        for case .term(let term) in orderings.map(\.target) where !all.contains(term) { all.append(term) }
        return all
    }
}

/// One value computed over the rows of a group.
package struct AggregateTerm: Equatable {
    /// What is computed.
    package enum Function: String, Sendable {
        /// The number of rows (without a key path), or of rows whose value is not `nil`.
        case count
        /// The sum of the values; `NULL` without any.
        case sum
        /// The mean of the values, as a `Double`; `NULL` without any.
        case average
        /// The least value; `NULL` without any.
        case minimum
        /// The greatest value; `NULL` without any.
        case maximum
    }

    package var function: Function
    /// The attribute computed over; `nil` only for a count of rows.
    package var keyPath: AnyKeyPath?

    package init(_ function: Function, _ keyPath: AnyKeyPath?) {
        self.function = function
        self.keyPath = keyPath
    }
}

/// A condition on a group's computed values.
package indirect enum AggregateCondition {
    /// The term's value compared with a value; a `NULL` term meets no comparison.
    case compare(AggregateTerm, Comparison, StoreValue)
    case and(AggregateCondition, AggregateCondition)
    case or(AggregateCondition, AggregateCondition)
    case not(AggregateCondition)

    /// How a term is compared with a value.
    package enum Comparison: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }
}

/// One term of the order of groups: a group key (by its index in `AggregateQuery.groups`) or a computed value, with
/// `nil` first in ascending order as in Swift's sorts.
package struct AggregateOrdering {
    /// What the groups are ordered by.
    package enum Target {
        case group(Int)
        case term(AggregateTerm)
    }

    package var target: Target
    package var descending: Bool

    package init(_ target: Target, descending: Bool) {
        self.target = target
        self.descending = descending
    }
}

extension RowStore {
    /// A store computes no aggregates itself unless it says so: the context computes them from the fetched models.
    package func fetchAggregates<T: PersistentModel>(
        _ request: FetchRequest<T>, query: AggregateQuery, row: (any _RowReader) throws -> Void
    ) throws -> Bool {
        false
    }
}
