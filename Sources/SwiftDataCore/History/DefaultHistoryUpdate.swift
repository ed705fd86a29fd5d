import Foundation

/// The update of a model in the history of this package's stores.
///
/// `updatedAttributes` names every persisted property the save wrote: attributes, and relationships whose
/// members changed (also on the other side of the relationship, whose inverse changed with it).
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable {
    /// The type of the change's identifier.
    public typealias ChangeIdentifier = Int64
    /// The type of the transaction's identifier: its number in its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier, which orders the changes of the store's history.
    public let changeIdentifier: Int64
    /// The identifier of the updated model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The number of the transaction the change belongs to.
    public let transactionIdentifier: Int64
    /// The key paths of the properties the update changed, in the order the model declares them.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]

    package init(
        changeIdentifier: Int64, changedPersistentIdentifier: PersistentIdentifier, transactionIdentifier: Int64,
        updatedAttributes: [any PartialKeyPath<Model> & Sendable]
    ) {
        self.changeIdentifier = changeIdentifier
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.updatedAttributes = updatedAttributes
    }

    /// Whether the update changed the property at `keyPath`.
    public func containsAttribute(_ keyPath: any PartialKeyPath<Model> & Sendable) -> Bool {
        updatedAttributes.contains { $0 == keyPath }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier
            && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
            && lhs.transactionIdentifier == rhs.transactionIdentifier
            && lhs.updatedAttributes.map { $0 as AnyKeyPath } == rhs.updatedAttributes.map { $0 as AnyKeyPath }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
        hasher.combine(transactionIdentifier)
    }
}
