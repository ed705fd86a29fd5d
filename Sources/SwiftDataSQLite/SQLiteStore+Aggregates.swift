import Foundation
import SwiftDataCore
import SwiftDataSQL

extension SQLiteStore {
    /// Runs the query's one statement (see `AggregateStatements`) on a reader connection.
    package func fetchAggregates<T: PersistentModel>(
        _ request: FetchRequest<T>, query: AggregateQuery, row: (any _RowReader) throws -> Void
    ) throws -> Bool {
        let statement = AggregateStatements.statement(
            request, query: query, schema: schema, dialect: dialect, translate: plan)
        guard let statement else { return false }
        try withReader { database in
            let prepared = try database.statement(statement.sql)
            defer { prepared.reset() }
            try prepared.bind(statement.parameters)
            let reader: any _RowReader = prepared
            do {
                while try SQLiteStore.step(prepared, entity: request.entity) { try row(reader) }
            } catch let error as SwiftDataError where error.storeMessage == "integer overflow" {
                throw error.with(
                    reason: "a sum of \(request.entity.name) does not fit in 64-bit integers",
                    suggestion: "Sum fewer models, or a floating-point or Decimal attribute")
            }
        }
        return true
    }
}
