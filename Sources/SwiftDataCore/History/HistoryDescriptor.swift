import Foundation

/// Which transactions of a container's history to fetch or delete, in what order, and how many.
///
/// A predicate on tokens (`$0.token > token`), authors (`$0.author == "widget"`), timestamps, transaction
/// identifiers, store, bundle and process identifiers, joined with `&&`, `||` and `!`, runs in the store;
/// anything else is evaluated in memory on the transactions the rest selects.
///
/// ```swift
/// var lastToken: DefaultHistoryToken? = nil  // kept between runs: the token is Codable
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// if let lastToken { descriptor.predicate = #Predicate { $0.token > lastToken } }
/// for transaction in try context.fetchHistory(descriptor) {
///     for change in transaction.changes {
///         switch change {
///         case .insert(let insert): print("inserted", insert.changedPersistentIdentifier)
///         case .update(let update): print("updated", update.changedPersistentIdentifier)
///         case .delete(let delete): print("deleted", delete.changedPersistentIdentifier)
///         @unknown default: break
///         }
///     }
///     lastToken = transaction.token
/// }
/// ```
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// Which transactions to select; all of them when `nil`.
    public var predicate: Predicate<TransactionType>?
    /// The order of the transactions; oldest first when empty (by timestamp across stores).
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The most transactions to fetch; `0`, the default, fetches all of them.
    public var fetchLimit: UInt64 = 0

    /// A descriptor selecting the transactions that match `predicate`, oldest first.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
        self.sortBy = []
    }

    /// A descriptor selecting the transactions that match `predicate`, in `sortBy` order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
