import Foundation
import SwiftDataCore
import SwiftDataSQL

/// What tools need of the PostgreSQL store to read and write a store's tables without models (inspect, dump, copy,
/// check): the names of its own tables, the statements that make an empty store, and how it keeps values.
extension PostgresRowStore {
    package static let inspection = Inspection()

    /// The store's own names and statements.
    package struct Inspection: Sendable {
        package let metadataTable = PostgresRowStore.metadataTable
        package let sequenceTable = PostgresRowStore.sequenceTable
        package let externalTable = PostgresRowStore.externalTable
        package let historyTable = PostgresRowStore.historyTable
        package let savesTable = PostgresRowStore.savesTable
        package let keyColumn = PostgresRowStore.keyColumn

        /// The statements that make an empty store for `schema` in the current PostgreSQL schema: the store's own
        /// tables and each entity's table with its indexes and join tables, as the store makes them.
        package func creationStatements(for schema: Schema) -> [String] {
            PostgresSchemaSQL.storeTables + [
                HistoryStatements.definition(PostgreSQLDialect()), PostgresRowStore.savesTableDefinition,
            ]
                + schema.entities.filter { $0.superentity == nil }.flatMap {
                    PostgresSchemaSQL.createTable($0.tableEntity)
                }
        }

        /// How the store records the storage of an attribute whose values have this meaning.
        package func recordedStorage(of type: StoreValueType) -> String {
            type == .date ? "double precision (seconds since 2001)" : PostgresType(storing: type).sqlName
        }

        /// A value as the store keeps it.
        package func value(storing value: StoreValue) -> PostgresValue {
            PostgresValue(storing: value)
        }
    }
}
