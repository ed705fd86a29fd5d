import Foundation

extension ModelContext {
    /// The transactions of the container's history that `descriptor` selects: one per save of any context or
    /// process to each store, with the context's `author` and the models it inserted, updated and deleted.
    ///
    /// This package's stores keep `DefaultHistoryTransaction`s. A store of your own that conforms to
    /// `HistoryProviding` is asked for its transactions when they are of type `T`; one that does not has no history
    /// (it adds no transactions). The transactions of several stores come oldest first by timestamp, unless
    /// `sortBy` says otherwise. When no store keeps transactions of type `T`, it throws
    /// `SwiftDataError.invalidTransactionFetchRequest`. When history after a token the predicate compares with
    /// (`$0.token > token`) was deleted, it throws `SwiftDataError.historyTokenExpired`: transactions would be
    /// missed. Unsaved changes are not history yet.
    public func fetchHistory<T>(_ descriptor: HistoryDescriptor<T>) throws -> [T] where T: HistoryTransaction {
        var transactions: [T] = []
        var sources = 0
        if let descriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> {
            transactions = try HistoryQuery(container: container).fetch(descriptor).compactMap { $0 as? T }
            sources += 1
        }
        for case let store as any HistoryProvidingSource in container.stores {
            guard let provided = try store.providedHistory(descriptor) else { continue }
            transactions += provided
            sources += 1
        }
        guard sources > 0 else { throw Self.noHistory(of: T.self) }
        guard sources > 1 else { return transactions }
        // Several sources: order and limit what they returned together.
        if descriptor.sortBy.isEmpty {
            transactions.sort {
                ($0.timestamp, $0.storeIdentifier, $0.transactionIdentifier)
                    < ($1.timestamp, $1.storeIdentifier, $1.transactionIdentifier)
            }
        } else {
            transactions.sort(using: descriptor.sortBy)
        }
        if descriptor.fetchLimit > 0, transactions.count > descriptor.fetchLimit {
            transactions.removeLast(transactions.count - Int(clamping: descriptor.fetchLimit))
        }
        return transactions
    }

    /// Deletes the transactions of the container's history that `descriptor` selects (those before a token, say),
    /// to reclaim space; later transactions are kept, and their tokens stay valid. Stores of your own that conform
    /// to `HistoryProviding` with transactions of type `T` delete theirs.
    public func deleteHistory<T>(_ descriptor: HistoryDescriptor<T>) throws where T: HistoryTransaction {
        var deleted = false
        if let descriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> {
            try HistoryQuery(container: container).delete(descriptor)
            deleted = true
        }
        for case let store as any HistoryProvidingSource in container.stores {
            if try store.deleteProvidedHistory(descriptor) { deleted = true }
        }
        if !deleted { throw Self.noHistory(of: T.self) }
    }

    private static func noHistory<T>(of type: T.Type) -> SwiftDataError {
        SwiftDataError.invalidTransactionFetchRequest.with(
            reason: "no store of the container keeps \(T.self) history",
            suggestion: "Use HistoryDescriptor<DefaultHistoryTransaction>, or the transaction type of your store")
    }
}
