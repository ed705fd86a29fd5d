import Foundation

/// The update of a model's properties, in a history transaction.
public protocol HistoryUpdate<Model>: Sendable {
    /// The type of the updated model.
    associatedtype Model: PersistentModel
    /// The type of the change's identifier.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The change's identifier, which orders the changes of the store's history.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the updated model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The key paths of the properties the update changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

extension HistoryUpdate {
    /// The type of a changed property's key path.
    public typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
}
