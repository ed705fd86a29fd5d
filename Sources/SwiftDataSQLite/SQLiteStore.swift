import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// The embedded default store: one SQLite file per configuration (or a private in-memory database), in WAL
/// mode, one table per entity named after the model class, one column per attribute named after the
/// property, plus an integer primary key column `_pk`. A model hierarchy shares its root's table, which has an
/// `_entity` column naming each row's entity (see `StoreLayout`). A metadata table records the schema.
///
/// Writes go through one connection, one at a time (a writer waits for another instead of failing); fetches use
/// a pool of other connections and run concurrently, never waiting for a write. An in-memory store has a single
/// connection for both.
///
/// `@unchecked Sendable`: its mutable state (the writer connection, `isWriting`, `dataVersion`) is used only under
/// `lock`, the readers' under the pool's own lock, and `externalCommitSeen` is atomic.
package final class SQLiteStore: RowStore, @unchecked Sendable {
    package let configuration: ModelConfiguration
    package let identifier: String
    package var configurationName: String { configuration.name }
    package var allowsSave: Bool { configuration.allowsSave }
    /// Whether the store records the history of its saves: always, unless `keepsHistory` was off when it opened.
    package let recordsHistory = SQLiteStore.keepsHistory
    /// Whether stores opened from now on record history. Apple's store offers no switch, and neither does the public
    /// API; the benchmark program turns it off to measure what history costs.
    // Safe without a lock: a program sets it once, before it opens any store.
    nonisolated(unsafe) package static var keepsHistory = true
    let schema: Schema
    let dialect = SQLiteDialect()
    private let database: SQLiteDatabase
    /// Guards the writer connection. An `NSRecursiveLock`, not a `Mutex`: a fetch made while an in-memory store's
    /// fetch reads rows (by an observer of a model it refreshes) takes it again and must not wait for itself.
    private let lock = NSRecursiveLock()
    /// Whether a write holds the lock: another write on the same thread inside it is refused.
    private var isWriting = false
    /// The connections fetches use; `nil` when they share the writer's (in memory, or inside a migration).
    private let readers: ReaderPool?
    /// The writer connection's data version (`SQLiteDatabase.fileDataVersion`) when it was last noted: by a check,
    /// when a write began and when it ended (under `lock`). Only this process's writes use that connection, and each
    /// notes the version its own commit leaves, so it changes between two notes exactly when another process (or
    /// another container's connection) committed.
    private var dataVersion: UInt32?
    /// Set when a write began after another connection's commit that no check has reported yet.
    private let externalCommitSeen = Atomic(false)
    /// One check at a time (see `hasExternalChanges`); never held while waiting for `lock`.
    private let checkLock = Mutex(())
    /// The files of `.externalStorage` values; `nil` for an in-memory store, which keeps them in the rows.
    let external: ExternalStorage?
    /// The `.rtree` index tables a read-only store holds under older names, or lacks (see
    /// `SQLiteSpatialIndex.readOnlyTables`); set once when the store opens.
    private let spatialTables: [String: String?]
    /// The text of each write statement written so far, and whether it binds the key first, by shape (used under
    /// `lock`, which a write holds): a save of a shape seen before writes no SQL.
    private var writeStatements: [WriteShape: (String, keyFirst: Bool)] = [:]
    /// The write statement used last, with its shape (see `writeStatement(_:on:make:)`; used under `lock`).
    private var heldWrite: (shape: WriteShape, statement: SQLiteStatement, keyFirst: Bool)?
    /// Which attributes Core converts, by entity (`Schema.Entity.convertedAttributes`; used under `lock`).
    private var converted: [String: [Bool]] = [:]
    /// The fetch requests prepared so far (translated and their SQL written), by request shape.
    private let selects = PreparedSelects<SelectPlan>(dialect: SQLiteDialect())
    /// How many times a request's predicate and sort were translated (what `plans` saves; tests read it).
    let translations = Atomic(0)
    /// How many times a context asked for a request's plan (what a descriptor's kept plan saves; tests read it).
    let preparations = Atomic(0)

    /// The name of the primary key column of every entity table.
    static let keyColumn = StoreLayout.keyColumn
    static let metadataTable = SchemaStatements.metadataTable
    static let sequenceTable = SchemaStatements.sequenceTable

    /// Opens the store of `configuration`, creating it if needed, and migrates it to `schema` (through the plan's
    /// stages first, when it records an older version of the plan's schemas).
    package init(
        configuration: ModelConfiguration, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil
    ) throws {
        self.configuration = configuration
        self.schema = schema
        try SQLiteStore.checkReservedNames(schema)
        let path: String
        if configuration.isStoredInMemoryOnly {
            path = ":memory:"
        } else {
            path = configuration.url.path
            try SQLiteStore.checkFile(at: configuration.url, creating: configuration.allowsSave)
        }
        var immutable = false
        if configuration.allowsSave || configuration.isStoredInMemoryOnly {
            database = try SQLiteDatabase(path: path, readOnly: !configuration.allowsSave, create: true)
            // Each commit syncs the WAL, so a save that returned survives a power loss (SQLite's usual default,
            // stated here so that no build of SQLite changes it).
            try database.executeScript("PRAGMA synchronous = FULL")
        } else {
            (database, immutable) = try SQLiteStore.openForReading(path)
        }
        external = configuration.isStoredInMemoryOnly ? nil : ExternalStorage(storeURL: configuration.url)
        identifier = try SQLiteStore.prepare(
            database, schema: schema, configuration: configuration, migrationPlan: migrationPlan, external: external)
        spatialTables = configuration.allowsSave ? [:] : try SQLiteSpatialIndex.readOnlyTables(schema, in: database)
        readers =
            configuration.isStoredInMemoryOnly
            ? nil : ReaderPool(path: path, readOnly: !configuration.allowsSave, immutable: immutable)
        if configuration.allowsSave { try collectExternalGarbage() }
        withDatabase { _ = checkDataVersion(of: $0) }
        if recordsHistory, configuration.allowsSave {
            // What every save's history needs, made once here rather than by the first save.
            _ = HistoryEntry.program
            _ = try database.held(&database.historyStatement, SQLiteStore.recordHistorySQL)
        }
        if configuration.allowsSave && !configuration.isStoredInMemoryOnly { SQLiteOpenStores.add(self) }
    }

    deinit { SQLiteOpenStores.remove(self) }

    /// Copies the committed pages of the `-wal` file into the store file and empties the `-wal` file, unless a
    /// write is in progress (at exit, `SQLiteOpenStores`). A reader in the middle of a fetch keeps the pages it
    /// reads in the `-wal` file; the store file then holds all but those.
    func checkpoint() {
        guard lock.try() else { return }
        defer { lock.unlock() }
        let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        if code != SQLITE_OK {
            Log.debug("the checkpoint of \(configuration.url.path) at exit returned \(code)")
        }
    }

    /// Opens a store file for reading only. A store in WAL mode needs its `-shm` file, which SQLite cannot create
    /// in a read-only directory or file system; when it cannot and there is no `-wal` file (the last writer
    /// checkpointed everything into the store file), the file is read as immutable: as it is, without locking.
    /// Returns the connection and whether it is immutable.
    private static func openForReading(_ path: String) throws -> (SQLiteDatabase, Bool) {
        let database = try SQLiteDatabase(path: path, readOnly: true, create: false)
        do {
            _ = try database.rows("SELECT count(*) FROM sqlite_master")
            return (database, false)
        } catch let error as SwiftDataError {
            let code = error.sqlitePrimaryCode
            guard code == SQLITE_CANTOPEN || code == SQLITE_READONLY,
                !FileManager.default.fileExists(atPath: path + "-wal")
            else { throw error }
            return (try SQLiteDatabase(path: path, readOnly: true, create: false, immutable: true), true)
        }
    }

    /// A store over a connection that another store owns, for a schema its tables already have: what the contexts
    /// of a migration stage use, inside the migration's transaction.
    init(
        sharing database: SQLiteDatabase, configuration: ModelConfiguration, schema: Schema, identifier: String,
        external: ExternalStorage?, spatialTables: [String: String?] = [:]
    ) {
        self.configuration = configuration
        self.schema = schema
        self.database = database
        self.identifier = identifier
        self.spatialTables = spatialTables
        self.external = external
        self.readers = nil
    }

    /// Calls `observer` with the SQL of every statement the store runs from now on (`nil` stops). A statement
    /// that runs once per row of a save is reported once per save.
    package func observeStatements(_ observer: (@Sendable (String) -> Void)?) {
        withDatabase { $0.observer = observer }
        readers?.observe(observer)
    }

    /// Runs `body` with a connection for reading: one of the pool's, or the writer's when there is no pool.
    func withReader<Result>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        guard let readers else { return try withDatabase(body) }
        return try readers.withReader(body)
    }

    /// Whether another process committed to the store since the last call. It never waits for a write: while one
    /// holds the writer connection, no other connection can commit, and the commits made before it began, the
    /// write noted when it began.
    package func hasExternalChanges() -> Bool {
        // No other connection writes to an in-memory store, nor to a migration's while it runs.
        guard readers != nil else { return false }
        return checkLock.withLock { _ in
            var changed = false
            if lock.try() {
                defer { lock.unlock() }
                changed = checkDataVersion(of: database)
            }
            return externalCommitSeen.exchange(false, ordering: .acquiringAndReleasing) || changed
        }
    }

    /// Runs `PRAGMA data_version` on the writer connection (with `lock` held), whose read transaction makes the
    /// connection see the commits of other connections, then notes its data version; returns whether another
    /// connection committed since the last note.
    private func checkDataVersion(of database: SQLiteDatabase) -> Bool {
        if let statement = try? database.held(&database.dataVersionStatement, "PRAGMA data_version") {
            defer { statement.reset() }
            _ = try? statement.step()
        }
        return noteDataVersion(of: database)
    }

    /// Notes the writer connection's data version (with `lock` held); returns whether it changed since the last note.
    /// Read from the connection's pager, without a statement: a write notes it after its `BEGIN`, which saw other
    /// connections' commits, and again after its own commit or rollback.
    private func noteDataVersion(of database: SQLiteDatabase) -> Bool {
        let version = database.fileDataVersion
        defer { dataVersion = version }
        return dataVersion != nil && version != nil && dataVersion != version
    }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<Result>(_ body: (SQLiteDatabase) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }

    // MARK: RowStore

    package func prepare<T: PersistentModel>(_ request: FetchRequest<T>) -> FetchPlan {
        preparations.add(1, ordering: .relaxed)
        return selects.plan(for: request) { plan(request) }
    }

    /// What `prepare` made of a request, or, for a plan another store made, what this store makes of it now.
    private func prepared<T: PersistentModel>(_ request: FetchRequest<T>, _ plan: FetchPlan) -> PreparedSelect {
        selects.select(for: request, plan: plan) { self.plan(request) }
    }

    package func fetch<T: PersistentModel>(
        _ request: FetchRequest<T>, plan: FetchPlan, row: (Int64, any _RowReader) throws -> Void
    ) throws {
        let prepared = prepared(request, plan)
        // A request without keys has one statement, run without making a list of them.
        guard request.keys != nil else {
            var select = prepared.select(for: request)
            return try withReader { try run(&select, on: $0, entity: request.entity, row: row) }
        }
        let selects = prepared.selects(for: request)
        try withReader { database in
            for var select in selects { try run(&select, on: database, entity: request.entity, row: row) }
        }
    }

    /// Runs one statement of a fetch on a reader connection, passing on the rows the request asked for.
    private func run(
        _ select: inout KeySelect, on database: SQLiteDatabase, entity: Schema.Entity,
        row: (Int64, any _RowReader) throws -> Void
    ) throws {
        let prepared = try database.statement(select.statement.sql)
        defer { prepared.reset() }
        try prepared.bind(select.statement.parameters)
        prepared.externalFiles = external
        // Made once, not for every row (see `fetchMembers`).
        let reader: any _RowReader = prepared
        while try SQLiteStore.step(prepared, entity: entity) {
            let key = prepared.columnInteger(0)
            if select.keeps(key) { try row(key, reader) }
        }
    }

    package func fetchMembers(
        of relationship: Schema.Relationship, owners: [Int64], destination: Schema.Entity, properties: [Int],
        subentityProperties: [SubentityProperties],
        row: (_ owner: Int64, _ member: Int64, any _RowReader) throws -> Void
    ) throws {
        let memberNames = StoreLayout.fetchColumns(
            properties, of: destination, subentityProperties: subentityProperties)
        let (ownerColumn, owner) = RelationshipStatements.ownerColumn(of: relationship, columns: memberNames)
        if case .inverseColumn = relationship.storage, let range = SQLiteStore.consecutive(owners),
            let sql = RelationshipStatements.members(
                of: relationship, destination: destination, columns: memberNames, owner: owner, dialect: dialect,
                condition: { "\($0) >= ?" })
        {
            // Owners with consecutive keys (every owner of a table without gaps: a walk of all the parents) are
            // one range: SQLite seeks to its first owner and reads the foreign key's index in order, and the
            // loop stops at the first member of an owner past the last, where an `IN` list made SQLite compare
            // every index entry with its owner (about 90 instructions a member).
            try withReader { database in
                let statement = try database.statement(sql)
                defer { statement.reset() }
                try statement.bind(range.lowerBound, 1)
                statement.externalFiles = external
                // Made once, not for every row (each made one retained and released the statement).
                let reader: any _RowReader = statement
                while try statement.step() {
                    let owner = statement.columnInteger(ownerColumn)
                    guard owner <= range.upperBound else { break }
                    try row(owner, statement.columnInteger(0), reader)
                }
            }
            return
        }
        let select = { (count: Int) in
            RelationshipStatements.members(
                of: relationship, destination: destination, columns: memberNames, owner: owner, dialect: self.dialect,
                condition: { self.dialect.keysCondition($0, count: count, first: 1) })
        }
        try withReader { database in
            for chunk in owners.keyChunks {
                guard let sql = select(chunk.count) else { return }
                let statement = try database.statement(sql)
                defer { statement.reset() }
                try statement.bind(chunk.map { .int64($0) })
                statement.externalFiles = external
                let reader: any _RowReader = statement
                while try statement.step() {
                    try row(statement.columnInteger(ownerColumn), statement.columnInteger(0), reader)
                }
            }
        }
    }

    /// The keys from the lowest to the highest of `keys` when `keys` holds each of them once (in any order), and
    /// at least two; `nil` otherwise.
    static func consecutive(_ keys: [Int64]) -> ClosedRange<Int64>? {
        guard keys.count > 1, let low = keys.min(), let high = keys.max() else { return nil }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span == Int64(keys.count - 1) else { return nil }
        // As many keys as the range holds: they are consecutive when none repeats.
        var seen = [Bool](repeating: false, count: keys.count)
        for key in keys {
            let index = Int(key - low)
            if seen[index] { return nil }
            seen[index] = true
        }
        return low...high
    }

    package func fetchCount<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan) throws -> Int {
        guard request.keys == nil else { return try countByFetching(request, plan: plan) }
        let count = prepared(request, plan).countStatement(for: request)
        return try withReader { database in
            let rows: [[SQLiteValue]]
            do {
                rows = try database.rows(count.sql, count.parameters)
            } catch {
                throw SQLiteStore.predicateFailure(error, entity: request.entity)
            }
            guard case .integer(let count) = rows.first?.first else { return 0 }
            return Int(count)
        }
    }

    package func write<Result>(
        for editingState: EditingState = EditingState(), _ body: (any RowStoreTransaction) throws -> Result
    ) throws -> Result {
        try withDatabase { database in
            guard !isWriting else { throw SwiftDataError.saveInsideSave(of: configuration.name) }
            isWriting = true
            defer { isWriting = false }
            // Inside another transaction (a migration stage's save), the files wait for that one's end, unless this
            // save fails: then what it wrote goes at once, and what it replaced stays.
            let outer = sqlite3_get_autocommit(database.handle) != 0
            let mark = external?.mark()
            // Whether the transaction began: its own commit or rollback is then noted as it ends (no other connection
            // can commit meanwhile), so that it is not taken for another's.
            var began = false
            defer { if began { _ = noteDataVersion(of: database) } }
            do {
                let result = try database.writeTransaction {
                    // Commits of other connections before this transaction began; none can commit until it ends.
                    if readers != nil {
                        began = true
                        if noteDataVersion(of: database) { externalCommitSeen.store(true, ordering: .releasing) }
                    }
                    return try body(SQLiteTransaction(store: self, database: database))
                }
                if outer { external?.commit() }
                return result
            } catch {
                if outer {
                    external?.rollback()
                } else if let mark {
                    external?.rollback(to: mark)
                }
                throw error
            }
        }
    }

    /// The write statement of `shape` on `database` (with `lock` held), ready to run, and whether it binds the key
    /// first. The last one used is held, so that a save of one row shape after another (change one, save, change it
    /// again) finds it by comparing shapes, without hashing the shape or the statement's text; the others' texts are
    /// kept by shape (up to a thousand shapes, then written anew by `make`).
    func writeStatement(
        _ shape: WriteShape, on database: SQLiteDatabase, make: () -> (String, keyFirst: Bool)
    ) throws -> (SQLiteStatement, keyFirst: Bool) {
        if let held = heldWrite, held.shape == shape { return (try database.ready(held.statement), held.keyFirst) }
        let text: (String, keyFirst: Bool)
        if let known = writeStatements[shape] {
            text = known
        } else {
            text = make()
            if writeStatements.count >= 1_000 { writeStatements.removeAll() }
            writeStatements[shape] = text
        }
        let statement = try database.statement(text.0)
        heldWrite = (shape, statement, text.keyFirst)
        return (statement, text.keyFirst)
    }

    /// Which attributes of `entity` Core converts when a row is written (with `lock` held), worked out once.
    func convertedAttributes(of entity: Schema.Entity) -> [Bool] {
        if let known = converted[entity.name] { return known }
        let made = entity.convertedAttributes()
        converted[entity.name] = made
        return made
    }

    package func readExternal(_ reference: String) throws -> Data {
        guard let external else {
            throw SwiftDataError.storeError.with(
                reason: "an in-memory store keeps no files of externally stored values",
                suggestion: "This is a bug: an in-memory store's rows hold their values")
        }
        return try external.read(reference)
    }

    /// Deletes files that no row refers to, left by a crash between writing a file and committing. It runs only
    /// while it holds the store's write lock, taken without waiting: another process's save in flight writes its
    /// files under that lock, so none of them can be taken for garbage. When a writer holds the lock, the clean-up
    /// waits for a later open.
    private func collectExternalGarbage() throws {
        guard let external, FileManager.default.fileExists(atPath: external.directory.path) else { return }
        try withDatabase { database in
            let collected: Void? = try database.tryImmediateTransaction {
                var referenced = Set<String>()
                for entity in schema.entities {
                    for attribute in entity.storedProperties.compactMap({ $0 as? Schema.Attribute })
                    where attribute.isExternal {
                        let rows = try database.rows(
                            RowStatements.values(of: attribute.name, in: entity, dialect: dialect))
                        for case .text(let name)? in rows.map(\.first) { referenced.insert(name) }
                    }
                }
                external.collectGarbage(referenced: referenced)
            }
            if collected == nil { Log.debug("external files are cleaned up later: another connection is writing") }
        }
    }

    package func erase() throws {
        defer { external?.deleteAll() }
        try write { transaction in
            try withoutLock { database in
                for table in SchemaStatements.tables(of: schema, dialect: dialect) {
                    try database.execute("DELETE FROM \(table)")
                }
            }
            try (transaction as? SQLiteTransaction)?.eraseHistory()
        }
    }

    /// Used inside `write`, which already holds the lock.
    private func withoutLock<Result>(_ body: (SQLiteDatabase) throws -> Result) rethrows -> Result {
        try body(database)
    }

    // MARK: SQL

    /// Translates a request's predicate and sort (a fetch uses the plan `prepare` keeps for its shape instead),
    /// bounding the candidates through `.rtree` indexes where the predicate allows (see `SQLiteSpatialIndex`).
    func plan<T: PersistentModel>(_ request: FetchRequest<T>) -> SelectPlan {
        translations.add(1, ordering: .relaxed)
        return SelectPlan(request, schema: schema, storeIdentifier: identifier, dialect: dialect) { [spatialTables] in
            SQLiteSpatialIndex.filter(for: $0, entity: request.entity, tables: spatialTables)
        }
    }

    /// The `SELECT` statements of a request: one, or one per chunk of requested keys. When the plan does not
    /// cover the whole request, the statements select a superset of its rows, unwindowed (see `FetchCoverage`).
    func selectStatements<T: PersistentModel>(_ request: FetchRequest<T>) throws -> [SQLStatement] {
        prepared(request, prepare(request)).statements(for: request)
    }

    /// Steps a fetch's statement, reporting a failure of the predicate's SQL as the Swift error it stands for.
    static func step(_ statement: SQLiteStatement, entity: Schema.Entity) throws -> Bool {
        do {
            return try statement.step()
        } catch {
            throw predicateFailure(error, entity: entity)
        }
    }

    /// The Swift error an SQL error raised by a predicate function stands for (see `SQLiteFunctions.failure`),
    /// or `error` itself.
    static func predicateFailure(_ error: any Error, entity: Schema.Entity) -> any Error {
        guard let message = (error as? SwiftDataError)?.storeMessage else { return error }
        return SQLiteFunctions.failure(message: message, model: entity.name) ?? error
    }
}
