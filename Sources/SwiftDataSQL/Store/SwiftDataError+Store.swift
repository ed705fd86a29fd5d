import SwiftDataCore

extension SwiftDataError {
    /// A save of the store named `store` started inside another save of it, on the same thread: refused, since it
    /// would wait for itself.
    package static func saveInsideSave(of store: String) -> SwiftDataError {
        SwiftDataError.storeError.with(
            reason: "a save of the store '\(store)' started inside another save of it",
            suggestion: "Save other contexts after the save in progress returns, not from code it runs")
    }
}
