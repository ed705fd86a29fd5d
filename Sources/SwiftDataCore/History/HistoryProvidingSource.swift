import Foundation

/// A container's store whose history a store of your own provides through `HistoryProviding`, rather than Core's
/// history records (internal to the package; `SnapshotStoreAdapter` is one).
package protocol HistoryProvidingSource {
    /// The transactions `descriptor` selects, or `nil` when the store keeps no transactions of type `T`.
    func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Deletes the transactions `descriptor` selects; `false` when the store keeps no transactions of type `T`.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
}
