import CSQLite
import Foundation
import SwiftDataCore

/// One SQLite connection; owns its `sqlite3` handle and closes it when released. Not thread-safe: its store
/// serializes access.
final class SQLiteDatabase {
    let handle: OpaquePointer
    let path: String
    let readOnly: Bool
    private var statements: [String: SQLiteStatement] = [:]
    /// The statement `statement(_:)` found or made last, with its SQL: a query a connection runs again and again (a
    /// repeated fetch, the store's data version check) is found by comparing its SQL, which for the same string is
    /// one comparison, rather than by hashing it.
    private var last: (sql: String, statement: SQLiteStatement)?
    /// Called with the SQL of every statement about to run (for tests and diagnostics).
    var observer: ((String) -> Void)?
    /// `BEGIN IMMEDIATE` and `COMMIT`, prepared once: every save runs both, which `statement(_:)` found by hashing
    /// their text (and they displaced a save's own statement as the one found last).
    private var begin: SQLiteStatement?
    private var commit: SQLiteStatement?
    /// `PRAGMA data_version`, which every check for other connections' commits runs, and the history `INSERT`, which
    /// every save runs, held like `begin` and `commit` (see `held(_:_:)`).
    var dataVersionStatement: SQLiteStatement?
    var historyStatement: SQLiteStatement?

