import Foundation
import SwiftDataCore
import SwiftDataSQL
import Synchronization

/// The PostgreSQL store behind the row seam: one table per entity in the configuration's PostgreSQL schema, named
/// after the model class, one column per attribute of a native type (see `PostgreSQLDialect` for each type's
/// column), an integer `_pk` key, join tables as the SQLite store has them, and `_swiftdata_metadata`,
/// `_swiftdata_sequence` and `_swiftdata_external` tables. A model hierarchy is one table, as in every SQL store
/// (see `StoreLayout`): its root's, with an `_entity` column naming each row's entity.
///
/// - **Connections.** A pool of `maximumConnections` (4 by default) serves fetches and saves; a fetch reads its
///   whole result, then returns the connection before the context builds models. One more connection listens for
///   other instances' saves (`LISTEN`/`NOTIFY`) and passes each on to the container at once (`onExternalChange`).
///   With read replicas, fetches go to a replica that has replayed what the container must see (`PostgresReplicas`).
///   Behind a transaction pooler (`transactionPooling`), statements are sent unprepared, the session's settings are
///   made in each transaction (a fetch runs in one of its own), and the listener connects to `listenURL`; without
///   one, a `PostgresChangePoller` reads the history table instead.
/// - **Saves.** A save is one transaction at `READ COMMITTED`, on a connection of the pool of its own: saves of one
///   store run at once (as many as the pool has connections), and so do those of several processes; fetches never
///   wait. Every save takes the *save lock*, a transaction-level advisory lock of the PostgreSQL schema, and holds it
///   until it has committed: its history number is drawn under it, so numbers grow in commit order (see
///   `PostgresRowStore+History.swift`), and its notification, which reaches the other instances when it commits,
///   goes with it. A save takes it as late as its reads allow:
///   - *Before its first statement whose answer decides what it writes*, in the same round trip, so that the answer
///     includes every save committed before and no save of the lock commits in between. That is a save that inserts
///     models of an entity with unique constraints (Core's upsert lookup; the lock goes with the key reservation of
///     such an entity), changes a value of a unique constraint (it could come between another save's lookup and its
///     write), deletes (delete rules read related rows, history reads the deleted values, and external data
///     is found from the rows), sets the members of a to-many relationship kept in a join table (the join rows to
///     remove are those the statement finds), replaces an `.externalStorage` value (the old one is found from the
///     row), or updates models in a batch; and deleting history, which takes it with its `BEGIN`.
///   - *With its `COMMIT` otherwise*, in the same message as its history row: a save that only changes attributes
///     and to-one relationships, or inserts models of entities without unique constraints, writes what the context
///     holds, whatever other saves do meanwhile, so others wait for its lock only while the server commits it.
///
///   A save that holds the lock may wait for a row that a save waiting for the lock wrote: the server then reports
///   a deadlock (after its `deadlock_timeout`), and the save runs again, whole, up to `saveRetries` times. Changed
///   rows are written entity by entity in the order of their tables' names (whatever order Core gives), each
///   entity's in key order, so that saves of the same rows lock them alike and rarely deadlock. Opening a store that migrates locks its tables against writes before it takes
///   the save lock, so that it waits for the saves in flight rather than deadlock with them; a migration that loses a
///   deadlock all the same runs again, whole, up to `saveRetries` times.
/// - **Unique constraints.** A unique index each (strings as `normalize(x, NFC) COLLATE "C"`). Apple's upsert is
///   Core's: inside the save lock, the save looks all its new models' values up at once, one query per constraint
///   (`existingKeys`: the values as a numbered `VALUES` list joined to the table through that index), and writes
///   each model that matched over the row it found, which keeps its key. Not `INSERT ... ON CONFLICT`, even for one
///   constraint: Core writes a save's changed rows before its deletes and its new rows (so that a new model never
///   takes a row the same save deletes), and those changed rows' foreign keys, other new rows' foreign keys, join
///   rows and the context's identity map need a new model's final key before its row is written, while a
///   conflicting insert keeps the stored row's key and tells it only afterwards; `ON CONFLICT ... DO UPDATE` also
///   names one arbiter index, so a model matching a row on another constraint would fail instead of taking that
///   row, and a model matching two rows on two constraints (an error in Core) would silently update one. Under the
///   save lock no other save inserts a model of the entity or changes a constrained value between the lookup and the
///   write, so all it would save is that one query per constraint.
/// - **External storage.** `.externalStorage` values are kept as `bytea` in `_swiftdata_external`, one row each,
///   referred to from the model's row by a text reference, written and deleted in the save's transaction; they
///   load when first read.
///
/// `@unchecked Sendable`: the pool and listener are `Sendable`; a shared connection (a migration stage's) is used
/// only under `sharedLock`; the saves' state only under `stateLock`.
package final class PostgresRowStore: RowStore, @unchecked Sendable {
    let configuration: PostgresConfiguration
    package let identifier: String
    package var configurationName: String { configuration.name }
    package var allowsSave: Bool { configuration.allowsSave }
    /// Whether the store records the history of its saves (see `PostgresRowStore+History.swift`).
    package let recordsHistory = PostgresRowStore.keepsHistory
    let schema: Schema
    let dialect = PostgreSQLDialect()
    private let pool: PostgresConnectionPool?
    /// The read replicas, when the configuration names some.
    private let replicas: PostgresReplicas?
    /// Finds other instances' saves behind a transaction pooler without a `listenURL`.
    private var poller: PostgresChangePoller?
    private let shared: PostgresConnection?
    /// Guards the shared connection. Recursive: a context that a migration stage's save runs code of fetches on the
    /// same connection, on the same thread, inside that save.
    private let sharedLock = NSRecursiveLock()
    /// Guards `unsettled`, `saveLock` and `savesSincePruning`; saves themselves run at once, each on a connection of
    /// its own.
    private let stateLock = NSLock()
    /// The threads saving to the store now: a save started inside another on the same thread throws, rather than
    /// wait for a connection or a row its outer save holds.
    private let savingThreads = Mutex<[pthread_t]>([])
    /// Set by the listener when another instance committed a save.
    private let externalChange: ChangeFlag
    private var listener: PostgresListener?
    /// What this instance sends with its notifications, to tell them from other instances'.
    private let instance = UUID().uuidString
    /// The statement that takes the save lock (`saveLockStatement`), once written; used under `stateLock`.
    private var saveLock: (sql: String, drawsHistoryNumber: Bool)?
    /// Called with the connection of each read as it begins (for tests that count its round trips).
    package var willRead: ((PostgresConnection) -> Void)?
    /// Called with the connection of each save as it begins (for tests that break it).
    package var willSave: ((PostgresConnection) -> Void)?
    /// Called with the connection of each run of a save's transaction, before the save's rows are written (for tests
    /// that hold a save open, or make it conflict with another session).
    package var willWrite: ((PostgresConnection) -> Void)?
    /// Called with the connection of a save and an entity's name before the save writes that entity's changed rows
    /// (for tests that hold a save between two entities).
    package var willUpdate: ((PostgresConnection, String) -> Void)?
    /// Called with the connection of each save once its rows are written, just before its `COMMIT` is sent (for
    /// tests that break the connection or the server at the commit).
    package var willCommit: ((PostgresConnection) -> Void)?
    /// The saves of unknown outcome of each context (by editing state) that its next save settles first; used under
    /// `stateLock`.
    private var unsettled: [UUID: UnsettledSaves] = [:]
    /// Saves since old save identifiers were last deleted; used under `stateLock`.
    private var savesSincePruning = 0
    /// The fetch requests prepared so far (translated and their SQL written), by request shape.
    private let selects = PreparedSelects<SelectPlan>(dialect: PostgreSQLDialect())
    /// The text and parameter types of the insert and update statements written so far, by shape: a save of one
    /// row does not write its statement again.
    private let writeStatements = Mutex<[WriteShape: (sql: String, types: [PostgresType])]>([:])
    /// Which attributes Core converts, by entity name (`Schema.Entity.convertedAttributes`), worked out once.
    private let converted = Mutex<[String: [Bool]]>([:])
    /// Which attributes are part of a unique constraint of their table, by entity name, worked out once.
    private let constrained = Mutex<[String: [Bool]]>([:])

    static let keyColumn = StoreLayout.keyColumn
    static let metadataTable = SchemaStatements.metadataTable
    static let sequenceTable = SchemaStatements.sequenceTable
    static let externalTable = "_swiftdata_external"

    /// A flag set from the listener's thread, and whom to tell at once (`onExternalChange`).
    private final class ChangeFlag: Sendable {
        let value = Atomic(false)
        let handler = Mutex<(@Sendable () -> Void)?>(nil)

        /// Another instance committed: sets the flag and calls the handler, on the listener's thread.
        func raise() {
            value.store(true, ordering: .releasing)
            handler.withLock { $0 }?()
        }
    }

    /// Connects to the configuration's database, creates or migrates the store's tables (through the plan's
    /// stages first, when the store records an older version of the plan's schemas), and starts listening for
    /// other instances' saves.
    init(configuration: PostgresConfiguration, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        try configuration.validate()
        // A hierarchy's table must hold every entity's columns (see `StoreLayout.hierarchyProblems`).
        if let problem = StoreLayout.hierarchyProblems(in: schema).first { throw problem }
        self.configuration = configuration
        self.schema = schema
        let setup = Self.connectionSetup(configuration)
        let reportsCommitPosition = !configuration.readReplicas.isEmpty
        let pool = PostgresConnectionPool(
            configuration.url, size: configuration.maximumConnections, waitLimit: configuration.connectionWaitTimeout
        ) { connection in
            try setup(connection)
            connection.reportsCommitPosition = reportsCommitPosition
        }
        self.pool = pool
        let replicas =
            configuration.readReplicas.isEmpty
            ? nil
            : PostgresReplicas(
                configuration.readReplicas, size: configuration.maximumConnections,
                waitLimit: configuration.connectionWaitTimeout, lagLimit: configuration.replicaLagLimit,
                retryInterval: configuration.replicaRetryInterval, setup: setup)
        self.replicas = replicas
        shared = nil
        externalChange = ChangeFlag()
        identifier = try Self.mapErrors(opening: true) {
            try pool.withConnection { connection in
                let identifier = try Self.prepare(
                    connection, schema: schema, configuration: configuration, migrationPlan: migrationPlan)
                // Reads must see the tables and rows just created or migrated.
                if let position = connection.commitPosition { replicas?.noteCommit(position) }
                return identifier
            }
        }
        let flag = externalChange
        let instance = instance
        if configuration.transactionPooling && configuration.listenURL == nil {
            poller = PostgresChangePoller(pool: pool, postgresSchema: configuration.postgresSchema) {
                replicas?.noteExternalChange()
                flag.raise()
            }
            return
        }
        listener = try Self.mapErrors(opening: true) {
            try PostgresListener(
                configuration.listenURL ?? configuration.url, channels: [Self.channel(configuration.postgresSchema)]
            ) { event in
                switch event {
                case .notification(let notification) where notification.payload == instance: return
                case .notification, .reconnected:
                    replicas?.noteExternalChange()
                    flag.raise()
                }
            }
        }
    }

    /// What each new connection of the configuration runs first: the `search_path` of its PostgreSQL schema, and
    /// no notices below warnings (`CREATE TABLE IF NOT EXISTS` skipping a table is not worth printing on standard
    /// error); behind a transaction pooler, made in each transaction instead, with statements left unprepared.
    static func connectionSetup(_ configuration: PostgresConfiguration) -> (PostgresConnection) throws -> Void {
        let schema = PostgreSQLDialect().quote(configuration.postgresSchema)
        guard configuration.transactionPooling else {
            let settings = "SET search_path TO \(schema); SET client_min_messages TO warning"
            return { try $0.execute(settings) }
        }
        let settings =
            "SELECT set_config('search_path', \(literal(schema)), true), "
            + "set_config('client_min_messages', 'warning', true)"
        return { connection in
            connection.preparesStatements = false
            connection.transactionSettings = settings
        }
    }

    /// A store over a connection that a migration holds inside its transaction, for tables that already hold
    /// `schema`'s models: what a migration stage's contexts use.
    init(
        sharing connection: PostgresConnection, configuration: PostgresConfiguration, schema: Schema, identifier: String
    ) {
        self.configuration = configuration
        self.schema = schema
        self.identifier = identifier
        pool = nil
        replicas = nil
        shared = connection
        externalChange = ChangeFlag()
    }

    deinit {
        listener?.stop()
        poller?.stop()
    }

    /// The most connections the store's pool had open at once (for tests).
    package var mostConnectionsOpen: Int { pool?.mostOpenConnections ?? 0 }

    /// The channel the stores of a PostgreSQL schema announce their saves on.
    static func channel(_ postgresSchema: String) -> String {
        String(decoding: "swiftdata_\(postgresSchema)".utf8.prefix(63), as: UTF8.self)
    }

    /// Runs `body` with a connection of the pool (or the shared one), reporting PostgreSQL's errors as the
    /// framework's.
    func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try Self.mapErrors {
            if let shared {
                sharedLock.lock()
                defer { sharedLock.unlock() }
                return try body(shared)
            }
            guard let pool else { throw SwiftDataError.storeError.with(reason: "the store has no connections") }
            return try pool.withConnection(body)
        }
    }

    /// Runs a read with a connection: of a read replica that has replayed what the store must see, when the
    /// configuration names replicas and `onReplica`, else of the pool (or the shared one). Behind a transaction
    /// pooler the read runs in a transaction of its own, which makes the session's settings.
    func read<Result>(onReplica: Bool = true, _ body: (PostgresConnection) throws -> Result) throws -> Result {
        let inTransaction = readsInTransaction
        return try route(onReplica: onReplica) { connection in
            guard inTransaction else { return try body(connection) }
            return try connection.transaction(isolation: .readCommitted, attempts: 1) { try body($0) }
        }
    }

    /// Runs `queries` as one read (see `read(onReplica:_:)`) and returns their results, reporting errors as the
    /// framework's, naming `model`. Behind a transaction pooler the read's `BEGIN`, settings, queries and `COMMIT`
    /// go in one message: the read waits for the server once.
    func read(_ queries: [PostgresPipelineStep], model: String? = nil) throws -> [PostgresResult] {
        let inTransaction = readsInTransaction
        return try route(onReplica: true) { connection in
            try Self.mapErrors(model: model) {
                guard inTransaction else { return try queries.map(connection.run) }
                return try connection.readTransaction(queries)
            }
        }
    }

    /// `read(_:model:)` of one query: outside a transaction of its own, without the lists of steps and results.
    func read(_ query: PostgresPipelineStep, model: String? = nil) throws -> PostgresResult {
        guard !readsInTransaction else { return try read([query], model: model)[0] }
        return try route(onReplica: true) { connection in try Self.mapErrors(model: model) { try connection.run(query) }
        }
    }

    /// Whether a read makes a transaction of its own: behind a transaction pooler, on a connection of the pool.
    private var readsInTransaction: Bool { configuration.transactionPooling && shared == nil }

    /// Runs `read` on a replica's connection (see `read(onReplica:_:)`), or one of the pool or the shared one.
    private func route<Result>(onReplica: Bool, _ read: (PostgresConnection) throws -> Result) throws -> Result {
        let observe = willRead
        func run(_ connection: PostgresConnection) throws -> Result {
            observe?(connection)
            return try read(connection)
        }
        guard onReplica, let replicas, let pool else { return try withConnection(run) }
        return try Self.mapErrors { try replicas.read(primary: pool, run) { try pool.withConnection(run) } }
    }

    /// Runs `body`, turning a `PostgresError` into a `SwiftDataError`: an error raised by a predicate's support
    /// function into the Swift error it stands for.
    static func mapErrors<Result>(model: String? = nil, opening: Bool = false, _ body: () throws -> Result) throws
        -> Result
    {
        do {
            return try body()
        } catch let error as PostgresError {
            if error.message.hasPrefix(SQLFunction.errorPrefix) {
                let reason = error.message.dropFirst(SQLFunction.errorPrefix.count).trimmingCharacters(in: .whitespaces)
                if reason == "force unwrap of nil" { throw PredicateError.forceUnwrapFailure }
                throw SwiftDataError.unsupportedPredicate.with(
                    reason: "evaluating the predicate stops at \(reason), which traps in Swift", model: model,
                    suggestion: "Guard the operation in the predicate, as Swift code would have to")
            }
            throw error.swiftDataError(opening: opening).with(model: model)
        }
    }

    // MARK: RowStore

    package func prepare<T: PersistentModel>(_ request: FetchRequest<T>) -> FetchPlan {
        selects.plan(for: request) { plan(request) }
    }

    /// What `prepare` made of a request, or, for a plan another store made, what this store makes of it now.
    private func prepared<T: PersistentModel>(_ request: FetchRequest<T>, _ plan: FetchPlan) -> PreparedSelect {
        selects.select(for: request, plan: plan) { self.plan(request) }
    }

    package func fetch<T: PersistentModel>(
        _ request: FetchRequest<T>, plan: FetchPlan, row: (Int64, any _RowReader) throws -> Void
    ) throws {
        // Each result is read whole, and the connection returned, before models are built from it: building one
        // may fetch again.
        var selects = prepared(request, plan).selects(for: request)
        let results = try read(selects.map { query($0.statement) }, model: request.entity.name)
        for (offset, result) in results.enumerated() {
            let reader = PostgresRowReader(result)
            for index in 0..<result.rowCount {
                reader.row = index
                let key = try reader.int64(0)
                if selects[offset].keeps(key) { try row(key, reader) }
            }
        }
    }

    /// Runs a generated statement as a prepared statement of the connection.
    func run(_ statement: SQLStatement, on connection: PostgresConnection) throws -> PostgresResult {
        try connection.run(query(statement))
    }

    /// A generated statement as a query of a read, prepared once per connection when the store prepares statements.
    func query(_ statement: SQLStatement) -> PostgresPipelineStep {
        .query(statement.sql, statement.parameters.map(PostgresValue.init(storing:)))
    }

    package func fetchMembers(
        of relationship: Schema.Relationship, owners: [Int64], destination: Schema.Entity, properties: [Int],
        subentityProperties: [SubentityProperties],
        row: (_ owner: Int64, _ member: Int64, any _RowReader) throws -> Void
    ) throws {
        let columns = StoreLayout.fetchColumns(properties, of: destination, subentityProperties: subentityProperties)
        // A foreign key among the members' columns is not selected again as the owner's: one column less a member
        // for libpq to take apart.
        let (ownerColumn, owner) = RelationshipStatements.ownerColumn(of: relationship, columns: columns)
        guard
            let select = RelationshipStatements.members(
                of: relationship, destination: destination, columns: columns, owner: owner, dialect: dialect,
                condition: { dialect.keysCondition($0, count: 0, first: 1) })
        else { return }
        // One statement text whatever the owners: prepared once per connection, the owners bound as a `bigint[]`.
        let results = try read(owners.keyChunks.map { .query(select, [.int8Array(Array($0))]) })
        for result in results {
            let reader = PostgresRowReader(result)
            for index in 0..<result.rowCount {
                reader.row = index
                try row(try reader.int64(ownerColumn), try reader.int64(0), reader)
            }
        }
    }

    package func fetchCount<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan) throws -> Int {
        guard request.keys == nil else { return try countByFetching(request, plan: plan) }
        let statement = prepared(request, plan).countStatement(for: request)
        let result = try read(query(statement), model: request.entity.name)
        return Int(try result.int64(0, 0) ?? 0)
    }

    package func write<Result>(
        for editingState: EditingState = EditingState(), _ body: (any RowStoreTransaction) throws -> Result
    ) throws -> Result {
        try write(drawingHistoryNumber: recordsHistory, for: editingState.id, body)
    }

    /// Runs `body` in a save's transaction. With `drawingHistoryNumber` (a save, which records its history), the
    /// number of its history row is drawn with the save lock; the store's own writes (deleting history, erasing)
    /// record none, and draw none, so that they leave no gap in the numbers. With `lockingFirst`, the lock goes with
    /// the `BEGIN`; otherwise the transaction takes it before its first read that decides what it writes, or with
    /// its `COMMIT` (see "Saves" above). `context` is the editing state of the context that saves: its earlier saves
    /// of unknown outcome are settled first (see `PostgresRowStore+Commit`).
    func write<Result>(
        drawingHistoryNumber: Bool, lockingFirst: Bool = false, for context: UUID? = nil,
        _ body: (any RowStoreTransaction) throws -> Result
    ) throws -> Result {
        let thread = pthread_self()
        let isNested = savingThreads.withLock { threads in
            if threads.contains(thread) { return true }
            threads.append(thread)
            return false
        }
        guard !isNested else { throw SwiftDataError.saveInsideSave(of: configuration.name) }
        defer { savingThreads.withLock { threads in threads.removeAll { $0 == thread } } }
        let isShared = shared != nil
        return try withConnection { connection in
            var saves = context.map(takeUnsettled) ?? UnsettledSaves()
            defer { if let context { keepUnsettled(saves, of: context) } }
            if !saves.unknown.isEmpty { try settle(&saves, on: connection) }
            willSave?(connection)
            // Set once the body ran: a lost connection after that was lost at the COMMIT.
            var written: Result?
            let inserted = InsertedRows()
            let saveID = UUID()
            let drawsHistoryNumber = drawingHistoryNumber && !isShared && configuration.allowsSave
            let (lockSQL, prunes) = stateLock.withLock {
                savesSincePruning += 1
                return (isShared ? nil : saveLockStatement(drawsHistoryNumber), savesSincePruning % 1_000 == 0)
            }
            // The save's identifier goes with the BEGIN (and, now and then, old identifiers are deleted), with the
            // lock when `lockingFirst`. The lock's notification reaches the other instances when the transaction
            // commits, and never if it rolls back.
            let notes = Self.noteSave(saveID) + (prunes ? "; " + Self.pruneSaves : "")
            let first = lockSQL.map { PostgresPipelineStep.sql(notes + (lockingFirst ? "; " + $0 : "")) }
            var lock = PostgresSaveLock(statement: lockSQL, drawsHistoryNumber: drawsHistoryNumber)
            // A serialization failure or deadlock rolled the transaction back for sure (the server said so before or
            // at the COMMIT): the whole save runs again, its body included (Core starts it afresh each time), up to
            // `saveRetries` times. Not in a migration's transaction, which the failure aborted.
            var runs = 1
            while true {
                do {
                    let result = try connection.transaction(
                        isolation: .readCommitted, attempts: 1, beginningWith: first
                    ) { connection, opened in
                        lock = PostgresSaveLock(statement: lockSQL, drawsHistoryNumber: drawsHistoryNumber)
                        if lockingFirst { try lock.took(opened) }
                        written = nil
                        inserted.batches.removeAll()
                        willWrite?(connection)
                        let result = try body(
                            PostgresTransaction(
                                store: self, connection: connection, lock: lock,
                                inserted: context == nil ? nil : inserted, replacing: saves.committed))
                        try lock.takeAtCommit(on: connection)
                        if !isShared { written = result }
                        willCommit?(connection)
                        return result
                    }
                    saves.committed = [:]
                    try lock.committed(on: connection)
                    noteCommitted(on: connection, historyNumber: lock.drawnNumber ?? lock.numberAtCommit)
                    return result
                } catch  where Self.isConflict(error) && !isShared {
                    guard runs <= configuration.saveRetries else { throw conflictError(error, runs: runs) }
                    PostgresConnection.pauseAfterConflict(attempt: runs)
                    runs += 1
                } catch let error as PostgresError where error.kind == .connectionLost {
                    guard let written else { throw error }
                    do {
                        try Self.confirmCommit(
                            of: saveID, on: connection, lost: error, wait: configuration.commitOutcomeWait)
                    } catch let error as PostgresError where error.kind == .commitOutcomeUnknown {
                        saves.unknown.append(
                            UnsettledTransaction(id: saveID, lostAt: .now, keys: Self.lostInserts(inserted)))
                        throw error
                    }
                    saves.committed = [:]
                    // The save committed; its token names its history row, found again if its number was lost.
                    try? lock.findNumber(on: connection)
                    noteCommitted(on: connection, historyNumber: lock.drawnNumber ?? lock.numberAtCommit)
                    return written
                }
            }
        }
    }

    /// Takes the saves of unknown outcome of the context with editing state `context` (under `stateLock`).
    private func takeUnsettled(_ context: UUID) -> UnsettledSaves {
        stateLock.withLock { unsettled.removeValue(forKey: context) } ?? UnsettledSaves()
    }

    /// Keeps what remains of the saves of unknown outcome of the context with editing state `context`.
    private func keepUnsettled(_ saves: UnsettledSaves, of context: UUID) {
        guard !saves.unknown.isEmpty || !saves.committed.isEmpty else { return }
        stateLock.withLock {
            unsettled[context, default: UnsettledSaves()].unknown += saves.unknown
            unsettled[context, default: UnsettledSaves()].committed.merge(saves.committed) { $0 + $1 }
        }
    }

    /// Whether `error` is a serialization failure or a deadlock (SQLSTATE `40001`, `40P01`), as the client reports
    /// it or as the store reported it already.
    static func isConflict(_ error: any Error) -> Bool {
        if let error = error as? PostgresError { return error.isTransient }
        return ["40001", "40P01"].contains((error as? SwiftDataError)?.storeCode)
    }

    /// The error of a save that conflicted on each of its `runs`.
    func conflictError(_ error: any Error, runs: Int) -> any Error {
        let base = (error as? PostgresError)?.swiftDataError(opening: false) ?? error
        return (base as? SwiftDataError)?.with(
            suggestion:
                "The save ran \(runs) time\(runs == 1 ? "" : "s"), each rolled back, and stored nothing (the "
                + "configuration's saveRetries is \(configuration.saveRetries)): save again, raise saveRetries, or "
                + "have fewer processes change the same rows at once") ?? error
    }

    /// Tells the replicas' router where the save that just committed on `connection` is, and the poller its
    /// history number. After a lost `COMMIT` the position is unknown: the next read asks the primary.
    private func noteCommitted(on connection: PostgresConnection, historyNumber: Int64?) {
        if let replicas {
            if let position = connection.commitPosition {
                replicas.noteCommit(position)
            } else {
                replicas.noteExternalChange()
            }
        }
        if let historyNumber { poller?.noteOwn(historyNumber) }
    }

    /// Tells the poller that an unrecorded write of this store (see `writeUnrecorded`) reached `count`.
    func noteOwnUnrecorded(_ count: Int64) {
        poller?.noteOwnUnrecorded(count)
    }

    /// Takes the lock every save of the PostgreSQL schema's stores takes, until the transaction ends; returns the
    /// transaction's identifier (`txid_current()`, in the same statement). After a lost COMMIT, the save's own
    /// identifier in `_swiftdata_saves` tells whether it committed (`confirmCommit`), not this one: a server that
    /// crashed may give the same transaction identifier again.
    @discardableResult
    static func lockSaves(_ connection: PostgresConnection, postgresSchema: String) throws -> Int64 {
        try connection.preparedQuery(
            "SELECT txid_current() FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS locked",
            [.text("swiftdata:" + postgresSchema)]
        ).int64(0, 0) ?? 0
    }

    /// The statement that takes the save lock, written once (with `stateLock` held).
    private func saveLockStatement(_ drawsHistoryNumber: Bool) -> String {
        if let known = saveLock, known.drawsHistoryNumber == drawsHistoryNumber { return known.sql }
        let sql = Self.saveLockSQL(
            postgresSchema: configuration.postgresSchema,
            notifying: (Self.channel(configuration.postgresSchema), instance), drawsHistoryNumber: drawsHistoryNumber)
        saveLock = (sql, drawsHistoryNumber)
        return sql
    }

    /// The statement that takes the save lock (as `lockSaves` does), without parameters, so that it goes in one
    /// message with other statements (the `BEGIN`, or the history row and the `COMMIT`). Its first column is the
    /// transaction's identifier. With `drawsHistoryNumber`, its second is the number of the save's history row, drawn
    /// from the history table's identity under the lock (see `PostgresRowStore+History.swift`), so that the row can
    /// be inserted with the `COMMIT`. With `notification`, it also sends it (`pg_notify`), which PostgreSQL delivers
    /// at the commit.
    static func saveLockSQL(
        postgresSchema: String, notifying notification: (channel: String, payload: String)?, drawsHistoryNumber: Bool
    ) -> String {
        var columns = "txid_current()"
        if drawsHistoryNumber {
            columns += ", nextval(pg_get_serial_sequence(\(literal(historyTable)), 'number'))"
        }
        if let notification {
            columns += ", pg_notify(\(literal(notification.channel)), \(literal(notification.payload)))"
        }
        let lock = literal("swiftdata:" + postgresSchema)
        return "SELECT \(columns) FROM (SELECT pg_advisory_xact_lock(hashtext(\(lock)))) AS locked"
    }

    /// `text` as an SQL string literal, read the same whatever `standard_conforming_strings` says.
    package static func literal(_ text: String) -> String {
        "E'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The text and parameter types of the write statement of `shape`: the one kept, or what `make` writes, kept
    /// (up to a thousand shapes, then written anew).
    func writeStatement(_ shape: WriteShape, make: () -> (String, types: [PostgresType])) -> (
        String, types: [PostgresType]
    ) {
        if let known = writeStatements.withLock({ $0[shape] }) { return known }
        let made = make()
        writeStatements.withLock { statements in
            if statements.count >= 1_000 { statements.removeAll() }
            statements[shape] = (made.0, made.types)
        }
        return made
    }

    /// Which attributes of `entity` (by index) are part of a unique constraint of its table, its hierarchy's included:
    /// a save that writes one takes the save lock first. Worked out once per entity.
    func constrainedAttributes(of entity: Schema.Entity) -> [Bool] {
        if let known = constrained.withLock({ $0[entity.name] }) { return known }
        let names = Set(entity.rootEntity.selfAndDescendants.flatMap { $0.uniquenessConstraints.joined() })
        let count = (entity.orderedAttributes.map(\.index).max() ?? -1) + 1
        let made = (0..<count).map { entity.attribute(at: $0).map { names.contains($0.name) } ?? false }
        constrained.withLock { $0[entity.name] = made }
        return made
    }

    /// Whether new models of `entity` are looked up on a unique constraint when saved (Core's upsert).
    func hasUniqueConstraints(_ entity: Schema.Entity) -> Bool {
        !entity.inheritedUniquenessConstraints.isEmpty
    }

    /// Which attributes of `entity` Core converts when a row is written, worked out once per entity.
    func convertedAttributes(of entity: Schema.Entity) -> [Bool] {
        if let known = converted.withLock({ $0[entity.name] }) { return known }
        let made = entity.convertedAttributes()
        converted.withLock { $0[entity.name] = made }
        return made
    }

    /// Empties the store's tables with `TRUNCATE`, which gives their space back at once (fetches of other
    /// sessions wait for it to commit); keys are not reused afterwards.
    package func erase() throws {
        let tables = [Self.externalTable] + SchemaStatements.tables(of: schema, dialect: dialect)
        try writeUnrecorded { transaction in
            try transaction.connection.execute("TRUNCATE \(tables.joined(separator: ", "))")
            try transaction.eraseHistory()
        }
    }

    package func readExternal(_ reference: String) throws -> Data {
        let result = try read([.query("SELECT data FROM \(Self.externalTable) WHERE id = $1", [.text(reference)])])[0]
        guard result.rowCount == 1, let data = try result.data(0, 0) else {
            throw SwiftDataError.storeError.with(
                reason: "the externally stored value \(reference) is missing from \(Self.externalTable)",
                suggestion: "Restore the database from a backup")
        }
        return data
    }

    /// Whether another instance saved since the last call: its notification arrived (no query is made).
    package func hasExternalChanges() -> Bool {
        externalChange.value.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// The listener calls `handler` as soon as another instance's notification arrives (after setting what
    /// `hasExternalChanges` reports), so that contexts and observers hear of it without waiting for a timer.
    package func onExternalChange(_ handler: @escaping @Sendable () -> Void) {
        externalChange.handler.withLock { $0 = handler }
    }

    // MARK: SQL

    /// Translates a request's predicate and sort (a fetch uses the plan `prepare` keeps for its shape instead).
    func plan<T: PersistentModel>(_ request: FetchRequest<T>) -> SelectPlan {
        SelectPlan(request, schema: schema, storeIdentifier: identifier, dialect: dialect)
    }
}
