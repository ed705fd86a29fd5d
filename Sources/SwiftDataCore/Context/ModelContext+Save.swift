import Foundation

extension ModelContext {
    /// Posted before a save writes pending changes; `object` is the context.
    public static let willSave = Notification.Name("ModelContext.willSave")
    /// Posted after a save; `userInfo` holds `[PersistentIdentifier]` arrays under `NotificationKey` raw
    /// values.
    public static let didSave = Notification.Name("ModelContext.didSave")
    /// Not in Apple's API: posted when an autosave fails; `userInfo["error"]` holds the error.
    public static let didFailAutosave = Notification.Name("ModelContext.didFailAutosave")

    /// Keys of the `didSave` notification's `userInfo`.
    public enum NotificationKey: String, Sendable {
        /// Apple's query generation token; `didSave` does not carry one here (there are no query generations).
        case queryGeneration
        /// Apple's key for "every identifier is invalid"; `didSave` does not use it here.
        case invalidatedAllIdentifiers
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save changed.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
        /// The history token of the store state after the save, a `DefaultHistoryToken` (of every store the save
        /// changed); in `didSave` only.
        case historyTokens
    }

    /// Writes every pending insert, change and delete, all or nothing per store. On failure nothing is
    /// written and the changes stay pending.
    ///
    /// A save called while a save of this context writes its rows (by a value transformer, an `Encodable`
    /// attribute's encoding, or an observer they set off) throws `SwiftDataError.storeError` and changes nothing, as
    /// Core Data refuses a recursive save; the changes made meanwhile stay pending for the next save.
    public func save() throws {
        guard !isWritingSave else {
            throw SwiftDataError.storeError.with(
                reason:
                    "save() was called while a save of this context was writing its rows (by a value transformer, an Encodable attribute's encoding, or an observer they set off)",
                suggestion:
                    "Save after the save in progress returns; the changes made while it writes stay pending for the next save"
            )
        }
        // The phases of a save (Engine/Save/ and Engine/ENGINE.md): each one's function says what it does.
        guard var operation = try prepareSave() else { return }
        try operation.validate()
        let written = try writeSave(&operation)
        deletedRows = [:]
        var outcome = registry.applySave(operation, of: self, relisting: written.others)
        settleSave(operation, changedWhileWriting: written.changedWhileWriting, &outcome)
        try publishSave(operation, outcome)
    }

    /// Runs `block`, then saves. If `block` throws, the context rolls back and the error propagates.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }
}
