import Foundation

/// The insert of a model, in a history transaction.
public protocol HistoryInsert<Model>: Sendable {
    /// The type of the inserted model.
    associatedtype Model: PersistentModel
    /// The type of the change's identifier.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The change's identifier, which orders the changes of the store's history.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the inserted model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
}
