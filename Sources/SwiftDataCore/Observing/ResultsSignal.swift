import Synchronization

/// What a `ResultsObserver` shares with the threads that save: whether its results are stale, and a change
/// count that `snapshots()` streams wait on.
final class ResultsSignal: Sendable {
    private struct State {
        var isStale = false
        var generation = 0
        var isFinished = false
        var waiters: [Int: CheckedContinuation<Int?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    func markStale() { state.withLock { $0.isStale = true } }

    /// Whether the results were stale; they no longer are.
    func takeStale() -> Bool {
        state.withLock { state in
            defer { state.isStale = false }
            return state.isStale
        }
    }

    /// Counts a change and wakes the streams waiting for one.
    func bump() {
        let (waiters, generation) = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return (state.waiters.values, state.generation)
        }
        for waiter in waiters { waiter.resume(returning: generation) }
    }

    /// Ends every stream.
    func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// The change count once it is past `seen` (at once when nothing has been seen yet); `nil` once finished, or
    /// when the waiting task is cancelled (which ends its stream).
    func change(after seen: Int?) async -> Int? {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Int?? = state.withLock { state in
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    if seen.map({ state.generation > $0 }) ?? true { return .some(state.generation) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // The task is marked cancelled before this runs: a waiter not registered yet sees it under the lock.
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: nil)
        }
    }
}

/// The change count a snapshot stream has delivered.
final class SnapshotCursor: Sendable {
    private let lock = Mutex<Int?>(nil)
    var last: Int? {
        get { lock.withLock { $0 } }
        set { lock.withLock { $0 = newValue } }
    }
}

/// What other threads may ask of a `ResultsObserver`, without knowing its generic parameters.
protocol ObservedResults: AnyObject {
    /// Tells observers the results change; callable from any thread.
    func announceChange()
    /// The identifiers of the current results; only on the observer's actor.
    func currentIdentifiers() -> [PersistentIdentifier]
}

/// A reference to an observer that other threads may hold without keeping it alive. `@unchecked Sendable`: other
/// threads only signal the observer, which is itself safe to signal from any thread (`ObservedResults`).
final class WeakObserver: @unchecked Sendable {
    weak var object: (any ObservedResults)?
    init(_ object: any ObservedResults) { self.object = object }
}

extension Actor {
    /// Runs `work` on this actor.
    func runResultsWork<T: Sendable>(_ work: @Sendable () -> T) -> T { work() }
}

extension ChangeCenter.Notice {
    /// Whether the notice names a model of one of `entities`.
    func touches(_ entities: Set<String>) -> Bool {
        [inserted, updated, deleted].contains { ids in ids.contains { entities.contains($0.entityName) } }
    }
}
