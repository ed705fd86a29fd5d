import Foundation

/// What a store offers to provide history: fetching and deleting its transactions.
///
/// This package's stores provide `DefaultHistoryTransaction`s to `ModelContext.fetchHistory(_:)` through their
/// own interface; Apple's API for custom stores, which would adopt this protocol, is not available here yet.
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
