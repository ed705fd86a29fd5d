/// A failure of the PostgreSQL client layer: what happened, the server it happened on (never the password), the
/// SQLSTATE, the server's or libpq's message, and what to do about it.
///
/// Errors the server reports carry its SQLSTATE; failures libpq finds before or instead of a server's answer carry
/// the standard code of their class (`08001` could not connect, `08006` connection lost).
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; the store and the tests switch on it.
    package enum Kind: Sendable, Equatable {
        /// The connection string cannot be parsed.
        case invalidConnectionString
        /// No server answers at the address (refused, no such socket, unknown host, timeout, starting up).
        case unreachable
        /// The server refused the user or password.
        case authenticationFailed
        /// The database named in the connection string does not exist.
        case databaseMissing
        /// The connection broke (the server closed it, or it was terminated) while or before a statement ran.
        case connectionLost
        /// The connection broke at a save's `COMMIT` and the server did not tell, in the time the store waits,
        /// whether the transaction committed (`08007`).
        case commitOutcomeUnknown
        /// A statement ran longer than `statement_timeout` or was cancelled.
        case statementTimeout
        /// A serializable transaction conflicted with another (`40001`); running it again can succeed.
        case serializationFailure
        /// Transactions waited for each other (`40P01`); running it again can succeed.
        case deadlock
        /// A unique constraint or index refused a duplicate (`23505`).
        case uniqueViolation
        /// Another integrity constraint refused a value (`23xxx`: not null, foreign key, check).
        case constraintViolation
        /// Every connection of a pool stayed busy for longer than the pool waits.
        case poolExhausted
        /// A value could not be sent (a date that is not a time, a value over 2 GiB).
        case invalidParameter
        /// A result's value cannot be read as the type asked for, or a row or column does not exist.
        case decoding
        /// Any other error the server or libpq reported.
        case other
    }

    package let kind: Kind
    /// The five-character SQLSTATE (`28P01`, `57014`, ...).
    package let sqlState: String
    /// The server, as `host:port/database (user name)`; never the password.
    package let server: String?
    /// The server's or libpq's message, in one line.
    package let message: String
    /// The server's detail or hint, when it gave one.
    package let detail: String?
    /// The statement that failed; bound values never appear in it.
    package let sql: String?
    /// The constraint that refused a value, for constraint violations.
    package let constraint: String?

    package init(
        _ kind: Kind, sqlState: String, server: String? = nil, message: String, detail: String? = nil,
        sql: String? = nil, constraint: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.server = server
        self.message = message
        self.detail = detail
        self.sql = sql
        self.constraint = constraint
    }

    /// Whether running the same transaction again can succeed (`40001`, `40P01`).
    package var isTransient: Bool { kind == .serializationFailure || kind == .deadlock }

    /// What went wrong, in a few words.
    package var summary: String {
        switch kind {
        case .invalidConnectionString: "the connection string is not valid"
        case .unreachable: "the PostgreSQL server cannot be reached"
        case .authenticationFailed: "the PostgreSQL server refused the user name or password"
        case .databaseMissing: "the database does not exist"
        case .connectionLost: "the connection to the PostgreSQL server was lost"
        case .commitOutcomeUnknown: "the connection was lost at the save's COMMIT, and whether it committed is unknown"
        case .statementTimeout: "the statement took too long and was cancelled"
        case .serializationFailure: "the transaction conflicted with a concurrent one"
        case .deadlock: "the transaction deadlocked with a concurrent one"
        case .uniqueViolation: "a unique constraint refused a duplicate value"
        case .constraintViolation: "a constraint refused a value"
        case .poolExhausted: "no database connection became free in time"
        case .invalidParameter: "a value cannot be sent to PostgreSQL"
        case .decoding: "a value PostgreSQL returned cannot be read"
        case .other: "the PostgreSQL statement failed"
        }
    }

    /// What to do about it.
    package var suggestion: String {
        switch kind {
        case .invalidConnectionString:
            "Write the URL as postgresql://user@host:port/database or as key=value pairs (host=... dbname=...)"
        case .unreachable:
            "Check that the server runs and listens at this host and port (pg_isready), and that no firewall blocks it"
        case .authenticationFailed:
            "Check the user name and password, and the server's pg_hba.conf rules for this host"
        case .databaseMissing:
            "Create the database (createdb) or correct its name in the URL"
        case .connectionLost:
            "Retry once the server is back; a transaction cut off before it committed was not saved"
        case .commitOutcomeUnknown:
            "Call save() on the same context again once the server answers: it first learns whether this save "
                + "committed and stores its changes once either way. Until then, do not make the same changes in "
                + "another context or process"
        case .statementTimeout:
            "Raise statement_timeout, or make the query cheaper (an index on the columns it filters on)"
        case .serializationFailure, .deadlock:
            "Run the transaction again; if it keeps failing, fewer processes should write the same rows at once"
        case .uniqueViolation:
            "Another row already has this value; change the value, or update that row instead"
        case .constraintViolation:
            "Change the value so that it satisfies the constraint"
        case .poolExhausted:
            "Raise the configuration's maximumConnections (the pool's size) or connectionWaitTimeout, or run fewer "
                + "fetches and saves at once"
        case .invalidParameter:
            "Pass a value PostgreSQL can store"
        case .decoding:
            "Read the column as the type the statement returns"
        case .other:
            "See the server's message"
        }
    }

    package var description: String {
        var text = summary
        if let server { text += " (\(server))" }
        text += ": SQLSTATE \(sqlState): \(message)"
        if let detail { text += " (\(detail))" }
        if let sql { text += ". SQL: \(sql)" }
        return text + ". " + suggestion
    }

    /// The kind of a server error with this SQLSTATE.
    static func kind(sqlState: String) -> Kind {
        switch sqlState {
        case "28P01", "28000": .authenticationFailed
        case "3D000": .databaseMissing
        case "57014": .statementTimeout
        case "40001": .serializationFailure
        case "40P01": .deadlock
        case "23505": .uniqueViolation
        case "57P01", "57P02": .connectionLost
        case "57P03", "53300": .unreachable
        default:
            if sqlState.hasPrefix("23") {
                .constraintViolation
            } else if sqlState.hasPrefix("08") {
                .connectionLost
            } else {
                .other
            }
        }
    }

    static func invalidParameter(_ index: Int, _ reason: String) -> PostgresError {
        PostgresError(.invalidParameter, sqlState: "22023", message: "parameter $\(index + 1): \(reason)")
    }

    static func decoding(_ reason: String) -> PostgresError {
        PostgresError(.decoding, sqlState: "22000", message: reason)
    }
}
