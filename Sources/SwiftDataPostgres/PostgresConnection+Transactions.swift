import Foundation
import SwiftDataCore

/// How much a transaction sees of transactions that run at the same time (PostgreSQL's isolation levels).
package enum PostgresIsolationLevel: String, Sendable {
    /// Each statement sees what was committed before it began.
    case readCommitted = "READ COMMITTED"
    /// The whole transaction sees what was committed before its first statement; writing a row that another
    /// transaction changed meanwhile fails with a serialization failure.
    case repeatableRead = "REPEATABLE READ"
    /// As if the transactions that commit had run one after another; any other outcome fails with a
    /// serialization failure.
    case serializable = "SERIALIZABLE"
}

extension PostgresConnection {
    /// How often `transaction` runs a body that failed with a serialization failure or a deadlock, in all.
    package static let defaultTransactionAttempts = 5

    /// Runs `body` in a transaction and commits it; rolls back if `body` throws.
    ///
    /// The default level is `.serializable`, so that concurrent saves from several processes behave as if they ran
    /// one after another, as they do on SQLite. When the server reports a serialization failure or a deadlock
    /// (SQLSTATE `40001`, `40P01`), at any statement or at the commit, the transaction is rolled back and `body`
    /// runs again, after a short random pause, up to `attempts` times in all; then the error is thrown. `body`
    /// must therefore be safe to run again: it should only read and write through this connection. A connection
    /// found broken when the transaction begins (an idle connection the server closed) is reset and the
    /// transaction begun again, since nothing was sent yet. Inside a transaction already, `body` runs in a
    /// savepoint, and only the outermost transaction retries.
    @discardableResult
    package func transaction<Result>(
        isolation: PostgresIsolationLevel = .serializable, readOnly: Bool = false,
        attempts: Int = defaultTransactionAttempts, _ body: (PostgresConnection) throws -> Result
    ) throws -> Result {
        try transaction(isolation: isolation, readOnly: readOnly, attempts: attempts, beginningWith: nil) {
            connection, _ in try body(connection)
        }
    }

    /// Runs `body` in a transaction as `transaction(isolation:readOnly:attempts:_:)` does, with `first` as the
    /// transaction's first statement, sent with its `BEGIN` so that both wait for the server once; `body` receives
    /// its result (`nil` without `first`). Statements given to `executeAtCommit` in `body` are sent with the
    /// `COMMIT`, again in one round trip.
    @discardableResult
    package func transaction<Result>(
        isolation: PostgresIsolationLevel = .serializable, readOnly: Bool = false,
        attempts: Int = defaultTransactionAttempts, beginningWith first: PostgresPipelineStep?,
        _ body: (PostgresConnection, PostgresResult?) throws -> Result
    ) throws -> Result {
        if isInTransaction { return try savepoint(first: first, body) }
        defer { commitSteps = nil }
        var attempt = 1
        while true {
            do {
                let opened = try begin(isolation: isolation, readOnly: readOnly, first: first)
                commitSteps = []
                let result = try body(self, opened)
                try commit()
                return result
            } catch let error as PostgresError where error.isTransient && attempt < attempts {
                commitSteps = nil
                rollback()
                Self.pauseAfterConflict(attempt: attempt)
                attempt += 1
            } catch {
                commitSteps = nil
                rollback()
                throw error
            }
        }
    }

    /// A random pause after a transaction's `attempt`th run conflicted, growing with each attempt, so that the
    /// conflicting transactions part ways.
    package static func pauseAfterConflict(attempt: Int) {
        let limit = 1 << min(attempt, 6)
        Thread.sleep(forTimeInterval: Double.random(in: 0...Double(limit)) / 1000)
    }

    /// Runs `sql` with `values` when the transaction commits, sent with its `COMMIT` so that both wait for the
    /// server once: in the outermost transaction that `transaction` runs. Elsewhere (in a savepoint, or outside a
    /// transaction) it runs now. Its failure makes the commit fail, and the transaction roll back; its result is not
    /// returned, but kept in `commitResults` once the transaction committed. Meant for writes whose result the
    /// transaction does not need, such as a log row.
    package func executeAtCommit(_ sql: String, _ values: [PostgresValue]) throws {
        guard commitSteps != nil else {
            try preparedQuery(sql, values)
            return
        }
        // The statement is prepared now: preparing it at the commit would wait for the server once more.
        commitSteps?.append(.statement(try cachedStatement(sql, values.map(\.type)), values))
    }

