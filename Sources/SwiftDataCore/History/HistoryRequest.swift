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
