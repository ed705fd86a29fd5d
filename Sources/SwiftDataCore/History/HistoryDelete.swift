import Foundation

/// The delete of a model, in a history transaction, with the values it preserved.
public protocol HistoryDelete<Model>: Sendable {
    /// The type of the deleted model.
    associatedtype Model: PersistentModel
    /// The type of the change's identifier.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The change's identifier, which orders the changes of the store's history.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier the deleted model had.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The values of the deleted model's attributes marked `.preserveValueOnDeletion`.
    var tombstone: HistoryTombstone<Model> { get }
    /// The identifier of the transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
}
