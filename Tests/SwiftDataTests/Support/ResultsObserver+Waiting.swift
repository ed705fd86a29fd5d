import SwiftData

extension ResultsObserver {
    /// Waits until a snapshot of the results (the current one first) satisfies `condition`, woken by each change of
    /// the results rather than by polling; gives up after a minute, so that a failing test reports instead of
    /// hanging. Returns whether the condition held.
    func waitForSnapshot(where condition: @escaping @Sendable ([PersistentIdentifier]) -> Bool) async -> Bool {
        let snapshots = snapshots()
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await identifiers in snapshots where condition(identifiers) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
