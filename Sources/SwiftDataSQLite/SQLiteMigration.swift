import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The SQLite store's side of a migration (`SchemaMigrationTarget`), inside the caller's transaction: its recorded
/// schema, what its tables hold, and the DDL that changes them. Core decides what changes (`SchemaDiff`,
/// `LightweightMigration`) and runs migration plans (`MigrationPlanRun`).
struct SQLiteMigration: SQLMigrationTarget {
    let database: SQLiteDatabase
    /// The schema the store records; updated as entities migrate.
    var recorded: StoredSchema
    let external: ExternalStorage?
    let configuration: ModelConfiguration
    let identifier: String
    let dialect = SQLiteDialect()

    func storage(of attribute: Schema.Attribute) -> String { SQLiteStore.recordedStorage(of: attribute) }

    /// A REAL column may hold NULL for a required value: SQLite keeps NaN as NULL.
    func acceptsNoValue(storage: String) -> Bool { storage == StorageClass.real.rawValue }

    // MARK: What the tables hold

    /// The number a `count(*)` query returns.
    func count(_ sql: String) throws -> Int64 {
        if case .integer(let count) = try database.rows(sql).first?.first { return count }
        return 0
    }

    func columnNames(of table: String) throws -> [String] {
        try database.rows("SELECT name FROM pragma_table_info(?)", [.string(table)]).compactMap {
            if case .text(let name) = $0.first, name != SQLiteStore.keyColumn { name } else { nil }
        }
    }

