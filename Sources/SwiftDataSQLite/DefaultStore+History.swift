import Foundation
import SwiftDataCore

/// The default store's history, as Apple's provides it: the same transactions `ModelContext.fetchHistory(_:)`
/// returns, of this store alone.
extension DefaultStore: HistoryProviding {
    /// The default store keeps `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction
    /// The type of the store's history tokens.
    public typealias TokenType = DefaultHistoryToken

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
