import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The PostgreSQL store's side of a migration (`SchemaMigrationTarget`), inside the transaction that opens the
/// store: its recorded schema, what its tables hold, and the DDL that changes them, in place (`ALTER TABLE`;
/// PostgreSQL's DDL is transactional, so a failure leaves the store as it was). Core decides what changes
/// (`SchemaDiff`, `LightweightMigration`) and runs migration plans (`MigrationPlanRun`).
struct PostgresMigration: SQLMigrationTarget {
    let connection: PostgresConnection
    /// The schema the store records; updated as entities migrate.
    var recorded: StoredSchema
    let configuration: PostgresConfiguration
    let identifier: String
    let dialect = PostgreSQLDialect()

    func storage(of attribute: Schema.Attribute) -> String { PostgresSchemaSQL.recordedStorage(of: attribute) }

    /// A `double precision` column of `Double`s may hold NULL for a required value: the store keeps NaN as NULL.
    func acceptsNoValue(storage: String) -> Bool { storage == PostgresType.float8.sqlName }

    // MARK: What the tables hold

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
        let strings = Set(
            entity?.attributes.filter { $0.storage == PostgresType.text.sqlName }.map { dialect.quote($0.name) } ?? [])
        let result = try connection.execute(
            SchemaStatements.duplicates(in: table, columns: constraint, dialect: dialect) { column in
                strings.contains(column) ? "normalize(\(column), NFC)" : column
            })
        return try (0..<result.rowCount).map { row in
            let values = try constraint.indices.map { "\(constraint[$0]) = \(try result.string(row, $0) ?? "NULL")" }
            return values.joined(separator: ", ") + " (\(try result.string(row, constraint.count) ?? "?") models)"
        }
    }

    func count(_ sql: String) throws -> Int64 {
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
        for statement in MigrationStatements.joinTables(of: migration, dialect: dialect) {
            try connection.execute(statement)
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
            try dropColumn(old, of: entity.name)
        }
        let definitions = PostgresSchemaSQL.columns(entity)
        for column in migration.columns {
            let name = dialect.quote(column.name)
            guard let definition = definitions.first(where: { $0.name == column.name }) else { continue }
            if let source = column.source {
                if source != column.name {
                    try connection.execute(
                        MigrationStatements.renameColumn(of: entity.name, source, to: column.name, dialect: dialect))
                    for trigger in try triggers(naming: source, of: entity.name) {
                        Log.warning(
                            "the migration of \(entity.name) renamed its column \(source) to \(column.name), but \(trigger) still names \(source): PostgreSQL does not rewrite a function's body, so the trigger fails when it runs; change the function (CREATE OR REPLACE FUNCTION) to use \(column.name)"
                        )
                    }
                }
            } else {
                try connection.execute(
                    MigrationStatements.addColumn(column.name, type: definition.type, to: entity.name, dialect: dialect)
                )
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
        // A renamed column keeps its index, under the old relationship's name: drop the old names' and the new (and
        // the names earlier versions gave them).
        let oldRelationships = recordedEntity(entity.name)?.relationships ?? []
        let columnRelationships = entity.orderedRelationships.filter { $0.storage == .column }
        for name in Set(
            oldRelationships.filter { $0.storage == "column" }.map(\.name) + columnRelationships.map(\.name))
        {
            for index in SchemaStatements.foreignKeyIndexNames(of: entity.name, name, dialect: dialect) {
                try connection.execute(MigrationStatements.dropIndex(index, ifExists: true, dialect: dialect))
            }
        }
        for relationship in columnRelationships {
            try connection.execute(PostgresSchemaSQL.foreignKeyIndex(entity, relationship))
        }
    }

    /// The table of an entity as the store records it, before this migration changes it.
    private func recordedEntity(_ name: String) -> StoredSchema.StoredEntity? {
        recorded.entities.first { $0.name == name }
    }

    /// Moves an attribute's values between its column (`bytea`) and the external data table (the column then holds
    /// references), when `.externalStorage` was added or removed.
    private func moveValues(of entity: String, _ column: String, _ toExternal: Bool) throws {
        let table = dialect.quote(entity)
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
        try dropColumn(column, of: entity)
        try connection.execute(
            MigrationStatements.renameColumn(of: entity, "_swiftdata_moved", to: column, dialect: dialect))
    }

    /// Drops a column the models no longer have (or whose values moved). PostgreSQL refuses while another object
    /// depends on it, such as a view of the program: the migration then fails, naming the model, the property and what
    /// depends on it, and the store is left as it was. It does not drop with `CASCADE`, which would drop the program's
    /// view with no word, nor keep the column, which the program's view would go on reading as if it were current.
    private func dropColumn(_ column: String, of table: String) throws {
        let views = try views(using: column, of: table)
        let (property, what) = describe(column, of: table)
        func dependents(_ objects: String, sql: String?, code: String?, message: String?) -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "the migration of \(table) removes \(what), but \(objects) \(views.count > 1 ? "depend" : "depends") on it; the store was left as it was",
                model: table, property: property, sql: sql, storeCode: code, storeMessage: message,
                suggestion:
                    "Drop those objects or change them so they no longer use \(column) (DROP VIEW, CREATE OR REPLACE VIEW), open the store again, then make them again without it"
            )
        }
        guard views.isEmpty else {
            throw dependents(views.joined(separator: ", "), sql: nil, code: "2BP01", message: nil)
        }
        do {
            try connection.execute("ALTER TABLE \(dialect.quote(table)) DROP COLUMN \(dialect.quote(column))")
        } catch let error as PostgresError where error.sqlState == "2BP01" {
            throw dependents(
                "an object of the program (\(error.detail ?? error.message))", sql: error.sql, code: error.sqlState,
                message: error.message)
        }
    }

    /// The property a column of the recorded table `table` stores, and the column in words: an attribute's column,
    /// or the key or position column of a to-one relationship (named after the relationship, which is the property).
    private func describe(_ column: String, of table: String) -> (property: String, words: String) {
        let recorded = recordedEntity(table)
        let entities = (recorded.map { [$0] } ?? []) + (recorded?.subentities ?? [])
        for entity in entities {
            for relationship in entity.relationships ?? [] where relationship.storage == "column" {
                let name = "\(entity.name).\(relationship.name)"
                if relationship.name == column { return (column, "the key column of the relationship \(name)") }
                if Schema.Relationship.positionColumn(of: relationship.name) == column {
                    return (relationship.name, "the position column \(column) of the relationship \(name)")
                }
            }
        }
        return (column, "the column of \(table).\(column)")
    }

    /// The views and materialized views that read a column of a table of the store, as `view <schema>.<name>`.
    private func views(using column: String, of table: String) throws -> [String] {
        let result = try connection.preparedQuery(
            """
            SELECT DISTINCT CASE v.relkind WHEN 'm' THEN 'materialized view ' ELSE 'view ' END \
            || quote_ident(vn.nspname) || '.' || quote_ident(v.relname) FROM pg_attribute a \
            JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace \
            JOIN pg_depend d ON d.refobjid = a.attrelid AND d.refobjsubid = a.attnum \
            AND d.classid = 'pg_rewrite'::regclass \
            JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class v ON v.oid = r.ev_class \
            JOIN pg_namespace vn ON vn.oid = v.relnamespace \
            WHERE tn.nspname = $1 AND t.relname = $2 AND a.attname = $3 AND v.oid <> t.oid ORDER BY 1
            """, [.text(configuration.postgresSchema), .text(table), .text(column)])
        return try (0..<result.rowCount).compactMap { try result.string($0, 0) }
    }

    /// The program's triggers whose functions name `column` of the store's table `table` in their code, each as
    /// `trigger <name> on <table> (function <name>)`: a trigger on that table whose function names the column (as a
    /// word, ignoring case), and a trigger on any other table, in any PostgreSQL schema, whose function names both
    /// the table and the column. Comments and string literals in a function's body do not count. A renamed column's
    /// triggers still fire (PostgreSQL follows the rename in `UPDATE OF` lists and views), but a function's body is
    /// kept as written.
    func triggers(naming column: String, of table: String) throws -> [String] {
        let result = try connection.preparedQuery(
            """
            SELECT t.tgname::text, c.relname::text, p.proname::text, p.prosrc, \
            (n.nspname = $1 AND c.relname = $2)::text FROM pg_trigger t \
            JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace \
            JOIN pg_proc p ON p.oid = t.tgfoid \
            WHERE NOT t.tgisinternal AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2
            """, [.text(configuration.postgresSchema), .text(table)])
        return try (0..<result.rowCount).compactMap { row in
            let code = Self.codeOutsideCommentsAndStrings(try result.string(row, 3) ?? "")
            let onTable = try result.string(row, 4) == "true"
            guard Self.names(code, column), onTable || Self.names(code, table) else { return nil }
            return "trigger \(try result.string(row, 0) ?? "?") on \(try result.string(row, 1) ?? "?") "
                + "(function \(try result.string(row, 2) ?? "?"))"
        }
    }

    /// Whether `code` holds `word` as a word of its own, ignoring case.
    static func names(_ code: String, _ word: String) -> Bool {
        let pattern = "(?<![A-Za-z0-9_$])" + NSRegularExpression.escapedPattern(for: word) + "(?![A-Za-z0-9_$])"
        return code.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// A function's body without its comments (`-- ...`, `/* ... */`) and string literals (`'...'`), each replaced
    /// by a space.
    static func codeOutsideCommentsAndStrings(_ body: String) -> String {
        var code = ""
        var characters = body.makeIterator()
        var next = characters.next()
        while let character = next {
            next = characters.next()
            switch (character, next) {
            case ("-", "-"):
                while let skipped = next, skipped != "\n" { next = characters.next() }
                code.append(" ")
            case ("/", "*"):
                next = characters.next()
                var last: Character = " "
                while let skipped = next, !(last == "*" && skipped == "/") {
                    last = skipped
                    next = characters.next()
                }
                next = characters.next()
                code.append(" ")
            case ("'", _):
                // A quote inside a literal is written twice: the literal goes on past it.
                while let skipped = next {
                    next = characters.next()
                    if skipped == "'" {
                        guard next == "'" else { break }
                        next = characters.next()
                    }
                }
                code.append(" ")
            default:
                code.append(character)
            }
        }
        return code
    }

    /// Drops the entity's unique and plain indexes, and creates those of the models. Index names are matched by
    /// their exact beginnings (`LIKE` would take `_` for any character, and drop a user's `Item_indexed` too; see
    /// `Schema.indexNamePrefixes`), and a name shortened past its beginning (see `PostgresSchemaSQL.indexName`) by
    /// the names of the indexes the store records.
    mutating func createIndexes(of entity: Schema.Entity) throws {
        // Only the table's: an earlier name of one of its indexes may be another table's index's name now.
        let recordedNames = Set(recordedEntity(entity.name).map(PostgresSchemaSQL.indexNames) ?? [])
        let prefixes = PostgresSchemaSQL.indexNamePrefixes(of: entity.selfAndDescendants.map(\.name))
        let result = try connection.preparedQuery(
            "SELECT indexname::text FROM pg_indexes WHERE schemaname = $1 AND tablename = $2",
            [.text(configuration.postgresSchema), .text(entity.name)])
        for name in try (0..<result.rowCount).compactMap({ try result.string($0, 0) })
        where recordedNames.contains(name) || prefixes.contains(where: name.hasPrefix) {
            try connection.execute(MigrationStatements.dropIndex(name, dialect: dialect))
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