    func hasTable(_ table: String) throws -> Bool {
        !(try database.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(table)]))
            .isEmpty
    }

    func duplicates(in table: String, columns constraint: [String]) throws -> [String] {
        let rows = try database.rows(SchemaStatements.duplicates(in: table, columns: constraint, dialect: dialect))
        return rows.map { row in
            zip(constraint, row).map { "\($0) = \($1)" }.joined(separator: ", ") + " (\(row.last ?? .null) models)"
        }
    }

    // MARK: Changing them

    mutating func createTable(for entity: Schema.Entity) throws {
        try database.executeScript(SQLiteStore.createTable(entity))
    }

    mutating func migrateTable(_ migration: EntityMigration) throws {
        let entity = migration.entity
        for statement in MigrationStatements.joinTables(of: migration, dialect: dialect) {
            try database.executeScript(statement)
        }
        if migration.changesColumns {
            try rebuildTable(entity, columns: migration.columns)
            for (column, toFiles) in migration.movedValues {
                try moveValues(of: entity.name, column: column, toFiles: toFiles)
            }
        } else if migration.changesIndexes {
            // Names are matched by their exact beginnings: `LIKE` takes `_` for any character and ignores case.
            let prefixes = ownIndexPrefixes(of: entity, kinds: [.unique, .index])
            let indexes = try database.rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [.string(entity.name)])
            for case .text(let name)? in indexes.map(\.first) where prefixes.contains(where: name.hasPrefix) {
                try database.executeScript(MigrationStatements.dropIndex(name, dialect: dialect))
            }
        }
    }

    /// The beginnings of the names of the indexes (of `kinds`) the store makes, or made in earlier versions, on an
    /// entity's table: those of its entities, as the models and the store's record have them (see
    /// `Schema.indexNamePrefixes`).
    private func ownIndexPrefixes(of entity: Schema.Entity, kinds: [Schema.IndexKind]) -> [String] {
        let recordedEntity = recorded.entities.first { $0.name == entity.name }
        let names = Set(
            entity.selfAndDescendants.map(\.name) + [entity.name]
                + (recordedEntity?.subentities ?? []).map(\.name))
        return names.sorted().flatMap { name in kinds.flatMap { Schema.indexNamePrefixes($0, of: name) } }
    }

    mutating func createIndexes(of entity: Schema.Entity) throws {
        let recordedEntity = recorded.entities.first { $0.name == entity.name }
        try SQLiteSpatialIndex.drop(
            of: entity.name, (recordedEntity?.spatialIndices ?? []) + entity.spatialIndices, in: database)
        try SQLiteSearchIndex.drop(
            of: entity.name, (recordedEntity?.searchIndices ?? []) + entity.searchIndices, in: database)
        for statement in SQLiteStore.indexStatements(entity) { try database.executeScript(statement) }
    }

    /// Recreates the table with the new columns, copying every row, with the indexes of its foreign keys (the
    /// others follow in `createIndexes`), and the indexes and triggers on it that the store did not make (see
    /// `foreignObjects`). Renamed columns are renamed in the old table first, so that those indexes and triggers,
    /// and the program's views, follow the rename.
    private func rebuildTable(_ entity: Schema.Entity, columns: [EntityMigration.Column]) throws {
        let table = dialect.quote(entity.name)
        let temporary = "\(entity.name)__migrating"
        try checkTemporaryName(temporary, of: entity.name)
        let columns = try renameColumns(of: entity.name, columns)
        let foreign = try foreignObjects(of: entity)
        try database.executeScript(SQLiteStore.createTable(entity, tableName: temporary, withJoinTables: false))
        var parameters: [StoreValue] = []
        let sources = columns.map { column -> String in
            switch (column.source, column.fill) {
            case (let source?, let fill?):
                parameters.append(fill)
                return "coalesce(\(dialect.quote(source)), ?)"
            case (let source?, nil):
                return dialect.quote(source)
            case (nil, let fill?):
                parameters.append(fill)
                return "?"
            case (nil, nil):
                return "NULL"
            }
        }
        let key = dialect.quote(SQLiteStore.keyColumn)
        try database.execute(
            "INSERT INTO \(dialect.quote(temporary)) (\(([key] + columns.map { dialect.quote($0.name) }).joined(separator: ", "))) SELECT \(([key] + sources).joined(separator: ", ")) FROM \(table)",
            parameters)
        try database.executeScript("DROP TABLE \(table)")
        // Without the legacy rule, renaming checks every view, and one on the dropped table would fail it.
        try database.executeScript("PRAGMA legacy_alter_table = ON")
        defer { try? database.executeScript("PRAGMA legacy_alter_table = OFF") }
        try database.executeScript("ALTER TABLE \(dialect.quote(temporary)) RENAME TO \(table)")
        for relationship in entity.orderedRelationships where relationship.storage == .column {
            try database.executeScript(SQLiteStore.foreignKeyIndex(entity, relationship))
        }
        for (name, sql) in foreign {
            do {
                try database.executeScript(sql)
            } catch {
                Log.warning(
                    "the migration of \(entity.name) dropped \(name), which needs a column it removed (or could not rename): \(error)"
                )
            }
        }
    }

    /// Throws when the store has a table or index named `temporary` (SQLite ignores the case of ASCII letters), the
    /// name a migration rebuilds `table` in: a model's table of that name stands in its way.
    private func checkTemporaryName(_ temporary: String, of table: String) throws {
        let rows = try database.rows(
            "SELECT name FROM sqlite_master WHERE name = ? COLLATE NOCASE", [.string(temporary)])
        guard case .text(let name)? = rows.first?.first else { return }
        let isModel = recorded.entities.contains { $0.name == name }
        throw SwiftDataError.loadIssueModelContainer.with(
            reason:
                "the migration of \(table) rebuilds its table in a table named \(temporary), and the store has \(isModel ? "the table of the model" : "a table or index named") \(name)",
            model: table,
            suggestion: isModel
                ? "Give one of them another name: rename the model \(name), or the model \(table)"
                : "Rename the model \(table), or drop or rename \(name)")
    }

    /// Renames the columns the migration renames in the table as it is, with SQLite's `RENAME COLUMN`, which also
    /// changes the indexes, triggers and views that use them (a program's own, which a rebuild then makes again on
    /// the renamed column, as PostgreSQL keeps them); returns `columns` with their sources' new names. Each column
    /// involved first takes a name of its own, so that no rename meets a column of its new name (SQLite's names
    /// ignore case: a removed `Note` is in the way of a `note`). A rename SQLite refuses (a view or trigger of the
    /// program it cannot read any more) leaves its column to the rebuild, which drops what needs the old name, with
    /// a warning.
    private func renameColumns(of table: String, _ columns: [EntityMigration.Column]) throws
        -> [EntityMigration.Column]
    {
        let renamed = columns.filter { $0.source != nil && $0.source != $0.name }
        guard !renamed.isEmpty else { return columns }
        let sources = Set(renamed.compactMap(\.source))
        let targets = Set(renamed.map { $0.name.lowercased() })
        let keptNames = Set(columns.filter { $0.source == $0.name }.map(\.name))
        func rename(_ old: String, to new: String) -> Bool {
            do {
                try database.executeScript(MigrationStatements.renameColumn(of: table, old, to: new, dialect: dialect))
                return true
            } catch {
                Log.warning(
                    "the migration of \(table) could not rename the column \(old) to \(new) in place, so the program's own indexes, triggers and views that use it are dropped: \(error)"
                )
                return false
            }
        }
        var current: [String: String] = [:]
        for (number, old) in try columnNames(of: table).enumerated()
        where (sources.contains(old) || targets.contains(old.lowercased())) && !keptNames.contains(old) {
            let aside = "\(old)__renaming_\(number)"
            if rename(old, to: aside) { current[old] = aside }
        }
        for column in renamed {
            guard let source = column.source, let aside = current[source] else { continue }
            if rename(aside, to: column.name) { current[source] = column.name }
        }
        return columns.map { column in
            var column = column
            if let source = column.source, let now = current[source] { column.source = now }
            return column
        }
    }

    /// The names and SQL of the indexes and triggers on an entity's table that the store did not make: a program's
    /// own, which a rebuild of the table would drop (the store's own are made again from the models).
    private func foreignObjects(of entity: Schema.Entity) throws -> [(name: String, sql: String)] {
        let relationships = (recorded.entities.first { $0.name == entity.name }?.relationships ?? [])
            .filter { $0.storage == "column" }.map(\.name)
        let own = Set(
            relationships.flatMap { relationship in
                [Schema.foreignKeyIndexName(of: entity.name, relationship)]
                    + (Schema.earlierForeignKeyIndexName(of: entity.name, relationship).map { [$0] } ?? [])
            })
        let ownPrefixes = ownIndexPrefixes(of: entity, kinds: [.unique, .index, .rtree])
        return try database.rows(
            "SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? AND sql IS NOT NULL",
            [.string(entity.name)]
        ).compactMap { row in
            guard case .text(let name) = row[0], case .text(let sql) = row[1], !own.contains(name),
                !ownPrefixes.contains(where: name.hasPrefix)
            else { return nil }
            return (name, sql)
        }
    }

    /// Moves an attribute's values between the rows and files, when `.externalStorage` was added or removed (an
    /// in-memory store keeps them in the rows either way).
    private func moveValues(of table: String, column: String, toFiles: Bool) throws {
        guard let external else { return }
        let key = dialect.quote(SQLiteStore.keyColumn)
        let rows = try database.rows(
            "SELECT \(key), \(dialect.quote(column)) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NOT NULL"
        )
        let update = "UPDATE \(dialect.quote(table)) SET \(dialect.quote(column)) = ? WHERE \(key) = ?"
        for row in rows {
            guard case .integer(let rowKey) = row[0] else { continue }
            switch (toFiles, row[1]) {
            case (true, .blob(let data)):
                try database.execute(update, [.string(data.isEmpty ? "" : try external.write(data)), .int64(rowKey)])
            case (false, .text(let name)):
                try database.execute(
                    update, [.data(name.isEmpty ? Data() : try external.read(name)), .int64(rowKey)])
                if !name.isEmpty { external.replace(name) }
            default:
                continue
            }
        }
    }

    // MARK: Migration plans

    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
        // The stage's contexts see the stage's models, not the final version's that the configuration names.
        var stageConfiguration = configuration
        stageConfiguration.schema = nil
        // `.rtree` indexes a store made by an earlier version holds under earlier names get their names once the
        // migration is done: until then, the stage's fetches use them under those names.
        let store = SQLiteStore(
            sharing: database, configuration: stageConfiguration, schema: schema, identifier: identifier,
            external: external,
            spatialTables: try SQLiteSpatialIndex.readOnlyTables(schema, in: database, warns: false))
        return (stageConfiguration, store)
    }
}
