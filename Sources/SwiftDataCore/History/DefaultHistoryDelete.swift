import Foundation

/// The delete of a model in the history of this package's stores, including models that delete rules and
/// `delete(model:where:)` deleted.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, Hashable {
    /// The type of the change's identifier.
    public typealias ChangeIdentifier = Int64
    /// The type of the transaction's identifier: its number in its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier, which orders the changes of the store's history.
    public let changeIdentifier: Int64
    /// The identifier the deleted model had.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The values of the deleted model's attributes marked `.preserveValueOnDeletion`.
    public let tombstone: HistoryTombstone<Model>
    /// The number of the transaction the change belongs to.
    public let transactionIdentifier: Int64

    package init(
        changeIdentifier: Int64, changedPersistentIdentifier: PersistentIdentifier, transactionIdentifier: Int64,
        tombstone: HistoryTombstone<Model>
    ) {
        self.changeIdentifier = changeIdentifier
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.tombstone = tombstone
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier
            && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
            && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
        hasher.combine(transactionIdentifier)
    }
}
