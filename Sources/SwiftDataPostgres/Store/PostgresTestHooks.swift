import Synchronization

/// Settings the package's own test programs change to make a slow case quick (not API; nothing sets them outside
/// those tests).
package enum PostgresTestHooks {
    /// How long opening a store waits for a lock another session holds (creating or migrating the store, or
    /// reading a table a migration changes), in seconds, instead of ten minutes.
    // Safe without a lock: a test program sets it once, before it opens any store.
    nonisolated(unsafe) package static var lockWait: Double?

    /// Called on a change poller's thread before it first polls, with the store's PostgreSQL schema.
    package static let pollerStarting = Mutex<(@Sendable (String) -> Void)?>(nil)
}
