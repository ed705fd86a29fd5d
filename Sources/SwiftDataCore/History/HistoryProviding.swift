import Foundation

/// What a store offers to provide history: fetching and deleting its transactions.
///
/// `DefaultStore` conforms, with `DefaultHistoryTransaction`s. A store of your own (`DataStore`) may declare it, but
/// `ModelContext.fetchHistory(_:)` does not consult it yet: a container's history is that of its default stores.
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