    /// Runs `steps` in a `READ COMMITTED` transaction of their own, sent with its `BEGIN`, the
    /// `transactionSettings` and its `COMMIT` in one message, so that a read behind a pooler in transaction mode
    /// waits for the server once; returns each step's result. A failure rolls the transaction back and is thrown.
    /// A connection found broken is reset and the steps sent again once: they only read.
    package func readTransaction(_ steps: [PostgresPipelineStep]) throws -> [PostgresResult] {
        if isInTransaction { return try steps.map(run) }
        let settings = transactionSettings.map { [PostgresPipelineStep.sql($0)] } ?? []
        let opening = [PostgresPipelineStep.sql("BEGIN ISOLATION LEVEL READ COMMITTED")] + settings
        var wasReset = false
        while true {
            do {
                let results = try pipeline(opening + steps + [.sql("COMMIT")])
                return Array(results[opening.count..<opening.count + steps.count])
            } catch let error as PostgresError where error.kind == .connectionLost && !wasReset {
                try reset()
                wasReset = true
            } catch {
                rollback()
                throw error
            }
        }
    }

    /// Begins the transaction, with `first` in the same round trip (in one message when it is SQL text); returns
    /// `first`'s result.
    private func begin(isolation: PostgresIsolationLevel, readOnly: Bool, first: PostgresPipelineStep?) throws
        -> PostgresResult?
    {
        let begin = "BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : "")
        let sql = begin + (transactionSettings.map { "; " + $0 } ?? "")
        func run() throws -> PostgresResult? {
            switch first {
            case nil:
                try execute(sql)
                return nil
            case .sql(let text)?:
                // Statements without parameters go in one message, which returns the last one's result.
                return try execute(sql + "; " + text)
            case .query?, .statement?:
                let settings = transactionSettings.map { [PostgresPipelineStep.sql($0)] } ?? []
                return try pipeline([.sql(begin)] + settings + [first].compactMap { $0 }).last
            }
        }
        do {
            return try run()
        } catch let error as PostgresError where error.kind == .connectionLost {
            // Nothing was written: the server ends a transaction whose connection broke.
            try reset()
            return try run()
        }
    }

    /// Commits, with the statements `executeAtCommit` kept, in one round trip; and, when the connection
    /// `reportsCommitPosition`, asks for the WAL position after the commit in that round trip too.
    private func commit() throws {
        let steps = commitSteps ?? []
        commitSteps = nil
        commitPosition = nil
        commitResults = []
        let position = reportsCommitPosition ? [PostgresPipelineStep.sql(Self.walPositionSQL)] : []
        if steps.isEmpty && position.isEmpty {
            try execute("COMMIT")
        } else if steps.isEmpty {
            commitPosition = try execute("COMMIT; " + Self.walPositionSQL).int64(0, 0)
        } else {
            let results = try pipeline(steps + [.sql("COMMIT")] + position)
            commitResults = Array(results.prefix(steps.count))
            if !position.isEmpty { commitPosition = try results.last?.int64(0, 0) }
        }
    }

    /// The server's WAL insert position in bytes: on a primary, every transaction committed before it asked is
    /// at or before it.
    package static let walPositionSQL = "SELECT (pg_current_wal_insert_lsn() - '0/0')::int8"

    /// Rolls back what is open, if the connection still works; a broken connection has nothing open.
    private func rollback() {
        guard !isBroken, isInTransaction else { return }
        do { try execute("ROLLBACK") } catch { Log.error("rollback failed: \(error)") }
    }

    private func savepoint<Result>(
        first: PostgresPipelineStep?, _ body: (PostgresConnection, PostgresResult?) throws -> Result
    ) throws -> Result {
        try execute("SAVEPOINT swiftdata_savepoint")
        // What the savepoint's body runs at the commit runs now: a rollback to the savepoint must undo it.
        let outerSteps = commitSteps
        commitSteps = nil
        defer { commitSteps = outerSteps }
        do {
            let opened = try first.map(run)
            let result = try body(self, opened)
            try execute("RELEASE SAVEPOINT swiftdata_savepoint")
            return result
        } catch {
            if !isBroken {
                do {
                    try execute("ROLLBACK TO SAVEPOINT swiftdata_savepoint; RELEASE SAVEPOINT swiftdata_savepoint")
                } catch {
                    Log.error("rollback to savepoint failed: \(error)")
                }
            }
            throw error
        }
    }
}
