import Foundation

/// One transaction of a store's history: the changes one save wrote to the store, when and by whom.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the transaction's token.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The `author` of the context that saved, if it had one.
    var author: String? { get }
    /// The inserts, updates and deletes of the transaction, in the order the save wrote them.
    var changes: [HistoryChange] { get }
    /// The identifier of the store the transaction changed.
    var storeIdentifier: String { get }
    /// When the save committed.
    var timestamp: Date { get }
    /// The transaction's position in its store's history.
    var token: TokenType { get }
    /// The transaction's identifier in its store.
    var transactionIdentifier: TransactionIdentifier { get }
}
