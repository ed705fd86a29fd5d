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

/// Waits up to `seconds` for `condition`, checking every 10 ms; returns whether it held.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// Values collected from other threads.
final class Collected<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}
