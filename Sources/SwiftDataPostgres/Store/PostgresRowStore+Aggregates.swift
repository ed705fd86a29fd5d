import Foundation
import SwiftDataCore
import SwiftDataSQL

extension PostgresRowStore {
    /// Runs the query's one statement (see `AggregateStatements`), reading its result whole before calling `row`.
    package func fetchAggregates<T: PersistentModel>(
        _ request: FetchRequest<T>, query: AggregateQuery, row: (any _RowReader) throws -> Void
    ) throws -> Bool {
        guard
            let statement = AggregateStatements.statement(
                request, query: query, schema: schema, dialect: dialect, translate: plan)
        else { return false }
        let result = try read([self.query(statement)], model: request.entity.name)[0]
        let reader = PostgresRowReader(result)
        for index in 0..<result.rowCount {
            reader.row = index
            try row(reader)
        }
        return true
    }
}
