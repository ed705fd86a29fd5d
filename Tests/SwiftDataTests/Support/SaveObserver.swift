import Foundation
import SwiftData

/// Runs closures when a context posts `willSave` and `didSave` (with the `didSave` notification), for as long as it
/// lives. `@unchecked Sendable`: a context posts its save notifications on the thread that saves, the test's own.
final class SaveObserver: @unchecked Sendable {
    private var tokens: [any NSObjectProtocol] = []
    private let onWillSave: () -> Void
    private let onDidSave: (Notification) -> Void

    init(_ context: ModelContext, willSave: @escaping () -> Void, didSave: @escaping (Notification) -> Void) {
        onWillSave = willSave
        onDidSave = didSave
        tokens.append(
            NotificationCenter.default.addObserver(forName: ModelContext.willSave, object: context, queue: nil) {
                [unowned self] _ in onWillSave()
            })
        tokens.append(
            NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
                [unowned self] notification in onDidSave(notification)
            })
    }

    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
}
