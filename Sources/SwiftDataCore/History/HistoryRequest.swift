import Foundation

/// What a fetch or delete of history asks of one store (internal to the package).
package struct HistoryRequest: Sendable {
    /// The transactions to select; all of them when `nil`.
    package var condition: HistoryCondition?
    /// The most transactions to return, in order; all of them when `nil`.
    package var limit: Int?
    /// Whether the newest come first; otherwise the oldest do.
    package var newestFirst = false
    /// The last transaction number the caller has seen: when history after it was deleted, the fetch throws
    /// `SwiftDataError.historyTokenExpired`, since the caller would miss transactions.
    package var after: Int64?

    package init(condition: HistoryCondition? = nil, limit: Int? = nil, newestFirst: Bool = false) {
        self.condition = condition
        self.limit = limit
        self.newestFirst = newestFirst
        self.after = condition?.lowerBound
    }
}

extension HistoryRequest {
    /// The error of a fetch after `request.after` when the history of `store` was deleted up to `deleted`, or `nil`
    /// when nothing the caller has not seen was deleted.
    package func expiry(deletedThrough deleted: Int64?, store: String) -> SwiftDataError? {
        guard let after, let deleted, after < deleted else { return nil }
        return SwiftDataError.historyTokenExpired.with(
            reason:
                "the history of store '\(store)' after transaction \(after) was deleted up to transaction \(deleted)",
            suggestion: "Fetch the whole history again, or keep the transactions until every reader has seen them")
    }
}
