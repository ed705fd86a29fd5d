/// A fetch request as a store prepared it: how much of it the store runs itself, and the store's own form of it
/// (its SQL), which the store takes back when it runs the request. A store prepares each shape of request once
/// and hands out the same plan for every request of that shape; the context does what the plan leaves
/// (`runRemainder(on:of:window:)`).
package struct FetchPlan {
    /// Which parts of the request the store runs itself.
    package let coverage: FetchCoverage
    /// What the store prepared (`nil` when it prepares nothing); only the store that made it reads it.
    package let prepared: AnyObject?
    /// Whether the plan fits every request of the same shape for as long as the store is open, so that a descriptor
    /// may keep it for its next fetch (see `FetchPlanMemo`). `false` for a plan made for one request only, such as
    /// one whose predicate holds a value the store cannot vouch for.
    package let isShared: Bool

    package init(coverage: FetchCoverage, prepared: AnyObject? = nil, isShared: Bool = false) {
        self.coverage = coverage
        self.prepared = prepared
        self.isShared = isShared
    }
}
