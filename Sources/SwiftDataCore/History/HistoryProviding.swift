import Foundation

/// What a store offers to provide history: fetching and deleting its transactions.
///
/// `DefaultStore` and `PostgresStore` conform, with `DefaultHistoryTransaction`s. A store of your own (`DataStore`)
/// that conforms is asked by `ModelContext.fetchHistory(_:)` and `deleteHistory(_:)` for descriptors of its
/// `HistoryType`; a store of your own that does not conform has no history.
public protocol HistoryProviding {
    /// The type of the store's transactions.
    associatedtype HistoryType: HistoryTransaction

    /// The transactions `descriptor` selects.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Deletes the transactions `descriptor` selects.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
    /// The type of the store's transactions.
    static var historyType: HistoryType.Type { get }
}
