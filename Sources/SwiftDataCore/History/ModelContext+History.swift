import Foundation

extension ModelContext {
    /// The transactions of the container's history that `descriptor` selects: one per save of any context or
    /// process to each store, with the context's `author` and the models it inserted, updated and deleted.
    ///
    /// This package's stores keep `DefaultHistoryTransaction`s; a descriptor of another type throws
    /// `SwiftDataError.invalidTransactionFetchRequest`. When history after a token the predicate compares with
    /// (`$0.token > token`) was deleted, it throws `SwiftDataError.historyTokenExpired`: transactions would be
    /// missed. Unsaved changes are not history yet.
    public func fetchHistory<T>(_ descriptor: HistoryDescriptor<T>) throws -> [T] where T: HistoryTransaction {
        let transactions = try HistoryQuery(container: container).fetch(try defaultDescriptor(descriptor))
        return transactions.compactMap { $0 as? T }
    }

    /// Deletes the transactions of the container's history that `descriptor` selects (those before a token, say),
    /// to reclaim space; later transactions are kept, and their tokens stay valid.
    public func deleteHistory<T>(_ descriptor: HistoryDescriptor<T>) throws where T: HistoryTransaction {
        try HistoryQuery(container: container).delete(try defaultDescriptor(descriptor))
    }

    private func defaultDescriptor<T>(_ descriptor: HistoryDescriptor<T>) throws
        -> HistoryDescriptor<DefaultHistoryTransaction>
    {
        guard let descriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> else {
            throw SwiftDataError.invalidTransactionFetchRequest.with(
                reason: "the container's stores keep DefaultHistoryTransaction history, not \(T.self)",
                suggestion: "Use HistoryDescriptor<DefaultHistoryTransaction>")
        }
        return descriptor
    }
}
