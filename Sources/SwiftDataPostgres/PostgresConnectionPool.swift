import Foundation
import SwiftDataCore

/// Connections to one database, opened as they are needed, up to `size`, and kept for reuse.
///
/// `withConnection` hands a connection to one caller at a time; when all `size` are in use, it waits for one to be
/// returned, up to `waitLimit`, then throws `.poolExhausted`. A connection returned broken (the server closed it)
/// is closed, and a new one opened in its place when next needed; one returned inside a transaction is rolled
/// back. Every new connection runs `setup` first (session settings such as `search_path`).
///
/// The default size is 4: enough for a process's concurrent reads beside a save on a machine of a few cores, and
/// few enough that twenty processes fit in PostgreSQL's default 100 connections with one more each for
/// notifications.
package final class PostgresConnectionPool: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable or guarded by `condition`; a connection is used by
    // one thread at a time, as it is handed out by `take` and back by `give`.

    /// The default number of connections.
    package static let defaultSize = 4

    package let connectionString: String
    package let size: Int
    /// How long `withConnection` waits for a connection when all are in use.
    package let waitLimit: Duration
    private let setup: (PostgresConnection) throws -> Void
    /// An `NSCondition`, not a `Mutex`: a caller waits on it for a connection when all are in use.
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    /// Connections open or being opened, in use or idle.
    private var openCount = 0
    /// The most connections open at once so far.
    private var mostOpenCount = 0

    package init(
        _ connectionString: String, size: Int = defaultSize, waitLimit: Duration = .seconds(30),
        setup: @escaping (PostgresConnection) throws -> Void = { _ in }
    ) {
        self.connectionString = connectionString
        self.size = max(1, size)
        self.waitLimit = waitLimit
        self.setup = setup
    }

    /// Runs `body` with a connection no other caller uses meanwhile.
    @discardableResult
    package func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        let connection = try take()
        defer { give(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; connections in use close when they come back broken or the pool is released.
    package func closeIdleConnections() {
        condition.withLock {
            openCount -= idle.count
            idle.removeAll()
            condition.broadcast()
        }
    }

    /// The number of connections open now (for tests).
    package var openConnections: Int { condition.withLock { openCount } }

    /// The most connections open at once since the pool was made (for tests).
    package var mostOpenConnections: Int { condition.withLock { mostOpenCount } }

    private func take() throws -> PostgresConnection {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: waitLimit.seconds)
        while idle.isEmpty && openCount >= size {
            if !condition.wait(until: deadline) && idle.isEmpty && openCount >= size {
                condition.unlock()
                throw PostgresError(
                    .poolExhausted, sqlState: "53300",
                    message:
                        "all \(size) connection\(size == 1 ? "" : "s") of the pool stayed in use for "
                        + "\(waitLimit.seconds) seconds")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        mostOpenCount = max(mostOpenCount, openCount)
        condition.unlock()
        // Connecting takes a round trip or more: done outside the lock, in a slot reserved for it.
        do {
            let connection = try PostgresConnection(connectionString)
            try setup(connection)
            // A connection reset after it broke (see `PostgresConnection.transaction`) needs its settings again.
            connection.sessionSetup = setup
            return connection
        } catch {
            condition.withLock {
                openCount -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func give(_ connection: PostgresConnection) {
        var keep = !connection.isBroken
        if keep && connection.isInTransaction {
            do { try connection.execute("ROLLBACK") } catch {
                Log.error("a pooled connection could not roll back: \(error)")
                keep = false
            }
        }
        condition.withLock {
            if keep { idle.append(connection) } else { openCount -= 1 }
            condition.signal()
        }
    }
}
