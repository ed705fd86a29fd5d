import Foundation
import SwiftDataCore
import SwiftDataSQL

extension PostgresRowStore {
    /// What the metadata table records.
    struct Metadata {
        var identifier: String?
        var schema: StoredSchema?
        var version: Schema.Version?

        /// Whether the store holds `schema`'s models as they are: opening it migrates nothing.
        func holds(_ schema: Schema) -> Bool {
            guard let recorded = self.schema else { return false }
            let current = StoredSchema(schema, storage: PostgresSchemaSQL.recordedStorage).entities
            return current.allSatisfy(recorded.entities.contains) && version == schema.version
        }
    }

    /// Creates the PostgreSQL schema and the store's tables, or migrates them to `schema` (through the stages of
    /// `migrationPlan` first, when the store records an older version), and returns the store identifier. It runs
    /// in one transaction (PostgreSQL's DDL is transactional), holding the lock saves take: any number of
    /// processes may open one store at once, one creates or migrates it, and a failure leaves it as it was. A
    /// migration first locks the tables against writes (`lockTablesIfMigrating`), then takes the save lock. A
    /// transaction that still loses a deadlock or a serialization failure (SQLSTATE `40P01`, `40001`), which the
    /// server rolled back whole, runs again, up to the configuration's `saveRetries` times, as a save does.
    static func prepare(
        _ connection: PostgresConnection, schema: Schema, configuration: PostgresConfiguration,
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> String {
        let namespace = configuration.postgresSchema
        let server = connection.endpoint.description
        let wait = PostgresTestHooks.lockWait ?? 600
        // The error for a lock another session held past the wait, for a statement of `sql`; `step` names the stage
        // of a migration plan whose own fetch or save waited, for rows or a table another session held.
        func lockHeld(sql: String?, message: String?, during step: String? = nil) -> SwiftDataError {
            SwiftDataError.storeError.with(
                reason:
                    "another session held a lock on the store in the PostgreSQL schema '\(namespace)' on \(server) for more than \(Int(wait)) seconds while this one waited to create or migrate it\(step.map { ", in \($0)" } ?? ""); the store was left untouched",
                sql: sql, storeCode: "55P03", storeMessage: message,
                suggestion:
                    "Let the other session finish (a large migration takes a while), or end a session left idle in a transaction (pg_stat_activity lists them), then open the store again"
            )
        }
        var runs = 1
        while true {
            do {
                return try connection.transaction(isolation: .readCommitted, attempts: 1) { connection in
                    try connection.execute("SET LOCAL lock_timeout = \(Int(wait * 1000))")
                    return try prepareInTransaction(
                        connection, schema: schema, configuration: configuration, migrationPlan: migrationPlan)
                }
            } catch  where isConflict(error) && runs <= configuration.saveRetries {
                Log.debug("opening the store in the PostgreSQL schema '\(namespace)' runs again after: \(error)")
                PostgresConnection.pauseAfterConflict(attempt: runs)
                runs += 1
            } catch let error as PostgresError where error.sqlState == "55P03" {
                throw lockHeld(sql: error.sql, message: error.message)
            } catch let error as SwiftDataError where error.storeCode == "55P03" {
                // A migration stage's own fetch or save waited: the stage's context reported the store's error.
                let reason = error.reason ?? ""
                let stage =
                    reason.hasPrefix("migration stage")
                    ? reason.range(of: " failed").map { reason[..<$0.lowerBound] } : nil
                throw lockHeld(sql: error.sql, message: error.storeMessage, during: stage.map(String.init))
            }
        }
    }

    /// `prepare`'s work, inside its transaction.
    private static func prepareInTransaction(
        _ connection: PostgresConnection, schema: Schema, configuration: PostgresConfiguration,
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> String {
        let namespace = configuration.postgresSchema
        let server = connection.endpoint.description
        if configuration.allowsSave {
            try lockTablesIfMigrating(connection, schema: schema, namespace: namespace, server: server)
        }
        try lockSaves(connection, postgresSchema: namespace)
        let exists =
            try connection.preparedQuery(
                "SELECT 1 FROM pg_namespace WHERE nspname = $1", [.text(namespace)]
            ).rowCount > 0
        if !exists {
            guard configuration.allowsSave else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the PostgreSQL schema '\(namespace)' does not exist on \(server)",
                    suggestion: "Open the store with allowsSave: true once to create it")
            }
            try connection.execute("CREATE SCHEMA \(PostgreSQLDialect().quote(namespace))")
        }
        let tables = try tableNames(connection, namespace: namespace)
        try PostgresSchemaSQL.checkStoreNames(schema, existingTables: tables)
        try createHistoryTable(connection, tables: tables, allowsSave: configuration.allowsSave)
        try prepareSavesTable(connection, tables: tables, allowsSave: configuration.allowsSave)
        let stored = try readMetadata(connection, tables: tables, namespace: namespace, server: server)
        if let identifier = stored.identifier, stored.holds(schema) {
            if configuration.allowsSave { try repairIndexes(connection, schema: schema, namespace: namespace) }
            return identifier
        }
        guard configuration.allowsSave else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the store in the PostgreSQL schema '\(namespace)' on \(server) does not hold the models",
                suggestion: "Open the store with allowsSave: true once, so that it is created or migrates")
        }
        if stored.schema == nil, let foreign = schema.entities.first(where: { tables.contains($0.name) }) {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "the PostgreSQL schema '\(namespace)' on \(server) has a table \(foreign.name) that this framework did not create",
                model: foreign.name, suggestion: "Use another PostgreSQL schema (postgresSchema:)")
        }
        for statement in PostgresSchemaSQL.storeTables { try connection.execute(statement) }
        // Indexes under earlier names go first: such a name may be that of an index the migration makes.
        let dropped =
            stored.schema == nil ? [] : try renameEarlierIndexes(connection, schema: schema, namespace: namespace)
        let identifier = stored.identifier ?? UUID().uuidString
        var migration = PostgresMigration(
            connection: connection, recorded: stored.schema ?? StoredSchema(entities: []),
            configuration: configuration, identifier: identifier)
        if let plan = migrationPlan, stored.schema != nil {
            let version =
                MigrationPlanRun.storeVersion(recorded: stored.version, in: plan, target: migration)
                ?? stored.version
            if let version, version != schema.version {
                try MigrationPlanRun.run(plan, from: version, to: schema.version, on: &migration)
            }
        }
        try LightweightMigration.migrate(&migration, to: schema, checkingForeignTables: stored.schema == nil)
        // The entities the migration left alone keep their indexes, under the names they had.
        if stored.schema != nil {
            try repairIndexes(connection, schema: schema, namespace: namespace, dropped: dropped)
        }
        let json = String(decoding: try JSONEncoder().encode(migration.recorded), as: UTF8.self)
        try connection.preparedQuery(
            """
            INSERT INTO \(metadataTable) (key, value) VALUES ('schema', $1), ('store_identifier', $2), \
            ('schema_version', $3) ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, [.text(json), .text(identifier), .text(schema.version.description)])
        return identifier
    }

    /// The indexes of the models' tables (see `PostgresSchemaSQL.indexes`), with those of their foreign keys.
    private static func storeIndexes(_ schema: Schema) -> [StoreIndex] {
        schema.entities.filter { $0.superentity == nil }.flatMap {
            PostgresSchemaSQL.indexes($0.tableEntity)
                + SchemaStatements.foreignKeyIndexes($0.tableEntity, dialect: PostgreSQLDialect())
        }
    }

    /// The names of the indexes of a PostgreSQL schema.
    private static func indexNames(_ connection: PostgresConnection, namespace: String) throws -> Set<String> {
        let result = try connection.preparedQuery(
            "SELECT indexname::text FROM pg_indexes WHERE schemaname = $1", [.text(namespace)])
        return Set(try (0..<result.rowCount).compactMap { try result.string($0, 0) })
    }

    /// Gives the indexes stores made by earlier versions hold under earlier names (see `Schema.earlierIndexNames`)
    /// their names, in the opening transaction, and returns the earlier names it dropped instead: one that is also
    /// the name, or an earlier name, of another index of the models (`[a, b]` and `[a_b]` were both `_a_b`) may stand
    /// for either, so it is dropped, and `repairIndexes` makes both again. One look at `pg_indexes`, only when the
    /// models have indexes with earlier names.
    private static func renameEarlierIndexes(_ connection: PostgresConnection, schema: Schema, namespace: String)
        throws -> Set<String>
    {
        let all = storeIndexes(schema)
        let renamed = all.filter { !$0.earlierNames.isEmpty }
        guard !renamed.isEmpty else { return [] }
        var existing = try indexNames(connection, namespace: namespace)
        // How many of the models' indexes a name may stand for: its own, and those it was an earlier name of.
        var standsFor: [String: Int] = [:]
        for index in all {
            for name in Set([index.name] + index.earlierNames) { standsFor[name, default: 0] += 1 }
        }
        var dropped: Set<String> = []
        let dialect = PostgreSQLDialect()
        for index in renamed where !existing.contains(index.name) {
            for earlier in index.earlierNames where existing.contains(earlier) {
                let quoted = "\(dialect.quote(namespace)).\(dialect.quote(earlier))"
                if standsFor[earlier] == 1 && !existing.contains(index.name) {
                    try connection.execute("ALTER INDEX \(quoted) RENAME TO \(dialect.quote(index.name))")
                    existing.insert(index.name)
                } else {
                    try connection.execute("DROP INDEX \(quoted)")
                    dropped.insert(earlier)
                }
                existing.remove(earlier)
            }
        }
        return dropped
    }

    /// Brings the indexes of a store already current (or just migrated) to what the models have, in the opening
    /// transaction: the indexes that stand for `.rtree` indexes (see `PostgresSchemaSQL.spatialColumns`), which
    /// stores made before PostgreSQL had them lack, and the indexes stores made by earlier versions hold under earlier
    /// names, renamed (see `renameEarlierIndexes`, which gave the migration the names it dropped, `dropped`), or made
    /// again when such a name may stand for several. Looks at `pg_indexes` only when the models have such indexes.
    private static func repairIndexes(
        _ connection: PostgresConnection, schema: Schema, namespace: String, dropped earlier: Set<String> = []
    ) throws {
        let all = storeIndexes(schema)
        let wanted = all.filter { $0.isSpatial || !$0.earlierNames.isEmpty }
        guard !wanted.isEmpty || !earlier.isEmpty else { return }
        let dropped = earlier.union(try renameEarlierIndexes(connection, schema: schema, namespace: namespace))
        var existing = try indexNames(connection, namespace: namespace)
        let made = Set(wanted.map(\.name)).union(dropped)
        for index in all where !existing.contains(index.name) && made.contains(index.name) {
            try connection.execute(index.statement)
            existing.insert(index.name)
        }
    }

    /// Locks the store's tables against writes (not reads, nor rows locked by `SELECT ... FOR UPDATE`) and against
    /// other migrations when the store migrates, before the save lock: a save holds the tables it wrote while it
    /// waits for the save lock with its `COMMIT`, so a migration that took the save lock first and then waited for
    /// such a table would deadlock with it. Saves that started wait for the tables instead, holding nothing a
    /// migration needs. The metadata is read again under the save lock.
    private static func lockTablesIfMigrating(
        _ connection: PostgresConnection, schema: Schema, namespace: String, server: String
    ) throws {
        let tables = try tableNames(connection, namespace: namespace)
        let stored = try readMetadata(connection, tables: tables, namespace: namespace, server: server)
        guard stored.schema != nil, !stored.holds(schema) else { return }
        let dialect = PostgreSQLDialect()
        let written = tables.subtracting([savesTable, metadataTable]).sorted()
        guard !written.isEmpty else { return }
        try connection.execute(
            "LOCK TABLE "
                + written.map { dialect.quote(namespace) + "." + dialect.quote($0) }.joined(separator: ", ")
                + " IN SHARE ROW EXCLUSIVE MODE")
    }

    /// The names of the tables of a PostgreSQL schema.
    static func tableNames(_ connection: PostgresConnection, namespace: String) throws -> Set<String> {
        let result = try connection.preparedQuery(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = $1", [.text(namespace)])
        return Set(try (0..<result.rowCount).compactMap { try result.string($0, 0) })
    }

    static func readMetadata(
        _ connection: PostgresConnection, tables: Set<String>, namespace: String, server: String
    ) throws -> Metadata {
        guard tables.contains(metadataTable) else { return Metadata() }
        var metadata = Metadata()
        let result = try connection.preparedQuery("SELECT key, value FROM \(metadataTable)")
        for row in 0..<result.rowCount {
            guard let key = try result.string(row, 0), let value = try result.string(row, 1) else { continue }
            switch key {
            case "store_identifier": metadata.identifier = value
            case "schema_version":
                let parts = value.split(separator: ".").compactMap { Int($0) }
                if parts.count == 3 { metadata.version = Schema.Version(parts[0], parts[1], parts[2]) }
            case "schema":
                do {
                    metadata.schema = try JSONDecoder().decode(StoredSchema.self, from: Data(value.utf8))
                } catch {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason:
                            "the recorded schema of the store in the PostgreSQL schema '\(namespace)' on \(server) cannot be read: \(error)",
                        suggestion: "The store was written by an incompatible version; restore it from a backup")
                }
            default: break
            }
        }
        if metadata.schema != nil && metadata.version == nil { metadata.version = Schema.Version(1, 0, 0) }
        return metadata
    }
}
