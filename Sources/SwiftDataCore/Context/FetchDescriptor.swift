import Foundation

/// What to fetch: a predicate, a sort order, a window of results and loading hints.
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    /// The models to return; `nil` returns every model of the type.
    public var predicate: Predicate<T>?
    /// The order of the results; ties keep the store's order.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context are reflected. Defaults to `true`.
    public var includePendingChanges: Bool = true
    /// Accepted; every attribute is fetched for now.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Accepted; relationships are not implemented yet.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
