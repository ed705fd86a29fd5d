import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The PostgreSQL store's part of a migration preview and of migrating a copy (see `MigrationPreview`).
extension PostgresConfiguration: MigrationPreviewing {
    package func previewTarget() throws -> (target: any SchemaMigrationTarget, version: Schema.Version?)? {
        let connection = try PostgresRowStore.mapErrors(opening: true) { try PostgresConnection(url) }
        let schema = PostgreSQLDialect().quote(postgresSchema)
        if transactionPooling {
            // Behind a pooler in transaction mode, session settings would reach other clients' sessions: the
            // preview reads in one read-only transaction, with its settings made in it. Closing the connection
            // ends it.
            connection.preparesStatements = false
            try connection.execute(
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "
                    + "SELECT set_config('search_path', \(PostgresRowStore.literal(schema)), true)")
        } else {
            try connection.execute("SET search_path TO \(schema); SET default_transaction_read_only TO on")
        }
        let tables = try PostgresRowStore.tableNames(connection, namespace: postgresSchema)
        let stored = try PostgresRowStore.readMetadata(
            connection, tables: tables, namespace: postgresSchema, server: connection.endpoint.description)
        guard let schema = stored.schema else { return nil }
        let target = PostgresMigration(
            connection: connection, recorded: schema, configuration: self, identifier: stored.identifier ?? "")
        return (target, stored.version)
    }

    package var rebuildsChangedTables: Bool { false }

    /// A copy of the store's tables, rows and indexes in a new PostgreSQL schema of the same database, made in one
    /// transaction that reads one state of the store; deleting it drops that schema.
    package func temporaryCopy() throws -> (configuration: any DataStoreConfiguration, remove: () -> Void) {
        let connection = try PostgresRowStore.mapErrors(opening: true) { try PostgresConnection(url) }
        let dialect = PostgreSQLDialect()
        let copy = "swiftdata_copy_" + UUID().uuidString.prefix(8).lowercased()
        let (from, to) = (dialect.quote(postgresSchema), dialect.quote(copy))
        try connection.transaction(isolation: .repeatableRead, attempts: 1) { connection in
            try connection.execute("CREATE SCHEMA \(to)")
            for table in try PostgresRowStore.tableNames(connection, namespace: postgresSchema).sorted() {
                let name = dialect.quote(table)
                try connection.execute(
                    """
                    CREATE TABLE \(to).\(name) (LIKE \(from).\(name) INCLUDING DEFAULTS INCLUDING IDENTITY); \
                    INSERT INTO \(to).\(name) OVERRIDING SYSTEM VALUE SELECT * FROM \(from).\(name)
                    """)
            }
            let indexes = try connection.query(
                """
                SELECT replace(indexdef, ' ON ' || quote_ident($1) || '.', ' ON ' || quote_ident($2) || '.') \
                FROM pg_indexes WHERE schemaname = $1
                """, [.text(postgresSchema), .text(copy)])
            for row in 0..<indexes.rowCount {
                if let statement = try indexes.string(row, 0) { try connection.execute(statement) }
            }
            guard try PostgresRowStore.tableNames(connection, namespace: copy).contains(PostgresRowStore.historyTable)
            else { return }
            try connection.execute(
                """
                SET LOCAL search_path TO \(to); \
                SELECT setval(pg_get_serial_sequence('\(PostgresRowStore.historyTable)', 'number'), \
                coalesce((SELECT max(number) FROM \(PostgresRowStore.historyTable)), 0) + 1, false)
                """)
        }
        // The copy is reached as the store is (through its pooler too), and read on the primary only.
        var configuration = self
        configuration.postgresSchema = copy
        configuration.readReplicas = []
        return (configuration, { _ = try? connection.execute("DROP SCHEMA \(to) CASCADE") })
    }
}
