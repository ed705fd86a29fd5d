import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// `LISTEN`/`NOTIFY` between connections and processes, and a listener that reconnects.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresListenerTests {
    /// The payloads of the notifications received so far.
    func payloads(_ events: Collected<PostgresListener.Event>) -> [String] {
        payloads(events.all)
    }

    /// The payloads of the notifications among `events`.
    func payloads(_ events: [PostgresListener.Event]) -> [String] {
        events.compactMap { if case .notification(let notification) = $0 { notification.payload } else { nil } }
    }

    @Test func notificationsFromAnotherConnectionArriveInOrder() throws {
        let server = try PostgresTestServer.shared()
        let channel = uniqueName("changes")
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.url, channels: [channel]) { events.append($0) }
        defer { listener.stop() }
        let sender = try connect()
        for payload in ["first", "ünïcödé ✓", "", "third"] { try sender.notify(channel, payload: payload) }
        #expect(events.wait { payloads($0).count == 4 })
        #expect(payloads(events) == ["first", "ünïcödé ✓", "", "third"])
        guard case .notification(let first) = events.all.first else { return }
        #expect(first.channel == channel)
        #expect(first.senderPID == sender.backendPID)
    }

    @Test func aNotificationInATransactionArrivesAtCommitOnly() throws {
        let server = try PostgresTestServer.shared()
        let channel = uniqueName("committed")
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.url, channels: [channel]) { events.append($0) }
        defer { listener.stop() }
        let sender = try connect()
        try? sender.transaction { connection in
            try connection.notify(channel, payload: "rolled back")
            throw PostgresError(.other, sqlState: "P0001", message: "abandon")
        }
        let probe = try connect()
        try sender.transaction { connection in
            try connection.notify(channel, payload: "committed")
            // A notification another session sends now arrives at once: by the time it has, the one sent in the
            // open transaction would have too, if it were not held until the commit.
            try probe.notify(channel, payload: "probe")
            #expect(events.wait { payloads($0).contains("probe") })
            #expect(payloads(events) == ["probe"])
        }
        #expect(events.wait { payloads($0) == ["probe", "committed"] })
    }

    @Test func notificationsFromAnotherProcessArrive() throws {
        let server = try PostgresTestServer.shared()
        let channel = uniqueName("process")
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.superuserConnectionString, channels: [channel]) { events.append($0) }
        defer { listener.stop() }
        try server.psql("NOTIFY \(channel), 'from psql'")
        #expect(events.wait { payloads($0) == ["from psql"] })
    }

    @Test func channelNamesAreQuoted() throws {
        let server = try PostgresTestServer.shared()
        let channel = "Mixed Case \"quoted\" \(UUID().uuidString.prefix(6))"
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.url, channels: [channel, "second"]) { events.append($0) }
        defer { listener.stop() }
        try connect().notify(channel, payload: "ok")
        #expect(events.wait { payloads($0) == ["ok"] })
    }

    @Test func theListenerReconnectsWhenItsSessionIsTerminated() throws {
        let server = try PostgresTestServer.shared()
        let channel = uniqueName("reconnect")
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.url, channels: [channel], reconnectDelay: .milliseconds(20)) {
            events.append($0)
        }
        defer { listener.stop() }
        let sender = try connect()
        try sender.notify(channel, payload: "before")
        #expect(events.wait { payloads($0) == ["before"] })
        let first = listener.backendPID
        try sender.query("SELECT pg_terminate_backend($1::int4)", [.int8(Int64(first))])
        #expect(events.wait { $0.contains(.reconnected) })
        #expect(listener.backendPID != first)
        try sender.notify(channel, payload: "after")
        #expect(events.wait { payloads($0) == ["before", "after"] })
    }

    @Test func aStoppedListenerDeliversNothingMore() throws {
        let server = try PostgresTestServer.shared()
        let channel = uniqueName("stopped")
        let events = Collected<PostgresListener.Event>()
        let listener = try PostgresListener(server.url, channels: [channel]) { events.append($0) }
        let pid = listener.backendPID
        listener.stop()
        let sender = try connect()
        try sender.notify(channel, payload: "too late")
        #expect(
            eventually {
                (try? sender.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [.int8(Int64(pid))]).rowCount) == 0
            })
        #expect(events.all.isEmpty)
    }

    @Test func aListenerOnAnUnreachableServerThrows() throws {
        let server = try PostgresTestServer.shared()
        #expect(throws: PostgresError.self) {
            _ = try PostgresListener(server.url(database: server.database, port: 1), channels: ["x"]) { _ in }
        }
    }
}
