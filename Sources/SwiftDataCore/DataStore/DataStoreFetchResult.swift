/// Apple's result of a data store's fetch: the snapshots of the fetched models, and of models they refer to.
public struct DataStoreFetchResult<ModelType: PersistentModel, SnapshotType: DataStoreSnapshot>: Sendable {
    /// The descriptor the store ran.
    public let descriptor: FetchDescriptor<ModelType>
    /// The snapshots of the models the descriptor selects.
    public let fetchedSnapshots: [SnapshotType]
    /// Snapshots of other models, by identifier (those the fetched ones refer to, or more): the context uses them
    /// instead of fetching those models.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// A result.
    public init(
        descriptor: FetchDescriptor<ModelType>, fetchedSnapshots: [SnapshotType],
        relatedSnapshots: [PersistentIdentifier: SnapshotType] = [:]
    ) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}
