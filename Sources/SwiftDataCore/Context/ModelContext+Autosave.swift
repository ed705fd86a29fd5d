import Foundation
import Synchronization

extension ModelContext {
    /// Arranges a save shortly after a change: on the main queue, once for all changes made until then. Only
    /// the main context autosaves on a schedule; every autosaving context also saves when the program exits.
    func scheduleAutosave() {
        guard autosaveEnabled, isMainContext, !autosaveScheduled else { return }
        autosaveScheduled = true
        let context = UncheckedContext(self)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { context.value.autosave() }
        }
    }

    /// Saves if there is anything to save, reporting a failure instead of throwing it.
    func autosave() {
        autosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
        } catch {
            Log.error("autosave failed; the changes are still pending: \(error)")
            NotificationCenter.default.post(
                name: ModelContext.didFailAutosave, object: self, userInfo: ["error": error])
        }
    }
}

/// Lets a context cross into code that runs on the thread it already belongs to.
struct UncheckedContext: @unchecked Sendable {
    let value: ModelContext
    init(_ value: ModelContext) { self.value = value }
}

/// The main contexts to save when the program exits: top-level code that returns, or `exit()`.
enum AutosaveRegistry {
    private struct WeakContext: @unchecked Sendable {
        weak var context: ModelContext?
    }

    private static let contexts = Mutex<[WeakContext]>([])
    private static let installed = Atomic<Bool>(false)

    static func register(_ context: ModelContext) {
        contexts.withLock { list in
            list.removeAll { $0.context == nil }
            list.append(WeakContext(context: context))
        }
        if installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            atexit { AutosaveRegistry.saveAll() }
        }
    }

    private static func saveAll() {
        let pending = contexts.withLock { list in list.compactMap { $0.context.map(UncheckedContext.init) } }
        guard Thread.isMainThread else {
            if pending.contains(where: \.value.hasChanges) {
                Log.error(
                    "the program exited from a thread other than the main thread, so the main context's unsaved changes could not be autosaved"
                )
            }
            return
        }
        MainActor.assumeIsolated {
            for context in pending { context.value.autosave() }
        }
    }
}
