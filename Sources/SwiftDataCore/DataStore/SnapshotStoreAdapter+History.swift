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

    package func providedTransactions(after token: (any Sendable)?) throws -> [any HistoryTransaction]? {
        guard let provider = store as? any HistoryProviding else { return nil }
        return try lock.withLock { try Self.transactions(after: token, from: provider) }
    }

    package func isProvidedToken(_ token: any Sendable) -> Bool {
        guard let provider = store as? any HistoryProviding else { return false }
        func isToken<Provider: HistoryProviding>(of provider: Provider) -> Bool {
            token is Provider.HistoryType.TokenType
        }
        return isToken(of: provider)
    }

    /// The provider's transactions after `token`, oldest first. They are selected here, from all the store's
    /// transactions: a predicate on the token cannot be built for a token type that is not `Codable`.
    private static func transactions<Provider: HistoryProviding>(
        after token: (any Sendable)?, from provider: Provider
    ) throws -> [any HistoryTransaction] {
        var found = try provider.fetchHistory(HistoryDescriptor<Provider.HistoryType>())
        if let last = token as? Provider.HistoryType.TokenType { found.removeAll { !($0.token > last) } }
        return found.sorted { $0.token < $1.token }
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
