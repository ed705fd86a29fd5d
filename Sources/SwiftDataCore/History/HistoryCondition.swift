import Foundation

/// A condition on the transactions of one store's history, in terms any store can evaluate (internal to the
/// package: Core translates a `HistoryDescriptor`'s predicate into it, and a store into its query language).
package indirect enum HistoryCondition: Sendable, Equatable {
    case constant(Bool)
    case and(HistoryCondition, HistoryCondition)
    case or(HistoryCondition, HistoryCondition)
    case not(HistoryCondition)
    /// The transaction's number (its token's position and its identifier) compared with a value.
    case number(HistoryComparison, Int64)
    /// The transaction's number is one of these.
    case numbers([Int64])
    /// The transaction's timestamp compared with a date.
    case timestamp(HistoryComparison, Date)
    /// A text field is (or, when `isEqual` is false, is not) the value; `nil` is a transaction without one.
    case text(HistoryTextField, isEqual: Bool, String?)

    /// The conjunction, simplified where a side is constant.
    package static func && (lhs: HistoryCondition, rhs: HistoryCondition) -> HistoryCondition {
        switch (lhs, rhs) {
        case (.constant(false), _), (_, .constant(false)): .constant(false)
        case (.constant(true), let other), (let other, .constant(true)): other
        default: .and(lhs, rhs)
        }
    }

    /// The disjunction, simplified where a side is constant.
    package static func || (lhs: HistoryCondition, rhs: HistoryCondition) -> HistoryCondition {
        switch (lhs, rhs) {
        case (.constant(true), _), (_, .constant(true)): .constant(true)
        case (.constant(false), let other), (let other, .constant(false)): other
        default: .or(lhs, rhs)
        }
    }

    /// The negation, simplified where it is constant.
    package static prefix func ! (condition: HistoryCondition) -> HistoryCondition {
        if case .constant(let value) = condition { return .constant(!value) }
        return .not(condition)
    }

    /// The highest number the condition requires a transaction's number to exceed, from its top-level
    /// conjunction (`number > n`, `number >= n + 1`): the transactions up to it are known to the caller.
    package var lowerBound: Int64? {
        switch self {
        case .and(let lhs, let rhs):
            return [lhs.lowerBound, rhs.lowerBound].compactMap { $0 }.max()
        case .number(.greater, let value): return value
        case .number(.greaterOrEqual, let value): return value == .min ? nil : value - 1
        default: return nil
        }
    }
}

/// How a field of a transaction compares with a value.
package enum HistoryComparison: Sendable, Equatable {
    case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    var swapped: HistoryComparison {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: self
        }
    }
}

/// The text fields of a transaction.
package enum HistoryTextField: Sendable, Equatable {
    case author, bundleIdentifier, processIdentifier
}
