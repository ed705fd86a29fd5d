import CSQLite
import Foundation
import SwiftDataCore

/// One SQLite connection; owns its `sqlite3` handle and closes it when released. Not thread-safe: its store
/// serializes access.
final class SQLiteDatabase {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]
    /// Called with the SQL of every statement about to run (for tests and diagnostics).
    var observer: ((String) -> Void)?

    /// Opens (or, when `create`, creates) the database at `path`; `:memory:` opens a private in-memory one.
    init(path: String, readOnly: Bool, create: Bool) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the store at \(path) could not be opened", storeCode: code, storeMessage: message,
                suggestion: "Check that the file exists and is readable and writable")
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        // A writer that finds the store locked by another connection waits instead of failing.
        sqlite3_busy_timeout(handle, 30_000)
        _ = csqlite_db_config_defensive(handle, 1)
        SQLiteCollations.register(on: handle)
        SQLiteFunctions.register(on: handle)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// A prepared statement for `sql`, reused across calls.
    func statement(_ sql: String) throws -> SQLiteStatement {
        observer?(sql)
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        Log.debug(sql)
        let statement = try SQLiteStatement(database: self, sql: sql)
        if statements.count >= 256 { statements.removeAll() }
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with parameters.
    func execute(_ sql: String, _ parameters: [StoredValue] = []) throws {
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

    /// The values of every row of a query.
    func rows(_ sql: String, _ parameters: [StoredValue] = []) throws -> [[StoredValue]] {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        var rows: [[StoredValue]] = []
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
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 {
                do { try executeScript("ROLLBACK") } catch { Log.error("rollback failed: \(error)") }
            }
            throw error
        }
    }

    /// A `SwiftDataError` for a failed SQLite call, with the store's code and message.
    func error(_ code: Int32, sql: String?, reason: String, message: String? = nil) -> SwiftDataError {
        let message = message ?? String(cString: sqlite3_errmsg(handle))
        let extended = sqlite3_extended_errcode(handle)
        let resultCode = extended == 0 ? code : extended
        let base: SwiftDataError
        let suggestion: String
        switch resultCode & 0xFF {
        case SQLITE_CONSTRAINT:
            base = .modelValidationFailure
            suggestion = "A value breaks a constraint of the store; change the value before saving"
        case SQLITE_BUSY, SQLITE_LOCKED:
            base = .storeError
            suggestion = "Another connection held the store's lock for too long; retry, or close the other program"
        case SQLITE_READONLY:
            base = .storeError
            suggestion = "The store is read-only; open it with allowsSave: true and check the file's permissions"
        case SQLITE_FULL:
            base = .storeError
            suggestion = "The disk is full; free some space and save again"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            base = .loadIssueModelContainer
            suggestion = "The store file is damaged; restore it from a backup"
        default:
            base = .storeError
            suggestion = "See the store's message"
        }
        return base.with(reason: reason, sql: sql, storeCode: resultCode, storeMessage: message, suggestion: suggestion)
    }
}
