import Synchronization

/// The plan of a descriptor's last fetch, kept with the descriptor so that fetching with it again skips the store's
/// plan lookup: working out the request's shape and finding it in the store's cache costs about as much as reading
/// a handful of rows (12,000 instructions of workload 3's 1,065,000). Only a shared plan is kept (`FetchPlan.isShared`), and it is used again only by the store that
/// made it, for a request of the same shape: the same entity, properties and subentity properties, and a limit and
/// an offset or none (their values are bound when the request runs). A descriptor's copies share the memo until one
/// of them changes its predicate or its sort, which gives that copy a memo of its own (see `FetchDescriptor`).
///
/// Never waits: a fetch that finds the memo in use by another thread (a descriptor shared between threads) asks the
/// store, as if nothing were kept, and a plan that cannot be kept at once is not kept.
///
/// The plan is kept from the descriptor's first fetch, so that its second one already skips the lookup. Keeping it
/// costs a descriptor made for one fetch (a page, a search as the user types) about 250 instructions.
///
/// `@unchecked Sendable`: `entry` is read and written only by the thread that set `inUse`, and a kept plan is never
/// changed.
@usableFromInline
final class FetchPlanMemo: @unchecked Sendable {
    private let inUse = Atomic(false)
    @exclusivity(unchecked) private var entry: Entry?

    /// An empty memo, for a new descriptor (usable from the descriptor's inlinable initializer).
    @usableFromInline
    init() {}

    /// The plan of `request` from `store`: the kept one when it fits, or the store's, kept when it is shared.
    // Inlined, as are `Entry`'s methods: in unspecialized generic code each function of its own looks up the metadata
    // of `FetchRequest<T>` again to read the request's fields.
    @inline(__always)
    func plan<T: PersistentModel>(for request: FetchRequest<T>, from store: any RowStore) -> FetchPlan {
        var keeps = false
        if inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            defer { inUse.store(false, ordering: .releasing) }
            if let entry, entry.fits(request, store) { return entry.plan }
            keeps = true
        }
        let plan = store.prepare(request)
        if keeps, plan.isShared, request.keys == nil {
            let entry = Entry(store: store, request: request, plan: plan)
            if inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                self.entry = entry
                inUse.store(false, ordering: .releasing)
            }
        }
        return plan
    }

    /// A kept plan and what it was made for.
    private struct Entry {
        /// Held weakly: a descriptor does not keep a store open, and a store opened later at the same address is
        /// another store.
        weak var store: AnyObject?
        let entity: ObjectIdentifier
        let properties: [Int]
        let subentityProperties: [SubentityProperties]
        let includesSubentities: Bool
        let hasLimit: Bool
        let hasOffset: Bool
        let plan: FetchPlan

        @inline(__always)
        init<T: PersistentModel>(store: any RowStore, request: FetchRequest<T>, plan: FetchPlan) {
            self.store = store
            entity = ObjectIdentifier(request.entity)
            properties = request.properties
            subentityProperties = request.subentityProperties
            includesSubentities = request.includesSubentities
            hasLimit = request.fetchLimit != nil
            hasOffset = request.fetchOffset != nil
            self.plan = plan
        }

        /// Whether the plan was made by `store` for a request of the same shape as `request`.
        @inline(__always)
        func fits<T: PersistentModel>(_ request: FetchRequest<T>, _ store: any RowStore) -> Bool {
            guard self.store === store, request.keys == nil, entity == ObjectIdentifier(request.entity),
                hasLimit == (request.fetchLimit != nil), hasOffset == (request.fetchOffset != nil),
                includesSubentities == request.includesSubentities, properties == request.properties,
                subentityProperties.count == request.subentityProperties.count
            else { return false }
            return zip(subentityProperties, request.subentityProperties).allSatisfy {
                $0.entity === $1.entity && $0.properties == $1.properties
            }
        }
    }
}
