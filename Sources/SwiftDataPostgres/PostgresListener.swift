import CLibPQ
import Foundation
import SwiftDataCore
import Synchronization

/// A notification sent with `NOTIFY` or `pg_notify`.
package struct PostgresNotification: Sendable, Equatable {
    package let channel: String
    package let payload: String
    /// The server process of the session that sent it (compare with `PostgresConnection.backendPID` to recognize
    /// one's own).
    package let senderPID: Int32
}

/// Listens on channels with a connection of its own and calls `handler` with each notification, on a thread of
/// its own, in the order the server sent them.
///
/// The thread sleeps in `poll` on the connection's socket until the server sends something: no polling of the
/// database. When the connection breaks (the server restarted, or terminated the session), the listener connects
/// again, waiting longer after each failure (from `reconnectDelay`, doubling, up to five seconds), listens again
/// and calls `handler` with `.reconnected`: notifications sent meanwhile were missed, so whoever relies on them
/// should catch up. The listener stops when `stop()` is called or it is released.
package final class PostgresListener: Sendable {
    /// What the listener reports.
    package enum Event: Sendable, Equatable {
        case notification(PostgresNotification)
        /// The connection broke and is listening again; notifications sent in between were missed.
        case reconnected
    }

    private let loop: ListenerLoop

    /// Connects, listens on `channels` and starts the thread; throws if the first connection fails.
    package init(
        _ connectionString: String, channels: [String], reconnectDelay: Duration = .milliseconds(100),
        handler: @escaping @Sendable (Event) -> Void
    ) throws {
        let loop = try ListenerLoop(
            connectionString: connectionString, channels: channels, reconnectDelay: reconnectDelay, handler: handler)
        self.loop = loop
        loop.start()
    }

    deinit { stop() }

    /// The server process of the listening session (changes when the listener reconnects).
    package var backendPID: Int32 { loop.backendPID.load(ordering: .relaxed) }

    /// Stops listening and closes the connection; returns once the thread has stopped (at once when called from
    /// `handler`).
    package func stop() {
        loop.stop()
    }
}

/// The listener's state and its thread's loop.
private final class ListenerLoop: @unchecked Sendable {
    // @unchecked Sendable: `connection` is made on the creating thread before the listener thread starts, and then
    // used by that thread only; the other stored properties are immutable or atomic.
    private let connectionString: String
    private let channels: [String]
    private let reconnectDelay: Duration
    private let handler: @Sendable (PostgresListener.Event) -> Void
    private var connection: PostgresConnection?
    /// A pipe whose read end the loop polls beside the socket, so that `stop` can wake it.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    let backendPID = Atomic<Int32>(0)

    init(
        connectionString: String, channels: [String], reconnectDelay: Duration,
        handler: @escaping @Sendable (PostgresListener.Event) -> Void
    ) throws {
        self.connectionString = connectionString
        self.channels = channels
        self.reconnectDelay = reconnectDelay
        self.handler = handler
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw PostgresError(.other, sqlState: "58000", message: "a pipe could not be made (errno \(errno))")
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        do {
            connection = try listeningConnection()
        } catch {
            close(wakeRead)
            close(wakeWrite)
            throw error
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the thread; called once, before anything else may call `stop`.
    func start() {
        let thread = Thread { self.run() }
        thread.name = "PostgresListener"
        self.thread = thread
        thread.start()
    }

    /// Wakes the thread and waits for it to finish, unless called from it (from the handler).
    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if Thread.current != thread { finished.wait() }
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func listeningConnection() throws -> PostgresConnection {
        let connection = try PostgresConnection(connectionString)
        for channel in channels { try connection.execute("LISTEN \(try connection.quoteIdentifier(channel))") }
        backendPID.store(connection.backendPID, ordering: .relaxed)
        return connection
    }

    func run() {
        defer {
            connection = nil
            finished.signal()
        }
        while !isStopping {
            guard let connection else {
                reconnect()
                continue
            }
            deliverNotifications(connection)
            let socket = PQsocket(connection.handle)
            guard socket >= 0 else {
                self.connection = nil
                continue
            }
            var fds = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno != EINTR {
                Log.error("the PostgreSQL listener's poll failed (errno \(errno))")
                self.connection = nil
                continue
            }
            if fds[1].revents != 0 { continue }  // woken by `stop`
            if fds[0].revents != 0 && (PQconsumeInput(connection.handle) == 0 || connection.isBroken) {
                Log.debug(
                    "the PostgreSQL listener lost its connection: \(PostgresConnection.message(PQerrorMessage(connection.handle)))"
                )
                deliverNotifications(connection)
                self.connection = nil
            }
        }
    }

    private func deliverNotifications(_ connection: PostgresConnection) {
        while let notification = PQnotifies(connection.handle) {
            let event = PostgresNotification(
                channel: String(cString: notification.pointee.relname),
                payload: String(cString: notification.pointee.extra), senderPID: notification.pointee.be_pid)
            PQfreemem(notification)
            handler(.notification(event))
        }
    }

    /// Connects again, pausing before each try, until it succeeds or the listener stops.
    private func reconnect() {
        var delay = reconnectDelay
        while !isStopping {
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(clamping: delay.milliseconds))
            if isStopping { return }
            do {
                connection = try listeningConnection()
                handler(.reconnected)
                return
            } catch {
                Log.debug("the PostgreSQL listener could not reconnect: \(error)")
                delay = min(delay * 2, .seconds(5))
            }
        }
    }
}
