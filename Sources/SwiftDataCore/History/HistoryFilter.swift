import Foundation

/// What a predicate on `DefaultHistoryTransaction`s says in terms stores evaluate, before it is resolved for one
/// store: a token becomes the store's number in it, the store identifier a constant.
indirect enum HistoryFilter {
    case constant(Bool)
    case and(HistoryFilter, HistoryFilter)
    case or(HistoryFilter, HistoryFilter)
    case not(HistoryFilter)
    /// The transaction's token compared with a token.
    case token(HistoryComparison, DefaultHistoryToken)
    /// The transaction's identifier (its number) compared with a value.
    case number(HistoryComparison, Int64)
    case timestamp(HistoryComparison, Date)
    case text(HistoryTextField, isEqual: Bool, String?)
    /// The transaction's store is (or is not) the one with this identifier.
    case store(isEqual: Bool, String)

    /// The condition for the transactions of the store `storeIdentifier`, with `DefaultHistoryToken`'s meaning
    /// of comparisons: a token orders the transactions of the stores it covers, and no others.
    func condition(storeIdentifier: String) -> HistoryCondition {
        switch self {
        case .constant(let value): return .constant(value)
        case .and(let lhs, let rhs):
            return lhs.condition(storeIdentifier: storeIdentifier) && rhs.condition(storeIdentifier: storeIdentifier)
        case .or(let lhs, let rhs):
            return lhs.condition(storeIdentifier: storeIdentifier) || rhs.condition(storeIdentifier: storeIdentifier)
        case .not(let filter): return !filter.condition(storeIdentifier: storeIdentifier)
        case .token(let comparison, let token):
            let position = token.number(in: storeIdentifier)
            switch comparison {
            case .equal, .notEqual:
                // A transaction's token covers its store alone, so it equals a token of exactly that store.
                let equal: HistoryCondition =
                    token.storeCount == 1
                    ? position.map { .number(.equal, $0) } ?? .constant(false)
                    : .constant(false)
                return comparison == .equal ? equal : !equal
            default:
                return position.map { .number(comparison, $0) } ?? .constant(false)
            }
        case .number(let comparison, let value): return .number(comparison, value)
        case .timestamp(let comparison, let date): return .timestamp(comparison, date)
        case .text(let field, let isEqual, let value): return .text(field, isEqual: isEqual, value)
        case .store(let isEqual, let identifier): return .constant((identifier == storeIdentifier) == isEqual)
        }
    }
}
