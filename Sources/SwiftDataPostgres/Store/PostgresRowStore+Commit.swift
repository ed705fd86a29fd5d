import Foundation
import SwiftDataCore

/// What a save does when its connection is lost at the `COMMIT`: the server may have committed the transaction
/// before the connection broke, so that only its answer was lost, or not. Throwing in the first case would make the
/// context keep changes that are already saved, and a retry would write them twice (new models as second rows);
/// returning in the second would lose them. So each save writes a random identifier into `_swiftdata_saves` in its
/// own transaction (with its `BEGIN`), and when the answer to its `COMMIT` is lost, the store asks the server, on the
/// same connection connected again, whether that identifier is there. It asks by inserting the identifier itself (in
/// a transaction that leaves nothing behind): while the lost transaction runs, the insert waits for it to end, so the
/// answer is final (a conflict means it committed); and it keeps asking while the server is down, restarting or
/// recovering (`57P03`), for up to the configuration's `commitOutcomeWait`. (The save lock would not do: a save takes
/// it late, maybe in the very `COMMIT` that was lost. A transaction identifier would not do either: after a crash the
/// server may hand the same number to a new transaction.) Identifiers older than a day are deleted.
///
/// When the answer does not come in that time, the save throws an error of its own (SQLSTATE `08007`) and the store
/// remembers the identifier, with the keys the save gave the context's new models. The next save of the same
/// context asks again first: if the lost save committed, that save writes each of those models over the row the lost
/// save wrote for it (it deletes the old row, then inserts the model under its new key), so each model is stored
/// once; if it did not commit, the save is an ordinary one. Only if the server still cannot tell does it throw that
/// error again, writing nothing.
extension PostgresRowStore {
    /// The table of the identifiers of recent saves.
    static let savesTable = "_swiftdata_saves"

    /// How long identifiers stay in `savesTable`; a save of unknown outcome older than `answerableAge` can no longer
    /// be settled.
    static let savesKept = "1 day"
    static let answerableAge: Duration = .seconds(20 * 3600)

    /// The definition of `savesTable`.
    static let savesTableDefinition =
        "CREATE TABLE IF NOT EXISTS \(savesTable) (id uuid PRIMARY KEY, saved_at timestamptz NOT NULL DEFAULT now())"

    /// The statement that deletes identifiers older than `savesKept`.
    static let pruneSaves = "DELETE FROM \(savesTable) WHERE saved_at < now() - interval '\(savesKept)'"

    /// Creates `savesTable` in a store that lacks it, and deletes old identifiers.
    static func prepareSavesTable(_ connection: PostgresConnection, tables: Set<String>, allowsSave: Bool) throws {
        guard allowsSave else { return }
        try connection.execute(tables.contains(savesTable) ? pruneSaves : savesTableDefinition)
    }

    /// The statement that notes the save `id` in its transaction (sent with its `BEGIN`).
    static func noteSave(_ id: UUID) -> String {
        "INSERT INTO \(savesTable) (id) VALUES ('\(id.uuidString)')"
    }

    /// Whether the save `id` committed: an insert of its identifier waits until any transaction of that save has
    /// ended, then conflicts if it committed. The insert is deleted again in its transaction. Waits until
    /// `deadline`: `nil` when the save's transaction was still running then.
    static func committed(_ id: UUID, on connection: PostgresConnection, until deadline: ContinuousClock.Instant)
        throws -> Bool?
    {
        do {
            return try connection.transaction(isolation: .readCommitted, attempts: 1) { connection in
                let remaining = max(1, (deadline - ContinuousClock.now).milliseconds)
                try connection.execute("SET LOCAL lock_timeout = \(remaining)")
                let inserted = try connection.preparedQuery(
                    "INSERT INTO \(savesTable) (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id", [.uuid(id)])
                guard inserted.rowCount == 1 else { return true }
                try connection.preparedQuery("DELETE FROM \(savesTable) WHERE id = $1", [.uuid(id)])
                return false
            }
        } catch let error as PostgresError where error.sqlState == "55P03" {
            return nil
        }
    }

