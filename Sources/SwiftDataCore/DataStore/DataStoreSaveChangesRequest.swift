/// Apple's save request a context hands a data store: the snapshots of the models it inserted, updated and deleted.
/// Inserted snapshots have temporary identifiers; so do identifiers of related models inserted by the same save.
public struct DataStoreSaveChangesRequest<SnapshotType: DataStoreSnapshot>: Sendable {
    /// The editing state of the context that saves.
    public let editingState: EditingState
    /// The snapshots of new models, under temporary identifiers.
    public let inserted: [SnapshotType]
    /// The snapshots of changed models.
    public let updated: [SnapshotType]
    /// The snapshots of deleted models.
    public let deleted: [SnapshotType]

    package init(
        editingState: EditingState, inserted: [SnapshotType], updated: [SnapshotType], deleted: [SnapshotType]
    ) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
