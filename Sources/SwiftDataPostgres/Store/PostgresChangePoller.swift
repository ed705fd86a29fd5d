import Foundation
import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// How a store behind a transaction pooler without a `listenURL` learns of other instances' saves: every
/// `PostgresConfiguration.changePollInterval` it reads the numbers of the history rows committed since it last
/// looked, and reports a change when one of them is not a save of its own (`noteOwn`). It runs on a thread of its
/// own until `stop()`.
final class PostgresChangePoller: Sendable {
    private let state = Mutex(State())
    private let wake = NSCondition()
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var stopping = false
        /// The numbers of this store's own saves that the poller has not seen yet.
        var own: Set<Int64> = []
    }

    /// Starts polling the history table of `postgresSchema` through `pool`, calling `changed` on the poller's
    /// thread when another instance saved.
    init(pool: PostgresConnectionPool, postgresSchema: String, changed: @escaping @Sendable () -> Void) {
        let dialect = PostgreSQLDialect()
        let table = "\(dialect.quote(postgresSchema)).\(dialect.quote(PostgresRowStore.historyTable))"
        let newer = "SELECT number FROM \(table) WHERE number > $1 ORDER BY number"
        let thread = Thread { [self] in
            defer { finished.signal() }
            var last: Int64 = .max
            while !state.withLock(\.stopping) {
                do {
                    if last == .max {
                        last = try pool.withConnection {
                            try $0.query("SELECT COALESCE(max(number), 0) FROM \(table)").int64(0, 0) ?? 0
                        }
                    }
                    let result = try pool.withConnection { try $0.query(newer, [.int8(last)]) }
                    let numbers = try (0..<result.rowCount).compactMap { try result.int64($0, 0) }
                    last = numbers.last ?? last
                    let others = state.withLock { state in
                        let others = numbers.filter { !state.own.contains($0) }
                        state.own = state.own.filter { $0 > last }
                        return others
                    }
                    if !others.isEmpty { changed() }
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

    /// Notes the history number of a save of this store, so that finding it is no change.
    func noteOwn(_ number: Int64) {
        state.withLock { _ = $0.own.insert(number) }
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
