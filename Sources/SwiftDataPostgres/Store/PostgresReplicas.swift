import Foundation
import SwiftDataCore
import Synchronization

/// Where a store's reads go when its configuration names read replicas (`PostgresConfiguration.readReplicas`).
///
/// The store must read what it has seen committed: its own saves, and the saves of other instances it was told of.
/// Both are WAL positions of the primary. A save's commit asks for the primary's WAL insert position in the round
/// trip of its `COMMIT` (`noteCommit`). Another instance's notification arrives after that instance's commit, so the
/// primary's position when it arrived covers it; the next read asks the primary for it once
/// (`noteExternalChange`), however many notifications came. A read goes to the next replica in turn whose replayed
/// position (`pg_last_wal_replay_lsn()`, asked only when the last answer it gave is behind) has reached what the
/// store must see; otherwise to the primary.
///
/// A replica that cannot be reached, whose connection breaks, or that cancels the read for a conflict with
/// recovery, costs no failed read: the read runs elsewhere, and the replica is left out for the configuration's
/// `replicaRetryInterval`. So is one that has still not replayed a position a read needed the configuration's
/// `replicaLagLimit` after it was first found behind it.
final class PostgresReplicas: Sendable {
    private let replicas: [Replica]
    private let next = Atomic<Int>(0)
    private let position = Mutex(Position())

    /// What the store must see: the position it knows, and notifications whose position it has not asked yet.
    private struct Position {
        var required: Int64 = 0
        /// Notifications received and notifications whose position was asked, counted: more received means
        /// the primary must be asked.
        var received = 0
        var asked = 0
    }

    /// One replica: its pool, the position it replayed when last asked, and whether it is left out.
    final class Replica: Sendable {
        let pool: PostgresConnectionPool
        let replayed = Atomic<Int64>(0)
        /// The position a read first found the replica behind and when, until it replays it; when it is left out
        /// until.
        let state = Mutex<
            (behind: (position: Int64, since: ContinuousClock.Instant)?, leftOutUntil: ContinuousClock.Instant?)
        >(
            (nil, nil))

        let lagLimit: Duration
        let retryInterval: Duration

        init(_ pool: PostgresConnectionPool, lagLimit: Duration, retryInterval: Duration) {
            self.pool = pool
            self.lagLimit = lagLimit
            self.retryInterval = retryInterval
        }

        func isLeftOut(at now: ContinuousClock.Instant) -> Bool {
            state.withLock { state in state.leftOutUntil.map { now < $0 } ?? false }
        }

        func leaveOut(from now: ContinuousClock.Instant) {
            state.withLock { $0 = (nil, now + retryInterval) }
        }

        /// Notes that the replica, at `replayed`, was behind a read that needs `required`; leaves it out when it
        /// has not replayed a position it was found behind for longer than the lag limit. (A replica that keeps
        /// replaying, a little behind a busy writer, is not lagging.)
        func noteBehind(_ required: Int64, replayed: Int64, at now: ContinuousClock.Instant) {
            let since = state.withLock { state in
                guard let behind = state.behind, replayed < behind.position else {
                    state.behind = (required, now)
                    return now
                }
                return behind.since
            }
            if now - since > lagLimit {
                Log.debug("a read replica stayed behind for more than \(lagLimit)")
                leaveOut(from: now)
            }
        }
    }

    /// The replicas at `urls`, each with a pool of `size` connections that `setup` prepares, waiting up to
    /// `waitLimit` for one, and left out for `retryInterval` when they fail or lag for longer than `lagLimit`.
    init(
        _ urls: [String], size: Int, waitLimit: Duration, lagLimit: Duration, retryInterval: Duration,
        setup: @escaping (PostgresConnection) throws -> Void
    ) {
        replicas = urls.map {
            Replica(
                PostgresConnectionPool($0, size: size, waitLimit: waitLimit, setup: setup), lagLimit: lagLimit,
                retryInterval: retryInterval)
        }
    }

    /// Records the primary's position after a save of this store committed.
    func noteCommit(_ position: Int64) {
        self.position.withLock { $0.required = max($0.required, position) }
    }

    /// Records that another instance committed a save (its notification arrived), or that notifications may have
    /// been missed: the next read asks the primary for its position first.
    func noteExternalChange() {
        position.withLock { $0.received += 1 }
    }

    /// Runs `body` on a replica that has replayed what the store must see, or else `primary`.
    func read<Result>(
        primary: PostgresConnectionPool, _ body: (PostgresConnection) throws -> Result,
        otherwise onPrimary: () throws -> Result
    ) throws -> Result {
        guard let required = requiredPosition(primary) else { return try onPrimary() }
        let now = ContinuousClock.now
        let start = next.add(1, ordering: .relaxed).oldValue
        for offset in replicas.indices {
            let replica = replicas[(start &+ offset) % replicas.count]
            guard !replica.isLeftOut(at: now) else { continue }
            do {
                var result: Result?
                try replica.pool.withConnection { connection in
                    if replica.replayed.load(ordering: .relaxed) < required {
                        let replayed = try connection.query(Self.replayPositionSQL).int64(0, 0) ?? 0
                        replica.replayed.store(replayed, ordering: .relaxed)
                        guard replayed >= required else { return }
                    }
                    result = try body(connection)
                }
                if let result { return result }
                replica.noteBehind(required, replayed: replica.replayed.load(ordering: .relaxed), at: now)
            } catch  where Self.leavesReplicaOut(error) {
                Log.debug("a read replica failed, the read goes elsewhere: \(error)")
                replica.replayed.store(0, ordering: .relaxed)
                replica.leaveOut(from: now)
            }
        }
        return try onPrimary()
    }

    /// What the store must see, after asking the primary when notifications came since it last asked; `nil` when
    /// the primary could not tell (the read then goes to the primary, which reports its error if it has one).
    private func requiredPosition(_ primary: PostgresConnectionPool) -> Int64? {
        let (required, received, answered) = position.withLock { ($0.required, $0.received, $0.asked) }
        guard received > answered else { return required }
        let asked = try? primary.withConnection { try $0.query(PostgresConnection.walPositionSQL).int64(0, 0) }
        guard let current = asked ?? nil else { return nil }
        return position.withLock { position in
            position.required = max(position.required, current)
            position.asked = max(position.asked, received)
            return position.required
        }
    }

    /// Errors after which a read runs elsewhere, by SQLSTATE (raw, or reported as the framework's error): the
    /// replica is unreachable or its connection broke (`08xxx`), it is shutting down or starting (`57P0x`), it
    /// cancelled the read for a conflict with recovery (`40001`), or all its connections stayed busy (`53300`).
    private static func leavesReplicaOut(_ error: any Error) -> Bool {
        guard let code = (error as? PostgresError)?.sqlState ?? (error as? SwiftDataError)?.storeCode else {
            return false
        }
        return code.hasPrefix("08") || code.hasPrefix("57P") || code == "40001" || code == "53300"
    }

    /// A replica's replayed WAL position in bytes; a server that is no standby (a promoted one) has all it
    /// committed.
    static let replayPositionSQL =
        "SELECT (COALESCE(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn()) - '0/0')::int8"
}