    /// Returns when the save `id` committed; throws otherwise: a `.connectionLost` error saying it was not saved
    /// (saving again is safe), or a `.commitOutcomeUnknown` error (the server did not answer within `wait`).
    static func confirmCommit(of id: UUID, on connection: PostgresConnection, lost: PostgresError, wait: Duration)
        throws
    {
        let deadline = ContinuousClock.now + wait
        var pause = 0.02
        var problem = lost.message
        while true {
            let committed: Bool?
            do {
                if connection.isBroken { try connection.reset() }
                committed = try Self.committed(id, on: connection, until: deadline)
            } catch let error as PostgresError
                where [.connectionLost, .unreachable].contains(error.kind) && ContinuousClock.now < deadline
            {
                // The server is down, restarting or recovering (57P03): ask again in a while.
                problem = error.message
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.5)
                continue
            } catch let error as PostgresError {
                throw outcomeUnknown(
                    id, server: lost.server, because: "the server did not answer within \(wait) (\(error.message))")
            }
            switch committed {
            case true?:
                Log.debug("the connection was lost at the COMMIT of save \(id), which committed")
                return
            case false?:
                throw PostgresError(
                    .connectionLost, sqlState: lost.sqlState, server: lost.server, message: lost.message,
                    detail: "the save was not committed (the server rolled its transaction back); saving again is safe",
                    sql: lost.sql)
            case nil:
                throw outcomeUnknown(
                    id, server: lost.server,
                    because: "the transaction was still running after \(wait) (\(problem))")
            }
        }
    }

    /// The error of a save whose outcome stays unknown.
    static func outcomeUnknown(_ id: UUID, server: String?, because reason: String) -> PostgresError {
        PostgresError(
            .commitOutcomeUnknown, sqlState: "08007", server: server,
            message: "the connection was lost at the COMMIT of save \(id)", detail: reason)
    }

    /// Learns what became of the context's earlier saves of unknown outcome (one question each), keeping the rows
    /// of those that committed for the save about to run; throws a `.commitOutcomeUnknown` error if the server still
    /// cannot tell.
    func settle(_ saves: inout UnsettledSaves, on connection: PostgresConnection) throws {
        while let first = saves.unknown.first {
            let earlier = "an earlier save of this context lost its connection at the COMMIT, and "
            guard ContinuousClock.now - first.lostAt < Self.answerableAge else {
                throw Self.outcomeUnknown(
                    first.id, server: connection.endpoint.description,
                    because: earlier + "it is too old for the server to tell whether it committed")
            }
            let committed: Bool?
            do {
                if connection.isBroken { try connection.reset() }
                committed = try Self.committed(
                    first.id, on: connection, until: .now + configuration.commitOutcomeWait)
            } catch let error as PostgresError {
                throw Self.outcomeUnknown(
                    first.id, server: error.server ?? connection.endpoint.description,
                    because: earlier + "the server cannot be asked whether it committed (\(error.summary): "
                        + "\(error.message))")
            }
            switch committed {
            case true?:
                for (identifier, insert) in first.keys { saves.committed[identifier, default: []].append(insert) }
            case false?:
                break
            case nil:
                throw Self.outcomeUnknown(
                    first.id, server: connection.endpoint.description,
                    because: earlier + "its transaction is still running")
            }
            saves.unknown.removeFirst()
        }
    }

    /// What a save's transaction inserted: its batches of rows, kept as they were passed (no copy per row), for the
    /// store to remember if the transaction's outcome stays unknown.
    final class InsertedRows {
        var batches: [(entity: String, rows: [RowWrite])] = []
    }

    /// A transaction whose outcome a save could not learn, and the keys it gave new models, by model.
    struct UnsettledTransaction {
        let id: UUID
        let lostAt: ContinuousClock.Instant
        let keys: [ObjectIdentifier: LostInsert]
    }

    /// A row a transaction of unknown outcome inserted for a model. The model is kept, so that its identifier is
    /// not reused by another object while the store remembers it.
    struct LostInsert {
        let model: AnyObject
        let entity: String
        let key: Int64
    }

    /// What the store remembers of one context's saves of unknown outcome: transactions not settled yet, and the
    /// rows of those found committed, which its next save replaces (see the extension's comment).
    struct UnsettledSaves {
        var unknown: [UnsettledTransaction] = []
        var committed: [ObjectIdentifier: [LostInsert]] = [:]
    }

    /// What a transaction of unknown outcome inserted, by model.
    static func lostInserts(_ inserted: InsertedRows) -> [ObjectIdentifier: LostInsert] {
        var keys: [ObjectIdentifier: LostInsert] = [:]
        for (entity, rows) in inserted.batches {
            for row in rows {
                guard let model = row.model else { continue }
                keys[ObjectIdentifier(model)] = LostInsert(model: model, entity: entity, key: row.key)
            }
        }
        return keys
    }
}
