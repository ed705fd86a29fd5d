import CLibPQ
import SwiftDataCore

/// One statement of a pipeline (`PostgresConnection.pipeline`).
package enum PostgresPipelineStep {
    /// SQL text without parameters (such as `BEGIN` or `COMMIT`).
    case sql(String)
    /// A statement with parameters, prepared once per connection as `preparedQuery` prepares it.
    case query(String, [PostgresValue])
    /// A statement prepared on the connection, with its parameters.
    case statement(PostgresStatement, [PostgresValue])
}

extension PostgresConnection {
    /// Runs one step on its own, waiting for the server: SQL text with `execute`, a query as `preparedQuery` runs it.
    @discardableResult
    package func run(_ step: PostgresPipelineStep) throws -> PostgresResult {
        switch step {
        case .sql(let sql): try execute(sql)
        case .query(let sql, let values): try preparedQuery(sql, values)
        case .statement(let statement, let values): try query(statement, values)
        }
    }

    /// Sends `steps` one after another and waits for the server once for all of them (libpq's pipeline mode, one
    /// sync), returning each step's result, in binary form. The first failure makes the server skip the steps
    /// after it, and is thrown once every answer was read; inside a transaction, the transaction has then failed
    /// and must be rolled back (outside one, the steps ran in one implicit transaction that rolled back). A lost
    /// connection throws a `.connectionLost` error.
    @discardableResult
    package func pipeline(_ steps: [PostgresPipelineStep]) throws -> [PostgresResult] {
        // Statements are prepared before the pipeline starts: preparing waits for the server.
        let prepared = try steps.map { step -> (sql: String, statement: PostgresStatement?, values: [PostgresValue]) in
            switch step {
            case .sql(let sql):
                Log.debug(sql)
                observer?(sql)
                return (sql, nil, [])
            case .query(let sql, let values):
                return (sql, try cachedStatement(sql, values.map(\.type)), values)
            case .statement(let statement, let values):
                try checkOwnership(statement)
                return (statement.sql, statement, values)
            }
        }
        guard PQenterPipelineMode(handle) == 1 else { throw error(from: nil, sql: prepared.first?.sql) }
        defer { PQexitPipelineMode(handle) }
        var failure: (any Error)?
        var sent: [String] = []
        for step in prepared {
            Self.trace?(step.sql, false)
            do {
                if let statement = step.statement {
                    try withParameters(step.values) { count, types, pointers, lengths, formats in
                        guard send(statement, count, types, pointers, lengths, formats) else {
                            throw error(from: nil, sql: step.sql)
                        }
                    }
                } else {
                    guard PQsendQueryParams(handle, step.sql, 0, nil, nil, nil, nil, 1) == 1 else {
                        throw error(from: nil, sql: step.sql)
                    }
                }
                sent.append(step.sql)
            } catch {
                failure = error
                break
            }
        }
        roundTrips += 1
        guard PQpipelineSync(handle) == 1 else { throw failure ?? error(from: nil, sql: sent.last) }
        let results = try collectPipeline(sent, failure: &failure)
        if let failure { throw failure }
        return results
    }

    /// Reads the answers to the statements `sent` and the sync after them: each one's result, and the first
    /// failure in `failure`.
    private func collectPipeline(_ sent: [String], failure: inout (any Error)?) throws -> [PostgresResult] {
        var results: [PostgresResult] = []
        results.reserveCapacity(sent.count)
        // The statement whose answer comes next; each answer ends with a NULL from `PQgetResult`.
        var index = 0
        var answered = false
        var nulls = 0
        while true {
            let sql = index < sent.count ? sent[index] : sent.last
            guard let result = PQgetResult(handle) else {
                nulls += 1
                // Two NULLs in a row on a broken connection: no more answers will come.
                if nulls > 1 && isBroken { throw failure ?? error(from: nil, sql: sql) }
                if answered {
                    index += 1
                    answered = false
                }
                continue
            }
            nulls = 0
            answered = true
            let status = PQresultStatus(result)
            switch status {
            case PGRES_PIPELINE_SYNC:
                PQclear(result)
                return results
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                results.append(PostgresResult(result))
            case PGRES_PIPELINE_ABORTED:
                PQclear(result)
            default:
                if failure == nil { failure = error(from: result, sql: sql) }
                PQclear(result)
            }
        }
    }
}
