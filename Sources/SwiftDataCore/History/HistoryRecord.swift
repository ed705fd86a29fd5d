import Foundation

/// What a store records of one save: who saved, when, and the changes (internal to the package).
package struct HistoryEntry: Sendable {
    package var timestamp: Date
    package var author: String?
    package var bundleIdentifier: String
    package var processIdentifier: String
    /// The changes, as `HistoryPayload` encodes them; a store keeps these bytes as they are.
    package var changes: Data

    package init(
        timestamp: Date, author: String?, bundleIdentifier: String, processIdentifier: String, changes: Data
    ) {
        self.timestamp = timestamp
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }
}

extension HistoryEntry {
    /// The program that saves, as its transactions record it: its bundle identifier (or, without one, its name) and
    /// its process identifier. A store that records history reads it when it opens, so that no save pays for
    /// looking them up.
    package static let program = (
        bundleIdentifier: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
        processIdentifier: String(ProcessInfo.processInfo.processIdentifier)
    )
}

/// A transaction of a store's history as the store returns it: its number and what was recorded.
package struct HistoryRecord: Sendable {
    /// The transaction's number: increasing in commit order, never reused.
    package var number: Int64
    package var entry: HistoryEntry

    package init(number: Int64, entry: HistoryEntry) {
        self.number = number
        self.entry = entry
    }
}
