import Dispatch
import Synchronization

/// Polls a container's stores for changes made by other processes while anyone watches, so observers learn of
/// them without fetching. A check is one cheap query per store; the watcher stops when its last owner is gone.
package final class ExternalChangeWatcher: Sendable {
    /// How often the stores are checked.
    package static let interval = DispatchTimeInterval.milliseconds(250)

    private struct State {
        var owners: [ObjectIdentifier: Owner] = [:]
        var timer: (any DispatchSourceTimer)?
    }

    // @unchecked Sendable: `object` is only compared with nil (the watch ends when no owner is left), never used.
    private struct Owner: @unchecked Sendable {
        weak var object: AnyObject?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "SwiftData.ExternalChangeWatcher", qos: .utility)

    package init() {}

    /// Runs `check` every `interval` for as long as `owner`, or another owner added since, lives.
    package func watch(while owner: AnyObject, check: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.owners[ObjectIdentifier(owner)] = Owner(object: owner)
            guard state.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
            timer.setEventHandler { [weak self] in
                guard let self, self.hasOwners() else { return }
                check()
            }
            state.timer = timer
            timer.resume()
        }
    }

    /// Drops owners that are gone; stops the timer when none is left.
    private func hasOwners() -> Bool {
        state.withLock { state in
            state.owners = state.owners.filter { $0.value.object != nil }
            guard state.owners.isEmpty else { return true }
            state.timer?.cancel()
            state.timer = nil
            return false
        }
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }
}
