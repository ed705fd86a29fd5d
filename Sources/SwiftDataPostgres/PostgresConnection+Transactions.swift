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
        if isInTransaction { return try savepoint(body) }
        var attempt = 1
        while true {
            do {
                try begin(isolation: isolation, readOnly: readOnly)
                let result = try body(self)
                try execute("COMMIT")
                return result
            } catch let error as PostgresError where error.isTransient && attempt < attempts {
                rollback()
                // A random pause, growing with each attempt, so that the conflicting transactions part ways.
                let limit = 1 << min(attempt, 6)
                Thread.sleep(forTimeInterval: Double.random(in: 0...Double(limit)) / 1000)
                attempt += 1
            } catch {
                rollback()
                throw error
            }
        }
    }

    private func begin(isolation: PostgresIsolationLevel, readOnly: Bool) throws {
        let sql = "BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : "")
        do {
            try execute(sql)
        } catch let error as PostgresError where error.kind == .connectionLost {
            try reset()
            try execute(sql)
        }
    }

    /// Rolls back what is open, if the connection still works; a broken connection has nothing open.
    private func rollback() {
        guard !isBroken, isInTransaction else { return }
        do { try execute("ROLLBACK") } catch { Log.error("rollback failed: \(error)") }
    }

    private func savepoint<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try execute("SAVEPOINT swiftdata_savepoint")
        do {
            let result = try body(self)
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
