import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

extension SQLiteStore {
    /// Refuses a file that exists but is not an SQLite database, before SQLite touches it; creates the
    /// directory of a new store.
    static func checkFile(at url: URL, creating: Bool) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(url.path) is a directory, not a store file",
                    suggestion: "Give the configuration a file URL")
            }
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the store file \(url.path) cannot be read", suggestion: "Check the file's permissions")
            }
            let header = handle.readData(ofLength: 16)
            try? handle.close()
            if !header.isEmpty && header != Data("SQLite format 3\0".utf8) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(url.path) is not an SQLite store; it was left untouched",
                    suggestion: "Point the configuration at a store file, or move the file away")
            }
        } else if creating {
            do {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the directory of \(url.path) cannot be created: \(error.localizedDescription)",
                    suggestion: "Choose a location the program can write to")
            }
        } else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "there is no store at \(url.path) to open read-only", suggestion: "Create the store first")
        }
    }

    /// The key column name is the store's; a model cannot use it. A hierarchy's table must hold every entity's
    /// columns (see `StoreLayout.hierarchyProblems`). No two of the store's tables and indexes may share a name (see
    /// `checkStoreNames`).
    static func checkReservedNames(_ schema: Schema) throws {
        if let problem = StoreLayout.hierarchyProblems(in: schema).first { throw problem }
        try checkStoreNames(schema)
        for entity in schema.entities {
            for relationship in entity.orderedRelationships where relationship.storage != .column {
                guard let destination = relationship.destinationType,
                    schema.entitiesByName[String(describing: destination)] != nil
                else {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason:
                            "\(entity.name).\(relationship.name) leads to \(relationship.destination), which another configuration stores",
                        model: entity.name, property: relationship.name,
                        suggestion: "Keep related models in the same configuration")
                }
            }
            if let attribute = entity.orderedAttributes.first(where: { $0.name == keyColumn }) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "'\(keyColumn)' is the name of the store's key column", model: entity.name,
                    property: attribute.name, suggestion: "Rename the property")
            }
        }
    }

    /// Refuses a schema two of whose store objects would share a name (see `Schema.checkStoreNames`): the schema's,
    /// the tables of its `.rtree` indexes, and the store's own tables. SQLite takes names that differ only in the case
    /// of ASCII letters for one, and keeps those beginning with `sqlite_` for itself. (The table a migration rebuilds
    /// a model's table in exists only during the migration, which checks its name then.)
    static func checkStoreNames(_ schema: Schema) throws {
        var objects = schema.storeObjects
        for root in schema.entities where root.superentity == nil {
            objects += SQLiteSpatialIndex.storeObjects(of: root.tableEntity)
            objects += SQLiteSearchIndex.storeObjects(of: root.tableEntity)
        }
        objects += [metadataTable, sequenceTable, historyTable].map(Schema.StoreObject.storeTable)
        func folded(_ name: String) -> String {
            String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        if let reserved = objects.first(where: { folded($0.name).hasPrefix("sqlite_") }) {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "\(reserved.description) would be named \(reserved.name), and SQLite keeps names beginning with sqlite_ for itself",
                model: reserved.model, property: reserved.property,
                suggestion: "Give it another name: \(reserved.remedy ?? "")")
        }
        try Schema.checkStoreNames(objects) { folded($0.name) }
    }

    /// Reads or creates the store's metadata and tables, migrating an existing store to `schema` (through the
    /// stages of `migrationPlan` first, when the store records an older version), and returns the store
    /// identifier. Everything happens in one transaction: a failure leaves the store exactly as it was.
    ///
    /// Any number of processes may open the same store at once, new or in need of migration: switching to WAL
    /// waits for the others, and the check of what the store holds is repeated under the write lock, so one
    /// process creates or migrates and the others, once it commits, find the store ready.
    static func prepare(
        _ database: SQLiteDatabase, schema: Schema, configuration: ModelConfiguration,
        migrationPlan: (any SchemaMigrationPlan.Type)?, external: ExternalStorage?
    ) throws -> String {
        let tables = try readTables(database, configuration: configuration)
        let stored = try readMetadata(database, tables: tables, configuration: configuration)
        guard configuration.allowsSave else {
            try checkReadOnly(stored.schema, against: schema)
            return stored.identifier ?? UUID().uuidString
        }
        if !configuration.isStoredInMemoryOnly {
            // Switching a new store to WAL needs a moment alone with it, and SQLite does not wait for that.
            try retryingWhileBusy(database) { _ = try database.rows("PRAGMA journal_mode = WAL") }
        }
        let tableEntities = schema.entities.filter { $0.superentity == nil }.map(\.tableEntity)
        func hasSpatialIndexes(_ tables: Set<String>) -> Bool {
            tableEntities.allSatisfy { SQLiteSpatialIndex.missing($0, tables: tables).isEmpty }
        }
        // Indexes a store made by an earlier version may hold under earlier names; looked for only when the models
        // have such indexes.
        let allIndexes = storeIndexes(of: tableEntities)
        let renamed = allIndexes.filter { !$0.earlierNames.isEmpty }
        func hasIndexNames() throws -> Bool {
            guard !renamed.isEmpty else { return true }
            let names = try indexNames(database)
            return renamed.allSatisfy { names.contains($0.name) }
        }
        if let identifier = stored.identifier, isCurrent(stored, schema: schema), tables.contains(historyTable),
            hasSpatialIndexes(tables), try hasIndexNames()
        {
            return identifier
        }
        do {
            let undo: () -> Void = { external?.rollback() }
            let identifier = try retryingWhileBusy(database, undo: undo) {
                try database.writeTransaction {
                    // Another process may have created or migrated the store since the first look.
                    let tables = try readTables(database, configuration: configuration)
                    let stored = try readMetadata(database, tables: tables, configuration: configuration)
                    let identifier = stored.identifier ?? UUID().uuidString
                    // Indexes under earlier names go first: such a name may be that of an index the migration makes.
                    let dropped = try stored.identifier != nil && dropEarlierNames(of: renamed, in: database)
                    if stored.identifier == nil || !isCurrent(stored, schema: schema) || !tables.contains(historyTable)
                    {
                        try migrate(
                            database, stored: stored, schema: schema, plan: migrationPlan,
                            configuration: configuration, identifier: identifier, tables: tables, external: external)
                        SQLiteTestHooks.beforeSchemaCommit?()
                    }
                    // A store written by an earlier version may have `.rtree` indexes under earlier names.
                    let current = try readTables(database, configuration: configuration)
                    if !hasSpatialIndexes(current) {
                        try SQLiteSpatialIndex.repair(tableEntities, tables: current, in: database)
                    }
                    if try dropped || !hasIndexNames() { try makeMissingIndexes(allIndexes, in: database) }
                    return identifier
                }
            }
            external?.commit()
            return identifier
        } catch {
            external?.rollback()
            throw error
        }
    }

    /// Whether the recorded schema already holds every entity as the models describe it.
    private static func isCurrent(
        _ stored: (identifier: String?, schema: StoredSchema?, version: Schema.Version?), schema: Schema
    ) -> Bool {
        guard let recorded = stored.schema, stored.version == schema.version else { return false }
        return StoredSchema(schema, storage: recordedStorage).entities.allSatisfy { recorded.entities.contains($0) }
    }

    /// Runs `body` again while SQLite reports the store busy, for up to ten minutes: another process is creating
    /// or migrating the store (a large migration takes a while), and SQLite does not wait for the lock a change of
    /// journal mode needs. `undo` cleans up after a failed attempt (the files it wrote).
    static func retryingWhileBusy<Result>(
        _ database: SQLiteDatabase, undo: () -> Void = {}, _ body: () throws -> Result
    ) throws -> Result {
        let wait = SQLiteTestHooks.lockWait ?? 600
        if let shorter = SQLiteTestHooks.lockWait { database.waitForLocks(milliseconds: Int32(shorter * 1000)) }
        defer { database.waitForLocks(milliseconds: SQLiteDatabase.busyTimeout) }
        let deadline = Date().addingTimeInterval(wait)
        while true {
            do {
                return try body()
            } catch let error as SwiftDataError where error.sqlitePrimaryCode == SQLITE_BUSY {
                undo()
                SQLiteTestHooks.waitingForLock?()
                guard Date() < deadline else {
                    throw error.with(
                        reason:
                            "another process held the write lock of the store at \(database.path) for more than \(Int(wait)) seconds while this one waited to create or migrate it; the store was left untouched",
                        suggestion:
                            "Let the other process finish (a large migration takes a while) or close it, then open the store again"
                    )
                }
                usleep(5_000)
            }
        }
    }

    /// The names of the store's tables.
    static func readTables(_ database: SQLiteDatabase, configuration: ModelConfiguration) throws -> Set<String> {
        do {
            return Set(
                try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
                    if case .text(let name) = $0.first { return name } else { return nil }
                })
        } catch let error as SwiftDataError {
            // The error already says what the store's code means (damaged, read-only, disk full, ...).
            if error.sqlitePrimaryCode == SQLITE_BUSY { throw error }
            throw error.with(reason: "the store cannot be read, and was left untouched: \(error.reason ?? "")")
        }
    }

    private static func migrate(
        _ database: SQLiteDatabase, stored: (identifier: String?, schema: StoredSchema?, version: Schema.Version?),
        schema: Schema, plan migrationPlan: (any SchemaMigrationPlan.Type)?, configuration: ModelConfiguration,
        identifier: String, tables: Set<String>, external: ExternalStorage?
    ) throws {
        try database.executeScript(
            (SchemaStatements.storeTables(SQLiteDialect()) + [HistoryStatements.definition(SQLiteDialect())])
                .joined(separator: ";\n"))
        var migration = SQLiteMigration(
            database: database, recorded: stored.schema ?? StoredSchema(entities: []), external: external,
            configuration: configuration, identifier: identifier)
        if let plan = migrationPlan, stored.schema != nil {
            let version =
                MigrationPlanRun.storeVersion(recorded: stored.version, in: plan, target: migration) ?? stored.version
            if let version, version != schema.version {
                try MigrationPlanRun.run(plan, from: version, to: schema.version, on: &migration)
            }
        }
        try LightweightMigration.migrate(&migration, to: schema, checkingForeignTables: stored.schema == nil)
        let json = String(decoding: try JSONEncoder().encode(migration.recorded), as: UTF8.self)
        try database.execute(
            "INSERT OR REPLACE INTO \(metadataTable) (key, value) VALUES ('schema', ?), ('store_identifier', ?), ('schema_version', ?)",
            [.string(json), .string(identifier), .string(schema.version.description)])
    }

    /// A read-only store cannot migrate: its recorded schema must already hold every entity as the models
    /// describe it.
    private static func checkReadOnly(_ recorded: StoredSchema?, against schema: Schema) throws {
        for entity in schema.entities where entity.superentity == nil {
            let model = StoredSchema.table(of: entity, storage: recordedStorage)
            guard let old = recorded?.entities.first(where: { $0.name == entity.name }) else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the read-only store has no table for \(entity.name)", model: entity.name,
                    suggestion: "Open the store with allowsSave: true once to add it")
            }
            if let mismatch = StoredSchema.mismatch(stored: old, model: model) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the read-only store's \(entity.name) does not match the model: \(mismatch)",
                    model: entity.name,
                    suggestion: "Open the store with allowsSave: true once, so that it migrates")
            }
        }
    }

    static func readMetadata(
        _ database: SQLiteDatabase, tables: Set<String>, configuration: ModelConfiguration
    ) throws -> (identifier: String?, schema: StoredSchema?, version: Schema.Version?) {
        guard tables.contains(metadataTable) else {
            if !tables.isEmpty {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "\(configuration.url.path) is an SQLite database that this framework did not create; it was left untouched",
                    suggestion: "Use a separate store file")
            }
            return (nil, nil, nil)
        }
        var identifier: String?
        var schema: StoredSchema?
        var version: Schema.Version?
        for row in try database.rows("SELECT key, value FROM \(metadataTable)") {
            guard case .text(let key) = row[0], case .text(let value) = row[1] else { continue }
            switch key {
            case "store_identifier": identifier = value
            case "schema_version":
                let parts = value.split(separator: ".").compactMap { Int($0) }
                if parts.count == 3 { version = Schema.Version(parts[0], parts[1], parts[2]) }
            case "schema":
                do {
                    schema = try JSONDecoder().decode(StoredSchema.self, from: Data(value.utf8))
                } catch {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "the store's recorded schema cannot be read: \(error)",
                        suggestion: "The store was written by an incompatible version; restore it from a backup")
                }
            default: break
            }
        }
        return (identifier, schema, version ?? (schema == nil ? nil : Schema.Version(1, 0, 0)))
    }

    /// `CREATE TABLE` for an entity (named `tableName` when given), the indexes of its foreign keys and
    /// constraints, and the join tables it owns (unless `withJoinTables` is false).
    static func createTable(_ entity: Schema.Entity, tableName: String? = nil, withJoinTables: Bool = true) -> String {
        let columns = SchemaStatements.columns(of: entity, dialect: SQLiteDialect()) { attribute in
            // An externally stored value's column holds its file name (in-memory stores keep the data itself:
            // SQLite keeps a blob as it is in a column of any type).
            let storage = attribute.isExternal ? .text : storageClass(of: attribute)
            // A floating-point column has no declared type: with REAL's affinity SQLite stores a whole number as an
            // integer, and -0.0 would come back as +0.0. Without one, it keeps the value exactly as bound. NaN is
            // stored as NULL, so REAL columns accept NULL even for non-optional values.
            return storage == .real ? ("", false) : (storage.rawValue.uppercased(), !attribute.isOptional)
        }
        let statements = SchemaStatements.createTable(
            entity, columns: columns, tableName: tableName, withJoinTables: withJoinTables, dialect: SQLiteDialect())
        return (statements + (tableName == nil ? indexStatements(entity) : [])).joined(separator: ";\n")
    }

    /// The storage class of an attribute's values (an externally stored one's column holds a file name instead).
    static func storageClass(of attribute: Schema.Attribute) -> StorageClass {
        attribute.layout.map(StorageClass.init) ?? .blob
    }

    /// How the store records an attribute's storage in its schema: the storage class's name.
    static func recordedStorage(of attribute: Schema.Attribute) -> String { storageClass(of: attribute).rawValue }

    /// The collation predicates compare an attribute's column with, if not the default one.
    static func collation(of attribute: Schema.Attribute?) -> String? {
        guard let attribute, attribute.coding == nil else { return nil }
        let type = (attribute.valueType as? any _OptionalValue.Type)?._wrappedType ?? attribute.valueType
        if type == String.self || type == URL.self { return SQLiteCollations.string }
        if type == Decimal.self { return SQLiteCollations.decimal }
        return nil
    }

    /// The index of a foreign-key column (see `SchemaStatements.foreignKeyIndex`).
    static func foreignKeyIndex(_ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String {
        SchemaStatements.foreignKeyIndex(entity, relationship, dialect: SQLiteDialect())
    }

    /// The join tables an entity owns, created on their own.
    static func createJoinTable(_ name: String) -> [String] {
        SchemaStatements.createJoinTable(name, dialect: SQLiteDialect())
    }

    /// `CREATE [UNIQUE] INDEX` for the entity's unique constraints and indexes, and its `.rtree` indexes (see
    /// `SQLiteSpatialIndex`). Text columns are indexed in the collation predicates compare them with, so that lookups
    /// use the index and uniqueness follows Swift's `==`.
    static func indexStatements(_ entity: Schema.Entity) -> [String] {
        StoreLayout.tableIndexes(of: entity).map { index(entity, $0).statement }
            + SQLiteSpatialIndex.createStatements(entity) + SQLiteSearchIndex.createStatements(entity)
    }

    /// A unique constraint's or index's index (see `SchemaStatements.index`), its text columns in the collation
    /// predicates compare them with.
    static func index(_ entity: Schema.Entity, _ index: StoreLayout.TableIndex) -> StoreIndex {
        SchemaStatements.index(
            entity, columns: index.columns, unique: index.isUnique, entities: index.entities, dialect: SQLiteDialect()
        ) { column, attribute in
            column + (collation(of: attribute).map { " COLLATE \($0)" } ?? "")
        }
    }

    /// The indexes of the tables of `entities` (table entities): their unique constraints', indexes' and foreign
    /// keys' indexes.
    static func storeIndexes(of entities: [Schema.Entity]) -> [StoreIndex] {
        entities.flatMap { entity in
            StoreLayout.tableIndexes(of: entity).map { index(entity, $0) }
                + SchemaStatements.foreignKeyIndexes(entity, dialect: SQLiteDialect())
        }
    }

    /// The names of the store's indexes.
    static func indexNames(_ database: SQLiteDatabase) throws -> Set<String> {
        Set(
            try database.rows("SELECT name FROM sqlite_master WHERE type = 'index'").compactMap {
                if case .text(let name) = $0.first { return name } else { return nil }
            })
    }

    /// Drops the indexes a store made by an earlier version holds under earlier names (of `renamed`, those of
    /// `storeIndexes` with earlier names, each the store lacks under its name), in the caller's transaction, and
    /// returns whether it dropped any: `makeMissingIndexes` then makes them again under their names (SQLite cannot
    /// rename an index).
    static func dropEarlierNames(of renamed: [StoreIndex], in database: SQLiteDatabase) throws -> Bool {
        guard !renamed.isEmpty else { return false }
        var existing = try indexNames(database)
        var dropped = false
        for index in renamed where !existing.contains(index.name) {
            for earlier in index.earlierNames where existing.contains(earlier) {
                try database.executeScript(MigrationStatements.dropIndex(earlier, dialect: SQLiteDialect()))
                existing.remove(earlier)
                dropped = true
            }
        }
        return dropped
    }

    /// Makes the indexes of `allIndexes` the store lacks, in the caller's transaction: those `dropEarlierNames`
    /// dropped. An earlier name may also be the name, or an earlier name, of another index of the models (`[a, b]`
    /// and `[a_b]` were both `_a_b`) and stand for either, so every index the store lacks is made.
    static func makeMissingIndexes(_ allIndexes: [StoreIndex], in database: SQLiteDatabase) throws {
        var existing = try indexNames(database)
        for index in allIndexes where !existing.contains(index.name) {
            try database.executeScript(index.statement)
            existing.insert(index.name)
        }
    }
}
