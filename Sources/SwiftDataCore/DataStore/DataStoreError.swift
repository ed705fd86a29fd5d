/// Apple's errors a data store throws to the context.
public enum DataStoreError: Error, Hashable, Sendable {
    /// The store cannot run the request's predicate.
    case invalidPredicate
    /// The store prefers the context to evaluate the request's predicate: it is asked again without one, and the
    /// context filters what it returns.
    case preferInMemoryFilter
    /// The store prefers the context to sort: it is asked again without sort descriptors, and the context sorts
    /// what it returns.
    case preferInMemorySort
    /// The store does not support what it was asked to do.
    case unsupportedFeature
}
