import Foundation

/// A store of your own that provides history (Apple's `HistoryProviding`) answers the history requests of the
/// container's contexts itself, under the adapter's lock; a store that does not has no history.
extension SnapshotStoreAdapter: HistoryProvidingSource {
    package func providedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        guard let provider = store as? any HistoryProviding else { return nil }
        return try lock.withLock { try Self.fetch(descriptor, from: provider) }
    }

    package func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        guard let provider = store as? any HistoryProviding else { return false }
        return try lock.withLock { try Self.delete(descriptor, from: provider) }
    }

    /// The provider's transactions, when it keeps transactions of type `T`.
    private static func fetch<Provider: HistoryProviding, T>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> [T]? {
        guard let descriptor = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return nil }
        return try provider.fetchHistory(descriptor).compactMap { $0 as? T }
    }

    /// Deletes the provider's transactions, when it keeps transactions of type `T`; whether it did.
    private static func delete<Provider: HistoryProviding, T>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> Bool {
        guard let descriptor = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return false }
        try provider.deleteHistory(descriptor)
        return true
    }
}
