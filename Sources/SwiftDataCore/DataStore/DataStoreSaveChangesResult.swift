/// Apple's result of a data store's save: the permanent identifier the store gave each inserted model, by its
/// temporary one.
public final class DataStoreSaveChangesResult<T: DataStoreSnapshot>: Sendable {
    /// The identifier of the store that saved.
    public let storeIdentifier: String
    /// The permanent identifier of each inserted model, by its temporary identifier.
    public let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Snapshots the store changed while saving (values it computed), by identifier: the context takes their values.
    public let snapshotsToReregister: [PersistentIdentifier: T]

    /// The token of the store's history after the save (Apple's, from iOS 27), when the store keeps history.
    public let historyToken: (any HistoryToken)?

    /// A result.
    public convenience init(
        for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: T] = [:]
    ) {
        self.init(
            for: storeIdentifier, remappedIdentifiers: remappedIdentifiers,
            snapshotsToReregister: snapshotsToReregister, historyToken: nil)
    }

    /// A result with the token of the store's history after the save (Apple's, from iOS 27).
    public init(
        for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: T] = [:], historyToken: (any HistoryToken)?
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
        self.historyToken = historyToken
    }
}
