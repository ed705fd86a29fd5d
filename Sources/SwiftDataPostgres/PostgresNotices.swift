import CLibPQ
import Foundation
import SwiftDataCore
import Synchronization

/// Where the server's notices and warnings go: through the library's log (`Log`), never straight to standard error
/// as libpq's default does. A warning is logged as one; other notices, and the warning of a session the server
/// ends (`terminating connection ...`), only with `SWIFTDATA_LOG=debug`: the store reports a lost connection
/// through its errors.
package enum PostgresNotices {
    /// Called with each notice, after it is logged (for tests), by token.
    private static let observers = Mutex<[UUID: @Sendable (String) -> Void]>([:])

    /// Calls `handler` with each notice from now on, until `stopObserving` with the token returned.
    package static func observe(_ handler: @escaping @Sendable (String) -> Void) -> UUID {
        let token = UUID()
        observers.withLock { $0[token] = handler }
        return token
    }

    /// Stops calling the handler `observe` returned `token` for.
    package static func stopObserving(_ token: UUID) {
        observers.withLock { $0[token] = nil }
    }

    /// Sends the notices of `connection` to `report`.
    static func install(on connection: OpaquePointer) {
        PQsetNoticeProcessor(
            connection,
            { _, message in
                guard let message else { return }
                PostgresNotices.report(PostgresConnection.message(message))
            }, nil)
    }

    /// Logs one notice, in one line, with any connection password in it masked.
    static func report(_ notice: String) {
        let text = PostgresRedaction.maskingForm(notice)
        // A session the server ends says so as a warning first; the store reports the lost connection itself.
        let endsSession = text.contains("terminating connection") || text.contains("canceling the wait for synchronous")
        if text.hasPrefix("WARNING"), !endsSession {
            Log.warning("PostgreSQL: \(text)")
        } else {
            Log.debug("PostgreSQL: \(text)")
        }
        for handler in observers.withLock({ Array($0.values) }) { handler(text) }
    }
}
