/// An actor with a model context of its own: `@ModelActor` adds the members and the conformance. Everything the
/// actor does with `modelContext` runs on the actor, off the main thread; pass `PersistentIdentifier`s, not
/// models, in and out of it.
public protocol ModelActor: Actor {
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor that runs the actor's work. Use `modelContext`, not the executor, to reach the context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its model executor, which must be a serial one.
    nonisolated public var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            fatalError("\(Self.self).modelExecutor must be a SerialModelExecutor to run an actor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The context the actor works with.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with the identifier, registered in the actor's context or loaded from the store; `nil` when the
    /// store has no such model or it is not a `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        modelContext.existingModel(for: id, as: T.self)
    }
}
