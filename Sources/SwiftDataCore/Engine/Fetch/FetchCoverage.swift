/// How much of a fetch request a store runs itself. What it cannot run (a predicate or sort without a
/// translation) the context does in memory: the store then returns every row its partial translation selects
/// (a superset of the request's), in key order when it cannot sort them, and ignores the limit and offset.
package struct FetchCoverage: Equatable, Sendable {
    /// Whether the rows the store returns are exactly those the predicate selects.
    package var predicate: Bool
    /// Whether the store returns the rows in the order of the request's sort descriptors.
    package var sort: Bool

    package init(predicate: Bool, sort: Bool) {
        self.predicate = predicate
        self.sort = sort
    }

    /// Whether the store runs the whole request, limit and offset included.
    package var isComplete: Bool { predicate && sort }
}
