import CSQLite
import SwiftDataPostgres
import Synchronization

/// `--statements`: the SQL statements each side's timed part runs, counted by kind (the statement's first word,
/// such as `SELECT`, `INSERT` or `BEGIN`), so that a test can check that both sides did the same work; a statement
/// that runs for the first time (`new SELECT`, ...) is also counted apart: it had not run before the timed part.
///
/// Every SQLite connection the child process opens (the raw side's, and the store's own, which the program cannot
/// reach) is traced with `sqlite3_trace_v2`, set up on each as it opens by an automatic extension
/// (`sqlite3_auto_extension`); a statement counts when it starts to run while the timed part runs. On PostgreSQL
/// every connection of the package's libpq client (the raw side's and the store's) reports each statement it sends
/// (`PostgresConnection.trace`); several statements sent as one text count one by one, and a statement prepared in
/// the timed part counts as `new` too.
enum StatementCount {
    private static let counts = Mutex<[String: Int]?>(nil)

    /// Traces every connection opened from now on.
    static func install() {
        let entry:
            @convention(c) (
                OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeRawPointer?
            ) -> Int32 = { connection, _, _ in
                sqlite3_trace_v2(
                    connection, UInt32(SQLITE_TRACE_STMT),
                    { _, _, statement, text in
                        StatementCount.count(statement.map(OpaquePointer.init), text: text)
                        return 0
                    }, nil)
            }
        sqlite3_auto_extension(unsafeBitCast(entry, to: (@convention(c) () -> Void).self))
        isInstalled.store(true, ordering: .relaxed)
    }

    /// Counts the statements of every PostgreSQL connection opened from now on.
    static func installPostgres() {
        PostgresConnection.trace = { sql, isPreparing in
            for statement in sql.split(separator: ";") {
                guard let kind = statement.split(whereSeparator: \.isWhitespace).first?.uppercased() else { continue }
                counts.withLock { counts in
                    if isPreparing {
                        counts?["new " + kind, default: 0] += 1
                    } else {
                        counts?[kind, default: 0] += 1
                    }
                }
            }
        }
        isInstalled.store(true, ordering: .relaxed)
    }

    /// Starts counting, when installed.
    static func start() {
        guard isInstalled.load(ordering: .relaxed) else { return }
        counts.withLock { $0 = [:] }
    }

    /// Stops counting and returns the counts; `nil` when not installed.
    static func stop() -> [String: Int]? {
        counts.withLock { counts in
            defer { counts = nil }
            return counts
        }
    }

    private static let isInstalled = Atomic<Bool>(false)

    private static func count(_ statement: OpaquePointer?, text: UnsafeMutableRawPointer?) {
        // A trigger's statements are reported as comments ("-- ..."); they run inside the statement that fired them.
        if let text, text.assumingMemoryBound(to: CChar.self).pointee == CChar(UInt8(ascii: "-")) { return }
        guard let statement, let sql = sqlite3_sql(statement) else { return }
        let kind = String(cString: sql).split(whereSeparator: \.isWhitespace).first.map { $0.uppercased() } ?? ""
        // A statement that never ran before was prepared for the timed part, or in it.
        let isNew = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_RUN, 0) == 0
        counts.withLock { counts in
            counts?[kind, default: 0] += 1
            if isNew { counts?["new " + kind, default: 0] += 1 }
        }
    }
}
