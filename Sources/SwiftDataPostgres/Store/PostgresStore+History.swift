import Foundation
import SwiftDataCore

/// The PostgreSQL store's history, as Apple's `DefaultStore` provides its own: the same transactions
/// `ModelContext.fetchHistory(_:)` returns, of this store alone.
extension PostgresStore: HistoryProviding {
    /// The PostgreSQL store keeps `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction

    /// The type of the store's transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions of the store's history that `descriptor` selects.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws
        -> [DefaultHistoryTransaction]
    {
        try HistoryQuery(store: rowStore, schema: schema).fetch(descriptor)
    }

    /// Deletes the transactions of the store's history that `descriptor` selects; later ones are kept.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        try HistoryQuery(store: rowStore, schema: schema).delete(descriptor)
    }
}
