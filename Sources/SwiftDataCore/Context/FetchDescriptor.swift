import Foundation

/// What to fetch: a predicate, a sort order, a window of results and loading hints.
///
/// ```swift
/// let now = Date.now
/// var descriptor = FetchDescriptor<Trip>(
///     predicate: #Predicate { $0.startDate > now }, sortBy: [SortDescriptor(\.startDate)])
/// descriptor.fetchLimit = 10
/// let nextTrips = try context.fetch(descriptor)
/// ```
///
/// `@unchecked Sendable`, as Apple's is `Sendable`: its key paths (`propertiesToFetch`,
/// `relationshipKeyPathsForPrefetching`) are immutable values that Swift does not mark `Sendable`.
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    /// The models to return; `nil` returns every model of the type.
    public var predicate: Predicate<T>? {
        didSet { planMemo = FetchPlanMemo() }
    }
    /// The order of the results; ties keep the store's order.
    public var sortBy: [SortDescriptor<T>] {
        didSet { planMemo = FetchPlanMemo() }
    }
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context are reflected. Defaults to `true`.
    public var includePendingChanges: Bool = true
    /// The attributes to read with the fetch; the others are read when first used. Empty reads them all.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships to load with the fetch, one query each, instead of when first read.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []
    /// The plan of the last fetch with this descriptor (see `FetchPlanMemo`): a new, empty one when the predicate or
    /// the sort changes.
    @usableFromInline var planMemo = FetchPlanMemo()

    /// A descriptor of the models `predicate` selects (all of them when `nil`), in the order of `sortBy`.
    // Inlinable: in the caller's module it is specialized for the model, without looking up the descriptor's metadata.
    @inlinable
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