    /// Opens (or, when `create`, creates) the database at `path`; `:memory:` opens a private in-memory one. With
    /// `immutable`, a read-only connection reads the file as it is, without the `-wal` and `-shm` files (for a store
    /// in a directory it cannot write, whose last writer checkpointed it).
    init(path: String, readOnly: Bool, create: Bool, immutable: Bool = false) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name =
                "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
                + "?immutable=1"
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            let problem = SQLiteDatabase.problem(code, systemError: systemError, readOnly: readOnly, path: path)
            throw problem.error.with(
                reason: "the store at \(path) could not be opened: \(problem.meaning)", storeCode: String(code),
                storeMessage: message, suggestion: problem.suggestion)
        }
        self.handle = handle
        self.path = path
        self.readOnly = readOnly
        sqlite3_extended_result_codes(handle, 1)
        // A writer that finds the store locked by another connection waits instead of failing.
        waitForLocks(milliseconds: SQLiteDatabase.busyTimeout)
        _ = csqlite_db_config_defensive(handle, 1)
        // A double-quoted name is always an identifier: a column that does not exist is an error, never a string.
        _ = csqlite_db_config_dqs(handle, 0)
        SQLiteCollations.register(on: handle)
        SQLiteFunctions.register(on: handle)
        SQLiteAggregates.register(on: handle)
    }

    deinit {
        (begin, commit) = (nil, nil)
        (dataVersionStatement, historyStatement) = (nil, nil)
        last = nil
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The main database's data version as this connection counts it (`SQLITE_FCNTL_DATA_VERSION`), read without
    /// running a statement; `nil` when SQLite cannot tell. Unlike `PRAGMA data_version` it changes with this
    /// connection's own commits too; as that one, it changes with another connection's commit only once this
    /// connection begins a transaction after it.
    var fileDataVersion: UInt32? {
        var version: UInt32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK ? version : nil
    }

    /// A prepared statement for `sql`, reused across calls. While the cached one is being stepped (a query made
    /// while reading another's rows), the caller gets a statement of its own, so the outer loop is not restarted.
    func statement(_ sql: String) throws -> SQLiteStatement {
        observer?(sql)
        if let statement = last.flatMap({ $0.sql == sql ? $0.statement : nil }) ?? statements[sql] {
            guard sqlite3_stmt_busy(statement.handle) == 0 else { return try SQLiteStatement(database: self, sql: sql) }
            last = (sql, statement)
            statement.reset()
            return statement
        }
        Log.debug(sql)
        let statement = try SQLiteStatement(database: self, sql: sql)
        if statements.count >= 256 { statements.removeAll() }
        statements[sql] = statement
        last = (sql, statement)
        return statement
    }

    /// The statement `slot` holds, ready to run (reset, no parameters bound), prepared from `sql` the first time: a
    /// statement every save runs is found without hashing its text. While the held one is being stepped, the caller
    /// gets a statement of its own, as from `statement(_:)`.
    func held(_ slot: inout SQLiteStatement?, _ sql: String) throws -> SQLiteStatement {
        if let statement = slot { return try ready(statement) }
        observer?(sql)
        let statement = try SQLiteStatement(database: self, sql: sql)
        slot = statement
        return statement
    }

    /// A statement of this connection that its caller holds, made ready to run again (reset, no parameters bound); a
    /// statement of its own when the held one is being stepped.
    func ready(_ statement: SQLiteStatement) throws -> SQLiteStatement {
        observer?(statement.sql)
        guard sqlite3_stmt_busy(statement.handle) == 0 else {
            return try SQLiteStatement(database: self, sql: statement.sql)
        }
        statement.reset()
        return statement
    }

    /// Runs one statement with parameters.
    func execute(_ sql: String, _ parameters: [StoreValue] = []) throws {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        try statement.run()
    }

    /// Runs statements that take no parameters, separated by semicolons.
    func executeScript(_ sql: String) throws {
        Log.debug(sql)
        observer?(sql)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw error(code, sql: sql, reason: "the statement failed", message: text)
        }
    }

    /// The values of every row of a query, as SQLite keeps them.
    func rows(_ sql: String, _ parameters: [StoreValue] = []) throws -> [[SQLiteValue]] {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        var rows: [[SQLiteValue]] = []
        let count = sqlite3_column_count(statement.handle)
        while try statement.step() {
            rows.append((0..<count).map { statement.value($0) })
        }
        return rows
    }

    private var savepoints = 0

    /// Runs `body` in a write transaction that waits for other writers; rolls back if `body` throws. Inside a
    /// transaction already, it runs in a savepoint, so that only its own changes roll back.
    func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        if sqlite3_get_autocommit(handle) == 0 {
            savepoints += 1
            let name = "swiftdata_\(savepoints)"
            defer { savepoints -= 1 }
            try executeScript("SAVEPOINT \(name)")
            do {
                let result = try body()
                try executeScript("RELEASE \(name)")
                return result
            } catch {
                do { try executeScript("ROLLBACK TO \(name); RELEASE \(name)") } catch {
                    Log.error("rollback failed: \(error)")
                }
                throw error
            }
        }
        try run(&begin, "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run(&commit, "COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 {
                do { try executeScript("ROLLBACK") } catch { Log.error("rollback failed: \(error)") }
            }
            throw error
        }
    }

    /// Runs a statement without parameters that `statement` holds, preparing it the first time.
    private func run(_ statement: inout SQLiteStatement?, _ sql: String) throws {
        observer?(sql)
        let prepared = try statement ?? SQLiteStatement(database: self, sql: sql)
        statement = prepared
        defer { prepared.rewind() }
        try prepared.run()
    }

    /// Runs `body` in a write transaction if the write lock is free now, without waiting for it; `nil` when another
    /// connection holds it.
    func tryImmediateTransaction<Result>(_ body: () throws -> Result) throws -> Result? {
        sqlite3_busy_timeout(handle, 0)
        defer { waitForLocks(milliseconds: SQLiteDatabase.busyTimeout) }
        do {
            try execute("BEGIN IMMEDIATE")
        } catch let error as SwiftDataError where error.sqlitePrimaryCode == SQLITE_BUSY {
            return nil
        }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? executeScript("ROLLBACK") }
            throw error
        }
    }

    /// How long a connection waits for another's lock, in milliseconds.
    static let busyTimeout: Int32 = 30_000

    /// Makes the connection wait up to `milliseconds` for another connection's lock, as SQLite's busy timeout does;
    /// with `SQLiteTestHooks.waitingForLock` set, through a busy handler that calls it before each wait.
    func waitForLocks(milliseconds: Int32) {
        guard SQLiteTestHooks.waitingForLock != nil else {
            sqlite3_busy_timeout(handle, milliseconds)
            return
        }
        let limit = UnsafeMutableRawPointer(bitPattern: Int(milliseconds))
        sqlite3_busy_handler(
            handle,
            { limit, waits in
                SQLiteTestHooks.waitingForLock?()
                guard waits < Int32(truncatingIfNeeded: Int(bitPattern: limit)) else { return 0 }
                usleep(1_000)
                return 1
            }, limit)
    }

    /// A `SwiftDataError` for a failed SQLite call, with the store's path, code and message, and what the code means.
    func error(_ code: Int32, sql: String?, reason: String, message: String? = nil) -> SwiftDataError {
        let message = message ?? String(cString: sqlite3_errmsg(handle))
        let extended = sqlite3_extended_errcode(handle)
        let resultCode = extended == 0 ? code : extended
        let problem = SQLiteDatabase.problem(
            resultCode, systemError: sqlite3_system_errno(handle), readOnly: readOnly, path: path)
        return problem.error.with(
            reason: "\(reason) on the store at \(path): \(problem.meaning)", sql: sql, storeCode: String(resultCode),
            storeMessage: message, suggestion: problem.suggestion)
    }

    /// What an SQLite result code means for the user: the error to throw, a phrase saying what happened (from the
    /// operating system's `errno` where SQLite reports one), and what to do. `readOnly` is whether the connection
    /// was opened with `allowsSave: false`.
    static func problem(_ code: Int32, systemError: Int32, readOnly: Bool, path: String) -> (
        error: SwiftDataError, meaning: String, suggestion: String
    ) {
        var systemError = systemError
        let primary = code & 0xFF
        if !readOnly, path != ":memory:", [SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_IOERR].contains(primary),
            ![ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(systemError)
        {
            // SQLite's last system error may be a later attempt's (a missing -shm file); ask the system whether
            // the store and its directory can be written.
            let directory = (path as NSString).deletingLastPathComponent
            for candidate in [path, directory] where access(candidate, W_OK) != 0 && errno != ENOENT {
                systemError = errno
                break
            }
        }
        let permissions = "Check the permissions of the store file, its -wal and -shm files and their directory"
        // The operating system's reason is the most precise one, whatever SQLite's code.
        switch systemError {
        case ENOSPC, EDQUOT:
            return (.storeError, "the disk is full", "Free some space on the disk, then try again")
        case EROFS:
            return (
                .storeError, "it is on a read-only file system",
                readOnly
                    ? "Mount the file system read-write, or copy the store somewhere writable"
                    : "Mount the file system read-write, or open the store with allowsSave: false to read it"
            )
        case EACCES, EPERM:
            return (.storeError, "permission denied", permissions)
        default: break
        }
        switch primary {
        case SQLITE_CONSTRAINT:
            return (
                .modelValidationFailure, "a value breaks a constraint of the store",
                "Change the value before saving"
            )
        case SQLITE_BUSY, SQLITE_LOCKED:
            return (
                .storeError, "another connection held the store's lock for too long",
                "Retry, or close the other program"
            )
        case SQLITE_READONLY:
            return (
                .storeError, "the store cannot be written",
                readOnly
                    ? "The store was opened with allowsSave: false, which only reads; open it with allowsSave: true to save"
                    : permissions + ", and that its file system is mounted read-write"
            )
        case SQLITE_PERM, SQLITE_AUTH:
            return (.storeError, "permission denied", permissions)
        case SQLITE_CANTOPEN:
            return (
                .loadIssueModelContainer, "the file cannot be opened",
                permissions + "; a store in WAL mode needs to create its -wal and -shm files beside it"
            )
        case SQLITE_FULL:
            return (.storeError, "the disk is full", "Free some space on the disk, then try again")
        case SQLITE_IOERR:
            let detail = systemError == 0 ? "" : " (\(String(cString: strerror(systemError))))"
            return (
                .storeError, "an input/output error\(detail)",
                "Check the disk and the file system; the store was not changed by the failed operation"
            )
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return (
                .loadIssueModelContainer, "the file is damaged or not a store",
                "Restore it from a backup, or move it away"
            )
        default:
            return (.storeError, "the store reported an error", "See the store's message")
        }
    }
}
