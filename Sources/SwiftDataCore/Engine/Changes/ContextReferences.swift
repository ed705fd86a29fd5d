/// A context that notices and the exit-time autosave can reach without keeping it alive. `@unchecked Sendable`: other
/// threads only pass it along, or read it under a lock; the context itself is used on its own queue.
final class WeakContextReference: @unchecked Sendable {
    weak var context: ModelContext?
    init(_ context: ModelContext) { self.context = context }
}

/// Lets a context cross into code that runs on the thread it already belongs to. `@unchecked Sendable`: only code
/// that runs on the context's own queue (the main queue for the main context) unwraps it.
struct UncheckedContext: @unchecked Sendable {
    let value: ModelContext
    init(_ value: ModelContext) { self.value = value }
}
