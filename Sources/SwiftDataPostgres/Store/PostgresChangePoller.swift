import Foundation
import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// How a store behind a transaction pooler without a `listenURL` learns of other instances' saves: every
/// `PostgresConfiguration.changePollInterval` it reads, in one statement, the numbers of the history rows committed
/// since it last looked and the count of the writes that record no history row (erasing a store, deleting history;
/// see `PostgresRowStore.unrecordedWritesKey`), and reports a change when one of them is not this store's own
/// (`noteOwn`, `noteOwnUnrecorded`). It runs on a thread of its own until `stop()`.
final class PostgresChangePoller: Sendable {
    private let state = Mutex(State())
    private let wake = NSCondition()
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var stopping = false
        /// The numbers of this store's own saves that the poller has not seen yet.
        var own: Set<Int64> = []
        /// The counts this store's own unrecorded writes reached, that the poller has not seen yet.
        var ownUnrecorded: Set<Int64> = []
    }

    /// Starts polling the history and metadata tables of `postgresSchema` through `pool`, calling `changed` on the
    /// poller's thread when another instance saved.
    init(pool: PostgresConnectionPool, postgresSchema: String, changed: @escaping @Sendable () -> Void) {
        let dialect = PostgreSQLDialect()
        let table = "\(dialect.quote(postgresSchema)).\(dialect.quote(PostgresRowStore.historyTable))"
        let unrecorded = """
            SELECT value::bigint FROM \(dialect.quote(postgresSchema)).\(dialect.quote(PostgresRowStore.metadataTable)) \
            WHERE key = \(PostgresRowStore.literal(PostgresRowStore.unrecordedWritesKey))
            """
        // A row of NULL numbers stands for no new history row.
        let newer = """
            SELECT COALESCE((\(unrecorded)), 0), h.number FROM (SELECT 1) AS one LEFT JOIN LATERAL \
            (SELECT number FROM \(table) WHERE number > $1) AS h ON true ORDER BY h.number
            """
        let first = "SELECT COALESCE(max(number), 0), COALESCE((\(unrecorded)), 0) FROM \(table)"
        let baseline: @Sendable () throws -> (number: Int64, unrecorded: Int64) = {
            try pool.withConnection { connection in
                let result = try connection.query(first)
                return (try result.int64(0, 0) ?? 0, try result.int64(0, 1) ?? 0)
            }
        }
        // What is there now is read before the store is handed out: a write made after opening is then found, however
        // late the thread runs. Should this read fail, the thread reads it, as it reads everything else, again later.
        let opening = try? baseline()
        let thread = Thread { [self] in
            defer { finished.signal() }
            PostgresTestHooks.pollerStarting.withLock { $0 }?(postgresSchema)
            var last = opening
            while !state.withLock(\.stopping) {
                do {
                    if last == nil { last = try baseline() }
                    if let seen = last {
                        let (now, wroteElsewhere) = try poll(pool, newer, after: seen)
                        last = now
                        if wroteElsewhere { changed() }
                    }
                } catch {
                    Log.debug("looking for other instances' saves failed: \(error)")
                }
                wake.lock()
                if !state.withLock(\.stopping) {
                    _ = wake.wait(until: Date(timeIntervalSinceNow: PostgresConfiguration.changePollInterval.seconds))
                }
                wake.unlock()
            }
        }
        thread.name = "PostgresChangePoller"
        thread.start()
    }

    /// Runs the poll's statement once, after what was `seen`: returns what it sees now, and whether another
    /// instance wrote.
    private func poll(_ pool: PostgresConnectionPool, _ newer: String, after seen: (number: Int64, unrecorded: Int64))
        throws -> (now: (number: Int64, unrecorded: Int64), wroteElsewhere: Bool)
    {
        let result = try pool.withConnection { try $0.query(newer, [.int8(seen.number)]) }
        let numbers = try (0..<result.rowCount).compactMap { try result.int64($0, 1) }
        let unrecorded = try result.int64(0, 0) ?? seen.unrecorded
        let now = (number: numbers.last ?? seen.number, unrecorded: max(unrecorded, seen.unrecorded))
        return state.withLock { state in
            let others =
                numbers.contains { !state.own.contains($0) }
                || (seen.unrecorded < now.unrecorded
                    && (seen.unrecorded + 1...now.unrecorded).contains { !state.ownUnrecorded.contains($0) })
            state.own = state.own.filter { $0 > now.number }
            state.ownUnrecorded = state.ownUnrecorded.filter { $0 > now.unrecorded }
            return (now, others)
        }
    }

    /// Notes the history number of a save of this store, so that finding it is no change.
    func noteOwn(_ number: Int64) {
        state.withLock { _ = $0.own.insert(number) }
    }

    /// Notes the count an unrecorded write of this store reached, so that finding it is no change.
    func noteOwnUnrecorded(_ count: Int64) {
        state.withLock { _ = $0.ownUnrecorded.insert(count) }
    }

    /// Stops the thread and returns once it has stopped.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.lock()
        wake.signal()
        wake.unlock()
        finished.wait()
    }
}
