import Foundation
import PostgresTestSupport
import SwiftDataPostgres

/// A new connection to the test server's database, as the test user over TCP.
func connect() throws -> PostgresConnection {
    try PostgresConnection(PostgresTestServer.shared().url)
}

/// A table or channel name no other test uses.
func uniqueName(_ prefix: String) -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}

/// Waits up to a minute for `condition` on the server's state, which announces its changes by no event, checking
/// every 10 ms; returns whether it held. (Values another thread collects are awaited with `Collected.wait`.)
func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 60)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// Values collected from other threads.
final class Collected<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []

    func append(_ item: Element) {
        condition.withLock {
            items.append(item)
            condition.broadcast()
        }
    }

    var all: [Element] { condition.withLock { items } }

    /// Waits until the values satisfy `holds`, woken by each append; gives up after a minute, which bounds a
    /// failure. Returns whether they did.
    func wait(until holds: ([Element]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        return condition.withLock {
            while !holds(items) {
                guard condition.wait(until: deadline) else { return holds(items) }
            }
            return true
        }
    }
}
