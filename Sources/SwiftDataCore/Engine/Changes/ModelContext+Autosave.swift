import Foundation
import Synchronization

extension ModelContext {
    /// Arranges a save shortly after a change, once for all changes made until then, where the context runs: on
    /// the main queue when the change is made on the main thread (and then also when the program exits), on a
    /// model actor's queue for its context; any other context saves at its next fetch (see `catchUp()`), since
    /// nothing else runs on its thread.
    func scheduleAutosave() {
        guard autosaveEnabled, !autosaveScheduled else { return }
        autosaveScheduled = true
        let context = UncheckedContext(self)
        // The autosave reports a failure where the change was made: to the log capture of the task that made it.
        let capture = Log.capture
        if MainQueue.isCurrent {
            if !isMainContext { AutosaveRegistry.register(self) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { Log.$capture.withValue(capture) { context.value.autosave() } }
            }
        } else if let schedule = inbox.schedule.withLock({ $0 }) {
            schedule { Log.$capture.withValue(capture) { context.value.autosave() } }
        } else {
            autosaveWaitsForFetch = true
        }
    }

    /// Saves if there is anything to save, reporting a failure instead of throwing it.
    func autosave() {
        autosaveScheduled = false
        autosaveWaitsForFetch = false
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

/// Whether code runs on the main queue. On Linux the main actor's work often runs on a thread of the main queue
/// other than the process's first thread (after `dispatchMain()`), where `Thread.isMainThread` is `false`.
enum MainQueue {
    /// A key set on the main queue only.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }
}

/// The contexts to save when the program exits (top-level code that returns, or `exit()`): the main contexts, and
/// other autosaving contexts that changed on the main thread.
enum AutosaveRegistry {
    /// The list is read and changed under its lock; a context is saved on the main queue.
    private static let contexts = Mutex<[WeakContextReference]>([])
    private static let installed = Atomic<Bool>(false)

    static func register(_ context: ModelContext) {
        contexts.withLock { list in
            list.removeAll { $0.context == nil }
            list.append(WeakContextReference(context))
        }
        if installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            atexit { AutosaveRegistry.saveAll() }
        }
    }

    private static func saveAll() {
        let living = contexts.withLock { list in list.compactMap { $0.context.map(UncheckedContext.init) } }
        guard Thread.isMainThread else {
            if living.contains(where: \.value.hasChanges) {
                Log.error(
                    "the program exited from a thread other than the main thread, so the main context's unsaved changes could not be autosaved"
                )
            }
            return
        }
        MainActor.assumeIsolated {
            for context in living { context.value.autosave() }
        }
    }
}
