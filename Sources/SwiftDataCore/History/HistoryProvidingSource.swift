import Foundation

/// A container's store whose history a store of your own provides through `HistoryProviding`, rather than Core's
/// history records (internal to the package; `SnapshotStoreAdapter` is one).
package protocol HistoryProvidingSource {
    /// The transactions `descriptor` selects, or `nil` when the store keeps no transactions of type `T`.
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Deletes the transactions `descriptor` selects; `false` when the store keeps no transactions of type `T`.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
    /// The transactions whose tokens come after `token` (all when `nil`), oldest first; `nil` when the store
    /// provides no history. `token` is a token of the store's transactions (`HistoryTransaction.token`).
    func providedTransactions(after token: (any Sendable)?) throws -> [any HistoryTransaction]?
    /// Whether `token` is a token of the store's transactions.
    func isProvidedToken(_ token: any Sendable) -> Bool
}
