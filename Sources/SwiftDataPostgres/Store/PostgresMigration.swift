import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The PostgreSQL store's side of a migration (`SchemaMigrationTarget`), inside the transaction that opens the
/// store: its recorded schema, what its tables hold, and the DDL that changes them, in place (`ALTER TABLE`;
/// PostgreSQL's DDL is transactional, so a failure leaves the store as it was). Core decides what changes
/// (`SchemaDiff`, `LightweightMigration`) and runs migration plans (`MigrationPlanRun`).
struct PostgresMigration: SchemaMigrationTarget {
    let connection: PostgresConnection
    /// The schema the store records; updated as entities migrate.
    var recorded: StoredSchema
    let configuration: PostgresConfiguration
    let identifier: String
    private let dialect = PostgreSQLDialect()

    init(
        connection: PostgresConnection, recorded: StoredSchema, configuration: PostgresConfiguration,
        identifier: String
    ) {
        self.connection = connection
        self.recorded = recorded
        self.configuration = configuration
        self.identifier = identifier
    }

    func storage(of attribute: Schema.Attribute) -> String { PostgresSchemaSQL.recordedStorage(of: attribute) }

    /// A `double precision` column of `Double`s may hold NULL for a required value: the store keeps NaN as NULL.
    func acceptsNoValue(storage: String) -> Bool { storage == PostgresType.float8.sqlName }

    // MARK: What the tables hold

    func rowCount(of table: String) throws -> Int64 {
        try count("SELECT count(*) FROM \(dialect.quote(table))")
    }

    func rowCount(of table: String, entities: [String]) throws -> Int64 {
        try count("SELECT count(*) FROM \(dialect.quote(table))\(StoreLayout.entityClause(entities, in: dialect))")
    }

    func nilCount(of table: String, column: String) throws -> Int64 {
        try count("SELECT count(*) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NULL")
    }

    func columnNames(of table: String) throws -> [String] {
        let result = try connection.preparedQuery(
            """
            SELECT column_name::text FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 \
            ORDER BY ordinal_position
            """, [.text(configuration.postgresSchema), .text(table)])
        return try (0..<result.rowCount).compactMap { try result.string($0, 0) }.filter {
            $0 != PostgresRowStore.keyColumn
        }
    }

    func hasTable(_ table: String) throws -> Bool {
        try PostgresRowStore.tableNames(connection, namespace: configuration.postgresSchema).contains(table)
    }

