import SwiftData

extension ResultsObserver {
    /// Waits until a snapshot of the results (the current one first) satisfies `condition`, woken by each change of
    /// the results rather than by polling; gives up after `eventWait`, so that a failing test reports instead of
    /// hanging (the task that reads the snapshots is cancelled then, which ends its stream). Returns whether
    /// the condition held.
    func waitForSnapshot(where condition: @escaping @Sendable ([PersistentIdentifier]) -> Bool) async -> Bool {
        let snapshots = snapshots()
        let held = Flag()
        let reader = Task {
            for await identifiers in snapshots where condition(identifiers) { return held.set() }
        }
        defer { reader.cancel() }
        return await held.wait()
    }
}
