import CLibPQ

extension PostgresConnection {
    /// How many executions `executeBatch` sends before it waits for their answers.
    package static let batchChunkSize = 200

    /// Runs a prepared statement once for each list of parameters, sending up to `batchChunkSize` executions
    /// before reading their answers (libpq's pipeline mode), so that a write of many rows waits for the server once
    /// per chunk instead of once per row. Meant for writes (`INSERT`, `UPDATE`, `DELETE`), whose answers are small.
    /// Returns the number of rows affected. The first failure stops the batch and is thrown; each chunk runs in one
    /// implicit transaction, so call it inside a transaction to make the whole batch atomic.
    @discardableResult
    package func executeBatch(_ statement: PostgresStatement, _ rows: [[PostgresValue]]) throws -> Int {
        try checkOwnership(statement)
        guard !rows.isEmpty else { return 0 }
        guard PQenterPipelineMode(handle) == 1 else { throw error(from: nil, sql: statement.sql) }
        defer { PQexitPipelineMode(handle) }
        var affected = 0
        var start = 0
        while start < rows.count {
            let end = min(start + Self.batchChunkSize, rows.count)
            var failure: (any Error)?
            var sent = 0
            for values in rows[start..<end] {
                do {
                    try send(statement, values)
                    sent += 1
                } catch {
                    failure = error
                    break
                }
            }
            roundTrips += 1
            guard PQpipelineSync(handle) == 1 else { throw error(from: nil, sql: statement.sql) }
            affected += try collect(sent, sql: statement.sql, failure: &failure)
            if let failure { throw failure }
            start = end
        }
        return affected
    }

    private func send(_ statement: PostgresStatement, _ values: [PostgresValue]) throws {
        try withParameters(values) { count, types, pointers, lengths, formats in
            guard send(statement, count, types, pointers, lengths, formats) else {
                throw error(from: nil, sql: statement.sql)
            }
        }
    }

    /// Reads the answers to `count` executions and the sync that follows them; returns the rows they affected and
    /// keeps the first failure in `failure`.
    private func collect(_ count: Int, sql: String, failure: inout (any Error)?) throws -> Int {
        var affected = 0
        var nulls = 0
        while true {
            guard let result = PQgetResult(handle) else {
                // A NULL ends each execution's answers; two in a row mean no more will come.
                nulls += 1
                if nulls > 1 && isBroken { throw error(from: nil, sql: sql) }
                continue
            }
            nulls = 0
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(result)
                return affected
            }
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                affected += PostgresResult(result).affectedRows
            } else {
                if failure == nil && status != PGRES_PIPELINE_ABORTED { failure = error(from: result, sql: sql) }
                PQclear(result)
            }
        }
    }
}
