import CLibPQ
import Foundation
import SwiftDataCore

/// One connection to a PostgreSQL server; owns its libpq `PGconn` and closes it when released.
///
/// Not thread-safe, and not `Sendable`: one thread uses it at a time, as a `PostgresConnectionPool` hands it out.
/// Statements run with `query` use the extended protocol with parameters sent apart from the SQL, and return
/// binary results unless asked for text; `execute` runs SQL text without parameters (several statements at once
/// if needed) and returns text results.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// The server, database and user, without the password.
    package private(set) var endpoint: PostgresEndpoint
    /// Removes the connection string's password from every text that enters an error or a log line.
    package let redaction: PostgresRedaction
    /// Called with the SQL of every statement about to be prepared or run from text (for tests and diagnostics).
    package var observer: ((String) -> Void)?
    /// Session settings (such as `search_path`) that `reset()` makes again on the new session.
    package var sessionSetup: ((PostgresConnection) throws -> Void)?
    /// Whether statements are prepared once and then run by name (`true`), or sent with their text each time as
    /// unnamed statements, as behind a pooler in transaction mode, where a statement prepared in one transaction
    /// may be missing, or already exist, in the next.
    package var preparesStatements = true
    /// One statement that every transaction runs with its `BEGIN` (settings made with `set_config(..., true)`),
    /// for a connection that cannot keep session settings: behind a pooler in transaction mode.
    package var transactionSettings: String?
    /// Whether each `COMMIT` of `transaction` also asks, in the same round trip, for the server's WAL position,
    /// kept in `commitPosition` (for reads from replicas that must see the commit).
    package var reportsCommitPosition = false
    /// The server's WAL insert position, in bytes, right after the last commit, when `reportsCommitPosition`.
    package internal(set) var commitPosition: Int64?
    private var parameters = PostgresParameters()
    private var statements: [StatementKey: PostgresStatement] = [:]
    /// The statement `cachedStatement` found or made last: a query run again and again (a repeated fetch) is found by
    /// comparing its SQL, which for the same string is one comparison, rather than by hashing its text.
    private var last: (key: StatementKey, statement: PostgresStatement)?
    private var statementCount = 0
    /// Counts resets: statements prepared in an earlier session no longer exist on the server.
    private(set) var session = 0
    /// What the outermost transaction that `transaction` runs sends with its `COMMIT` (`executeAtCommit`); `nil`
    /// outside one, and in a savepoint.
    var commitSteps: [PostgresPipelineStep]?
    /// The results of the statements the last commit sent with its `COMMIT`, in the order given to
    /// `executeAtCommit` (empty after a commit without any).
    var commitResults: [PostgresResult] = []
    /// How many times the connection sent something and waited for the server's answer (for tests that count a
    /// save's round trips).
    package internal(set) var roundTrips = 0
    /// Called, when set, with every statement any connection sends (SQL text, or a prepared statement's SQL at each
    /// run) and whether it is being prepared rather than run: how the benchmark program counts both sides'
    /// statements. Set once before any connection opens (not thread-safe to change later); not API.
    nonisolated(unsafe) package static var trace: ((_ sql: String, _ isPreparing: Bool) -> Void)?

    private struct StatementKey: Hashable {
        let sql: String
        let types: [UInt32]

        /// Whether this is the key of `sql` with parameters of these types, found without making a key.
        func matches(_ sql: String, _ types: some Collection<UInt32>) -> Bool {
            self.sql == sql && self.types.elementsEqual(types)
        }
    }

    /// The most statements `preparedQuery` keeps prepared; past it, all are deallocated and prepared again as used.
    package static let statementCacheLimit = 256

    /// Connects with a libpq connection string, a URL (`postgresql://user:password@host:port/database?...`) or
    /// `key=value` pairs (`host=/var/run/postgresql dbname=app`), with libpq's environment variables and defaults
    /// for what it leaves out. Unless the string says otherwise, connecting gives up after 10 seconds; the client
    /// encoding is always UTF-8.
    package init(_ connectionString: String) throws {
        let redaction = PostgresRedaction(connectionString)
        let parsed: PostgresEndpoint
        switch PostgresEndpoint.parse(connectionString) {
        case .success(let endpoint): parsed = endpoint.redacted(by: redaction)
        case .failure(let error): throw redaction(error)
        }
        // Keywords later in the list win: the connection string overrides the timeout, never the encoding.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname", "client_encoding"]
        let values = ["10", "OpenSwiftData", connectionString, "UTF8"]
        let connection = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw PostgresError(.unreachable, sqlState: "08001", server: parsed.description, message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = Self.connectionError(connection, fallback: parsed, redaction: redaction)
            PQfinish(connection)
            throw error
        }
        handle = connection
        self.redaction = redaction
        endpoint = PostgresEndpoint(connection: connection).redacted(by: redaction)
        PostgresNotices.install(on: connection)
        try configureSession()
    }

    deinit { PQfinish(handle) }

    /// Whether the connection broke; a broken connection works again only after `reset()`.
    package var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Whether a transaction is open (or failed and not yet rolled back).
    package var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server process serving this connection (for `pg_terminate_backend` and notifications' senders).
    package var backendPID: Int32 { PQbackendPID(handle) }

    /// The connection's socket (for tests that break it).
    package var socket: Int32 { PQsocket(handle) }

    /// Connects again with the same parameters, after the connection broke. Statements prepared before are gone.
    package func reset() throws {
        PQreset(handle)
        statements.removeAll()
        last = nil
        session += 1
        guard PQstatus(handle) == CONNECTION_OK else {
            throw Self.connectionError(handle, fallback: endpoint, redaction: redaction)
        }
        endpoint = PostgresEndpoint(connection: handle).redacted(by: redaction)
        try configureSession()
        try sessionSetup?(self)
    }

    /// Dates in text results are parsed in ISO form; a server configured otherwise is told to use it.
    private func configureSession() throws {
        let dateStyle = PQparameterStatus(handle, "DateStyle").map { String(cString: $0) } ?? ""
        if !dateStyle.hasPrefix("ISO") { try execute("SET DateStyle = ISO") }
    }

    // MARK: Running statements

    /// Runs SQL text without parameters through the simple query protocol: several statements separated by
    /// semicolons are allowed, and the last one's result, in text form, is returned.
    @discardableResult
    package func execute(_ sql: String) throws -> PostgresResult {
        Log.debug(sql)
        observer?(sql)
        Self.trace?(sql, false)
        roundTrips += 1
        return try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with parameters (`$1`, `$2`, ...), parsing and planning it for this call only.
    @discardableResult
    package func query(
        _ sql: String, _ values: [PostgresValue] = [], format: PostgresFormat = .binary
    ) throws -> PostgresResult {
        Log.debug(sql)
        observer?(sql)
        Self.trace?(sql, false)
        roundTrips += 1
        let result = try withParameters(values) { count, types, values, lengths, formats in
            PQexecParams(handle, sql, count, types, values, lengths, formats, format.rawValue)
        }
        return try check(result, sql: sql)
    }

    /// Prepares a statement with the given parameter types (`.unspecified` lets the server infer one).
    package func prepare(_ sql: String, parameterTypes: [PostgresType] = []) throws -> PostgresStatement {
        Log.debug(sql)
        observer?(sql)
        statementCount += 1
        let statement = PostgresStatement(
            name: preparesStatements ? "s\(statementCount)" : "", sql: sql, parameterTypes: parameterTypes,
            owner: ObjectIdentifier(self), session: session)
        // An unnamed statement is parsed with each run: nothing to send now.
        guard preparesStatements else { return statement }
        Self.trace?(sql, true)
        let types = parameterTypes.map(\.oid)
        roundTrips += 1
        _ = try check(PQprepare(handle, statement.name, sql, Int32(types.count), types), sql: sql)
        return statement
    }

    /// Runs a prepared statement with parameters, whose types must be those it was prepared with (or `NULL`).
    @discardableResult
    package func query(
        _ statement: PostgresStatement, _ values: [PostgresValue] = [], format: PostgresFormat = .binary
    ) throws -> PostgresResult {
        try checkOwnership(statement)
        Self.trace?(statement.sql, false)
        roundTrips += 1
        let result = try withParameters(values) { count, types, values, lengths, formats in
            statement.name.isEmpty
                ? PQexecParams(
                    handle, statement.sql, count, statement.sentTypes(types, count), values, lengths, formats,
                    format.rawValue)
                : PQexecPrepared(handle, statement.name, count, values, lengths, formats, format.rawValue)
        }
        return try check(result, sql: statement.sql)
    }

    /// Sends a run of `statement` in pipeline mode with the parameters `withParameters` encoded, by name when it
    /// was prepared, else with its text; returns whether libpq took it.
    func send(
        _ statement: PostgresStatement, _ count: Int32, _ types: UnsafePointer<Oid>?,
        _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
        _ formats: UnsafePointer<Int32>?
    ) -> Bool {
        guard statement.name.isEmpty else {
            return PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1) == 1
        }
        return PQsendQueryParams(
            handle, statement.sql, count, statement.sentTypes(types, count), values, lengths, formats, 1) == 1
    }

    /// Throws unless `statement` was prepared on this connection in its current session.
    func checkOwnership(_ statement: PostgresStatement) throws {
        guard statement.owner == ObjectIdentifier(self), statement.session == session else {
            throw PostgresError(
                .other, sqlState: "26000", server: endpoint.description,
                message: "the statement was prepared on another connection, or before this one was reset",
                sql: statement.sql)
        }
    }

    /// Encodes `values` into the connection's parameter buffer and calls `body` with the count, types, value
    /// pointers, lengths and formats libpq's functions take.
    func withParameters<Result>(
        _ values: [PostgresValue],
        _ body: (
            Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) throws -> Result
    ) throws -> Result {
        try parameters.set(values)
        return try parameters.types.withUnsafeBufferPointer { types in
            try parameters.lengths.withUnsafeBufferPointer { lengths in
                try parameters.formats.withUnsafeBufferPointer { formats in
                    try parameters.withValuePointers { pointers in
                        try body(
                            Int32(parameters.count), types.baseAddress, pointers, lengths.baseAddress,
                            formats.baseAddress)
                    }
                }
            }
        }
    }

    /// Runs `sql` as a statement prepared once per connection and per parameter types: the first call prepares
    /// it, later calls with parameters of the same types reuse it.
    @discardableResult
    package func preparedQuery(
        _ sql: String, _ values: [PostgresValue] = [], format: PostgresFormat = .binary
    ) throws -> PostgresResult {
        if let last, last.key.matches(sql, values.lazy.map(\.type.oid)) {
            return try query(last.statement, values, format: format)
        }
        return try query(cachedStatement(sql, values.map(\.type)), values, format: format)
    }

    /// The statement `preparedQuery` runs for `sql` and these parameter types, prepared on first use.
    package func cachedStatement(_ sql: String, _ types: [PostgresType]) throws -> PostgresStatement {
        if let last, last.key.matches(sql, types.lazy.map(\.oid)) { return last.statement }
        let key = StatementKey(sql: sql, types: types.map(\.oid))
        if let statement = statements[key] {
            last = (key, statement)
            return statement
        }
        if statements.count >= Self.statementCacheLimit {
            // Unnamed statements hold nothing on the server (and behind a pooler the session is not this one's).
            if preparesStatements { try execute("DEALLOCATE ALL") }
            statements.removeAll()
            last = nil
        }
        let statement = try prepare(sql, parameterTypes: types)
        statements[key] = statement
        last = (key, statement)
        return statement
    }

    /// Limits how long each statement may run from now on (`nil`: no limit); a statement that runs longer is
    /// cancelled and throws a `.statementTimeout` error.
    package func setStatementTimeout(_ timeout: Duration?) throws {
        let milliseconds = timeout.map { max(1, $0.milliseconds) } ?? 0
        try execute("SET statement_timeout = \(milliseconds)")
    }

    /// Sends a notification to every session listening on `channel` (`pg_notify`); inside a transaction, it is
    /// delivered when the transaction commits.
    package func notify(_ channel: String, payload: String = "") throws {
        try preparedQuery("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// `name` quoted as an SQL identifier.
    package func quoteIdentifier(_ name: String) throws -> String {
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else {
            throw PostgresError(
                .invalidParameter, sqlState: "22023", message: redaction(Self.message(PQerrorMessage(handle))))
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    // MARK: Results and errors

    /// The result, or the error it reports.
    func check(_ result: OpaquePointer?, sql: String?) throws -> PostgresResult {
        guard let result else { throw clientError(sql: sql) }
        let status = PQresultStatus(result)
        if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY {
            return PostgresResult(result)
        }
        defer { PQclear(result) }
        if status == PGRES_FATAL_ERROR || status == PGRES_NONFATAL_ERROR {
            throw error(from: result, sql: sql)
        }
        throw PostgresError(
            .other, sqlState: "0A000", server: endpoint.description,
            message: "unexpected result status \(String(cString: PQresStatus(status)))", sql: sql)
    }

    /// The error a failed result reports: the server's SQLSTATE and fields, or libpq's own message (also when
    /// there is no result).
    func error(from result: OpaquePointer?, sql: String?) -> PostgresError {
        guard let result else { return clientError(sql: sql) }
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { redaction(String(cString: $0)) }
        }
        guard let sqlState = field(clibpq_diag_sqlstate()) else {
            return clientError(sql: sql, message: redaction(Self.message(PQresultErrorMessage(result))))
        }
        let kind = isBroken ? .connectionLost : PostgresError.kind(sqlState: sqlState)
        let detail = [field(clibpq_diag_message_detail()), field(clibpq_diag_message_hint())].compactMap { $0 }
        return PostgresError(
            kind, sqlState: sqlState, server: endpoint.description,
            message: field(clibpq_diag_message_primary()) ?? redaction(Self.message(PQresultErrorMessage(result))),
            detail: detail.isEmpty ? nil : detail.joined(separator: " "), sql: sql,
            constraint: field(clibpq_diag_constraint_name()))
    }

    /// An error libpq found itself (no server answer): a lost connection, or another client-side failure.
    private func clientError(sql: String?, message: String? = nil) -> PostgresError {
        let message = message ?? redaction(Self.message(PQerrorMessage(handle)))
        // libpq may not have marked the connection bad yet when a read or write on it failed.
        if isBroken || Self.saysConnectionLost(message) {
            return PostgresError(
                .connectionLost, sqlState: "08006", server: endpoint.description, message: message, sql: sql)
        }
        return PostgresError(.other, sqlState: "XX000", server: endpoint.description, message: message, sql: sql)
    }

    /// Whether libpq's message says that the connection to the server broke.
    static func saysConnectionLost(_ message: String) -> Bool {
        let phrases = [
            "server closed the connection", "no connection to the server", "could not receive data",
            "could not send data", "connection not open", "terminating connection", "lost synchronization",
            "SSL SYSCALL error", "connection to server was lost",
        ]
        return phrases.contains { message.contains($0) }
    }

    /// The error of a connection that could not be made. libpq reports these as text only, so the kind is read
    /// from the server's (English, or untranslated) message, and the SQLSTATE is the one the server sends for it.
    static func connectionError(
        _ connection: OpaquePointer, fallback: PostgresEndpoint, redaction: PostgresRedaction
    ) -> PostgresError {
        // Read as libpq wrote it; reported without the password.
        let message = message(PQerrorMessage(connection))
        var endpoint = PostgresEndpoint(connection: connection).redacted(by: redaction)
        if endpoint.host.isEmpty { endpoint.host = fallback.host }
        if endpoint.database.isEmpty { endpoint.database = fallback.database }
        if endpoint.user.isEmpty { endpoint.user = fallback.user }
        let (kind, sqlState): (PostgresError.Kind, String) =
            if message.contains("invalid integer value") || message.contains("invalid port number")
                || message.contains("invalid connection option") || message.contains("invalid URI")
                || message.contains("invalid percent-encoded") || message.contains("invalid sslmode value")
            {
                (.invalidConnectionString, "08001")
            } else if message.contains("password authentication failed") || message.contains("no password supplied") {
                (.authenticationFailed, "28P01")
            } else if message.contains("authentication failed") || message.contains("pg_hba.conf")
                || (message.contains("role \"") && message.contains("does not exist"))
            {
                (.authenticationFailed, "28000")
            } else if message.contains("database \"") && message.contains("does not exist") {
                (.databaseMissing, "3D000")
            } else if message.contains("too many clients") || message.contains("connection slots are reserved") {
                (.unreachable, "53300")
            } else if message.contains("the database system is") {
                (.unreachable, "57P03")
            } else {
                (.unreachable, "08001")
            }
        return PostgresError(kind, sqlState: sqlState, server: endpoint.description, message: redaction(message))
    }

    /// libpq's multi-line message as one line.
    static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
