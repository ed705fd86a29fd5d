import Foundation
import Observation
import Synchronization

/// How long a test waits for an event before it reports a failure: a bound on a hang, never a timing expectation.
let eventWait: Duration = .seconds(60)

/// Waits until `condition` holds, checking it again whenever an observable property it read changes (never
/// polling); returns whether it held before `eventWait` ran out. Run it on the actor whose code changes those
/// properties (the main actor for a main context's models, a model actor for its own), so that a change it hears
/// of is complete when it checks again.
func waitUntil(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + eventWait
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await suspend(until: deadline) { wake in
            // A change made before the tracking began would not fire it: the condition is read while tracking.
            if withObservationTracking(condition, onChange: { wake.fire() }) { wake.fire() }
        }
    }
    return true
}

/// Suspends until the wake that `arm` is given fires, or `deadline` passes.
func suspend(
    until deadline: ContinuousClock.Instant, isolation: isolated (any Actor)? = #isolation, arming arm: (Wake) -> Void
) async {
    let wake = Wake()
    let timer = Task {
        try? await Task.sleep(until: deadline)
        wake.fire()
    }
    await withCheckedContinuation(isolation: isolation) { continuation in
        wake.set(continuation)
        arm(wake)
    }
    timer.cancel()
}

/// Resumes a continuation once, whichever of its wakers fires first, before or after it is set.
final class Wake: Sendable {
    private let state = Mutex<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        let fired = state.withLock { state in
            if !state.fired { state.continuation = continuation }
            return state.fired
        }
        if fired { continuation.resume() }
    }

    func fire() {
        state.withLock { state in
            state.fired = true
            defer { state.continuation = nil }
            return state.continuation
        }?.resume()
    }
}

/// A flag set once from a callback (an observation's `onChange`, a subscription), which a test reads or awaits.
final class Flag: Sendable {
    private let state = Mutex<(isSet: Bool, waiting: [Wake])>((false, []))

    func set() {
        state.withLock { state in
            state.isSet = true
            defer { state.waiting = [] }
            return state.waiting
        }.forEach { $0.fire() }
    }

    var isSet: Bool { state.withLock(\.isSet) }

    /// Waits until the flag is set, for up to `eventWait`; returns whether it was.
    func wait(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        await suspend(until: .now + eventWait) { wake in
            let isSet = state.withLock { state in
                if !state.isSet { state.waiting.append(wake) }
                return state.isSet
            }
            if isSet { wake.fire() }
        }
        return isSet
    }
}
