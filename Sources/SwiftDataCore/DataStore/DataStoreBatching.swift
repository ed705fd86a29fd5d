/// Apple's interface for a data store that deletes the models a predicate selects itself, without the context
/// fetching them first.
public protocol DataStoreBatching: DataStore {
    /// Deletes every model of the request's type that its predicate selects (all of them without one).
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}
