import CSQLite

/// A connection of the raw side: SQLite's C API with nothing in between but checks of its result codes, as a
/// careful hand-written program uses it.
final class RawDatabase {
    let handle: OpaquePointer
    private var begin: RawStatement?
    private var commit: RawStatement?

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawError(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
    }

    deinit {
        begin = nil
        commit = nil
        sqlite3_close_v2(handle)
    }

    /// Runs statements without parameters.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw RawError(code: code, connection: handle) }
    }

    /// A prepared statement, which keeps the connection open (the connection's own are `held`, to avoid a cycle).
    func prepare(_ sql: String, held: Bool = false) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw RawError(code: code, connection: handle) }
        return RawStatement(handle: statement, database: held ? nil : self)
    }

    /// Runs `body` in one write transaction, through statements prepared once.
    func transaction(_ body: () throws -> Void) throws {
        let begin = try self.begin ?? prepare("BEGIN IMMEDIATE", held: true)
        let commit = try self.commit ?? prepare("COMMIT", held: true)
        (self.begin, self.commit) = (begin, commit)
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

}

/// A prepared statement of the raw side; it keeps its connection open.
final class RawStatement {
    let handle: OpaquePointer
    private let database: RawDatabase?

    fileprivate init(handle: OpaquePointer, database: RawDatabase?) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ value: String, at index: Int32) throws {
        try check(sqlite3_bind_text(handle, index, value, Int32(value.utf8.count), csqlite_transient()))
    }

    /// Advances to the next row; `false` when there is none.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw RawError(code: code, connection: sqlite3_db_handle(handle))
        }
    }

    /// Runs the statement to its end and makes it ready to run again.
    func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Makes the statement ready to run again; bound values stay until bound anew.
    func reset() {
        sqlite3_reset(handle)
    }

    /// Unbinds every parameter: each is NULL until bound again.
    func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw RawError(code: code, connection: sqlite3_db_handle(handle)) }
    }
}

/// A failed SQLite call of the raw side.
struct RawError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The error of a connection's last call.
    init(code: Int32, connection: OpaquePointer?) {
        self.init(code: code, message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? "")
    }
}