    func duplicates(in table: String, columns constraint: [String]) throws -> [String] {
        let entity = recorded.entities.first { $0.name == table }
        let keys = constraint.map { column -> String in
            let isString = entity?.attributes.first { $0.name == column }?.storage == PostgresType.text.sqlName
            return isString ? "normalize(\(dialect.quote(column)), NFC)" : dialect.quote(column)
        }
        let list = keys.joined(separator: ", ")
        let result = try connection.execute(
            "SELECT \(list), count(*) FROM \(dialect.quote(table)) WHERE "
                + constraint.map { "\(dialect.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
                + " GROUP BY \(list) HAVING count(*) > 1 LIMIT 3")
        return try (0..<result.rowCount).map { row in
            let values = try constraint.indices.map { "\(constraint[$0]) = \(try result.string(row, $0) ?? "NULL")" }
            return values.joined(separator: ", ") + " (\(try result.string(row, constraint.count) ?? "?") models)"
        }
    }

    private func count(_ sql: String) throws -> Int64 {
        try connection.query(sql).int64(0, 0) ?? 0
    }

    // MARK: Changing them

    mutating func createTable(for entity: Schema.Entity) throws {
        for statement in PostgresSchemaSQL.createTable(entity) { try connection.execute(statement) }
    }

    /// Changes the table in place: join tables, then columns added (filled), renamed, dropped, made required or
    /// optional, and values moved into or out of external storage. Indexes follow in `createIndexes`.
    mutating func migrateTable(_ migration: EntityMigration) throws {
        let entity = migration.entity
        let table = dialect.quote(entity.name)
        for change in migration.joinTables {
            switch change {
            case .create(let name):
                for statement in PostgresSchemaSQL.createJoinTable(name) { try connection.execute(statement) }
            case .rename(let old, let new, let reversed):
                try moveJoinTable(from: old, to: new, reversed: reversed)
            case .drop(let name):
                try connection.execute("DROP TABLE IF EXISTS \(dialect.quote(name))")
            }
        }
        guard migration.changesColumns else { return }
        let kept = Set(migration.columns.compactMap(\.source))
        for old in try columnNames(of: entity.name) where !kept.contains(old) {
            if recorded.entities.first(where: { $0.name == entity.name })?.attributes
                .first(where: { $0.name == old })?.isExternal == true
            {
                try connection.execute(
                    "DELETE FROM \(PostgresRowStore.externalTable) WHERE id IN (SELECT \(dialect.quote(old)) FROM \(table))"
                )
            }
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(dialect.quote(old))")
        }
        let definitions = PostgresSchemaSQL.columns(entity)
        for column in migration.columns {
            let name = dialect.quote(column.name)
            guard let definition = definitions.first(where: { $0.name == column.name }) else { continue }
            if let source = column.source {
                if source != column.name {
                    try connection.execute("ALTER TABLE \(table) RENAME COLUMN \(dialect.quote(source)) TO \(name)")
                }
            } else {
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(name) \(definition.type)")
            }
            if let fill = column.fill {
                try connection.query(
                    "UPDATE \(table) SET \(name) = $1::\(definition.type) WHERE \(name) IS NULL",
                    [PostgresValue(storing: fill)])
            }
        }
        for (column, toExternal) in migration.movedValues { try moveValues(of: entity.name, column, toExternal) }
        for definition in definitions {
            try connection.execute(
                "ALTER TABLE \(table) ALTER COLUMN \(dialect.quote(definition.name)) "
                    + (definition.isRequired ? "SET NOT NULL" : "DROP NOT NULL"))
        }
        // A renamed column keeps its index, under the old relationship's name: drop the old names' and the new.
        let oldRelationships = recordedEntity(entity.name)?.relationships ?? []
        let columnRelationships = entity.orderedRelationships.filter { $0.storage == .column }
        for name in Set(
            oldRelationships.filter { $0.storage == "column" }.map(\.name) + columnRelationships.map(\.name))
        {
            try connection.execute(
                "DROP INDEX IF EXISTS \(dialect.quote(PostgresSchemaSQL.indexName("\(entity.name)_\(name)")))")
        }
        for relationship in columnRelationships {
            try connection.execute(PostgresSchemaSQL.foreignKeyIndex(entity, relationship))
        }
    }

    /// The table of an entity as the store records it, before this migration changes it.
    private func recordedEntity(_ name: String) -> StoredSchema.StoredEntity? {
        recorded.entities.first { $0.name == name }
    }

    /// Moves a join table's rows to a table of a new name, made with its key and index as a new store makes them (a
    /// renamed table would keep its old index names, which a later table of that name needs), swapping the owner
    /// and member sides when `reversed`.
    private func moveJoinTable(from old: String, to new: String, reversed: Bool) throws {
        let source = old == new ? "\(old)__moving" : old
        if old == new {
            try connection.execute(
                "CREATE TEMP TABLE \(dialect.quote(source)) ON COMMIT DROP AS SELECT * FROM \(dialect.quote(old)); "
                    + "DROP TABLE \(dialect.quote(old))")
        }
        for statement in PostgresSchemaSQL.createJoinTable(new) { try connection.execute(statement) }
        let columns = ["owner", "member", "position", "inverse_position"].map(dialect.quote)
        let sources = reversed ? [columns[1], columns[0], columns[3], columns[2]] : columns
        try connection.execute(
            "INSERT INTO \(dialect.quote(new)) (\(columns.joined(separator: ", "))) "
                + "SELECT \(sources.joined(separator: ", ")) FROM \(dialect.quote(source)); DROP TABLE \(dialect.quote(source))"
        )
    }

    /// Moves an attribute's values between its column (`bytea`) and the external data table (the column then holds
    /// references), when `.externalStorage` was added or removed.
    private func moveValues(of table: String, _ column: String, _ toExternal: Bool) throws {
        let table = dialect.quote(table)
        let name = dialect.quote(column)
        let moved = dialect.quote("_swiftdata_moved")
        let external = PostgresRowStore.externalTable
        if toExternal {
            try connection.execute(
                """
                ALTER TABLE \(table) ADD COLUMN \(moved) text;
                UPDATE \(table) SET \(moved) = CASE WHEN length(\(name)) = 0 THEN '' ELSE gen_random_uuid()::text END \
                WHERE \(name) IS NOT NULL;
                INSERT INTO \(external) (id, data) SELECT \(moved), \(name) FROM \(table) WHERE \(moved) <> '';
                """)
        } else {
            try connection.execute(
                """
                ALTER TABLE \(table) ADD COLUMN \(moved) bytea;
                UPDATE \(table) SET \(moved) = CASE WHEN \(name) = '' THEN ''::bytea \
                ELSE (SELECT data FROM \(external) AS e WHERE e.id = \(table).\(name)) END WHERE \(name) IS NOT NULL;
                DELETE FROM \(external) WHERE id IN (SELECT \(name) FROM \(table));
                """)
        }
        try connection.execute(
            "ALTER TABLE \(table) DROP COLUMN \(name); ALTER TABLE \(table) RENAME COLUMN \(moved) TO \(name)")
    }

    /// Drops the entity's unique and plain indexes, and creates those of the models. Index names are matched by
    /// their exact prefix (`LIKE` would take `_` for any character, and drop a user's `Item_indexed` too), and a
    /// name shortened past its prefix (see `PostgresSchemaSQL.indexName`) by the names of the indexes the store
    /// records.
    mutating func createIndexes(of entity: Schema.Entity) throws {
        for name in recordedEntity(entity.name).map(PostgresSchemaSQL.indexNames) ?? [] {
            try connection.execute("DROP INDEX IF EXISTS \(dialect.quote(name))")
        }
        let result = try connection.preparedQuery(
            """
            SELECT indexname::text FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 \
            AND (starts_with(indexname, $3) OR starts_with(indexname, $4))
            """,
            [
                .text(configuration.postgresSchema), .text(entity.name), .text("\(entity.name)_unique_"),
                .text("\(entity.name)_index_"),
            ])
        for name in try (0..<result.rowCount).compactMap({ try result.string($0, 0) }) {
            try connection.execute("DROP INDEX \(dialect.quote(name))")
        }
        for statement in PostgresSchemaSQL.indexStatements(entity) { try connection.execute(statement) }
    }

    // MARK: Migration plans

    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
        // The stage's contexts see the stage's models, not the final version's that the configuration names.
        var stageConfiguration = configuration
        stageConfiguration.schema = nil
        let store = PostgresRowStore(
            sharing: connection, configuration: stageConfiguration, schema: schema, identifier: identifier)
        return (stageConfiguration, store)
    }
}
