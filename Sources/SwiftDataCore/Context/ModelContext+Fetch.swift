import Foundation

/// Fetching: Apple's methods, each handing the work to a `Fetcher`.
extension ModelContext {
    /// The part of the context that reads models from its stores.
    var fetcher: Fetcher { Fetcher(context: self, registry: registry) }

    /// The models the descriptor selects, in its order.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        try fetcher.fetch(descriptor)
    }

    /// The number of models the descriptor selects, counted by the store unless unsaved changes matter.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try fetcher.fetchCount(descriptor)
    }

    /// The identifiers of the models the descriptor selects, in its order.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    {
        try fetcher.fetchIdentifiers(descriptor)
    }

    /// The models the descriptor selects, loaded `batchSize` at a time as the collection is read. Throws
    /// `includePendingChangesWithBatchSize` when unsaved changes would have to be merged in.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<T>
    {
        try fetcher.fetch(descriptor, batchSize: batchSize)
    }

    /// The identifiers the descriptor selects, as a collection.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier>
    {
        try fetcher.fetchIdentifiers(descriptor, batchSize: batchSize)
    }

    /// Calls `block` for each model the descriptor selects, loading `batchSize` models at a time and letting go
    /// of each batch afterwards, so memory stays bounded. Unless `allowEscapingMutations` is `true`, a block that
    /// leaves unsaved changes behind makes `enumerate` throw after that batch.
    public func enumerate<T: PersistentModel>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (_ model: T) throws -> Void
    ) throws {
        try fetcher.enumerate(
            fetch, batchSize: batchSize, allowEscapingMutations: allowEscapingMutations, block: block)
    }
}
