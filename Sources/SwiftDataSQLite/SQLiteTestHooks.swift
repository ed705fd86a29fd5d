/// Points where the package's own test programs pause a store, to make races between processes happen at a known
/// moment (not API; nothing sets them outside those tests).
package enum SQLiteTestHooks {
    /// Called after a save wrote an externally stored value's file, before it commits.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var afterExternalWrite: (() -> Void)?
    /// Called inside the transaction that creates or migrates a store's tables, before it commits.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var beforeSchemaCommit: (() -> Void)?
    /// Called inside a save's write transaction after it recorded its history transaction, before it commits.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var afterHistoryRecord: (() -> Void)?
    /// How long opening a store waits for another process that holds its write lock (creating or migrating it), in
    /// seconds, instead of ten minutes; SQLite's busy timeout is shortened to match.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var lockWait: Double?
    /// Called each time a store's connection finds the store locked by another process and waits for it (so that a
    /// test knows the process got that far). Setting it makes connections wait through a busy handler.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var waitingForLock: (() -> Void)?
}
