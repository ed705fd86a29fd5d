/// What a managed model holds to keep its context alive: one object per context, shared by the context's models,
/// that holds the context. A context is weakly referenced (by its container and observers), so each retain and
/// release of the context itself takes the runtime's slow path; the anchor is never weakly referenced, so a model
/// registering and going away pays the fast path. It goes away with the last model that holds it, releasing the
/// context; the context's registry makes a new one for the next model.
@usableFromInline
final class ContextAnchor {
    /// The context the models holding this anchor keep alive.
    @usableFromInline let context: ModelContext
    /// `context`, unretained: code that only calls the context lends it from here
    /// (`Unmanaged._withUnsafeGuaranteedRef`), which the anchor keeps alive, rather than retaining and releasing it,
    /// through the slow path.
    @usableFromInline let unretainedContext: Unmanaged<ModelContext>

    init(_ context: ModelContext) {
        self.context = context
        unretainedContext = Unmanaged.passUnretained(context)
    }

    deinit { context.registry.anchorWentAway(self) }
}
