import Foundation

/// The insert of a model in the history of this package's stores.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable {
    /// The type of the change's identifier.
    public typealias ChangeIdentifier = Int64
    /// The type of the transaction's identifier: its number in its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier, which orders the changes of the store's history.
    public let changeIdentifier: Int64
    /// The identifier of the inserted model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The number of the transaction the change belongs to.
    public let transactionIdentifier: Int64

    package init(
        changeIdentifier: Int64, changedPersistentIdentifier: PersistentIdentifier, transactionIdentifier: Int64
    ) {
        self.changeIdentifier = changeIdentifier
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.transactionIdentifier = transactionIdentifier
    }
}
