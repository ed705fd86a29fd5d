import Foundation
import SwiftDataCore

/// A PostgreSQL database that keeps a container's models: pass it to `ModelContainer(for:configurations:)` in place
/// of a `ModelConfiguration`, in the style of Apple's custom stores (`DataStoreConfiguration`).
///
/// ```swift
/// let container = try ModelContainer(
///     for: Trip.self, configurations: PostgresConfiguration(url: "postgresql://app@db.example.com:5432/trips"))
/// ```
///
/// The URL takes every form libpq accepts: `postgresql://user:password@host:port/database?sslmode=require`, or
/// `key=value` pairs (`host=/var/run/postgresql dbname=trips`), with libpq's environment variables (`PGHOST`,
/// `PGPASSWORD`, ...) and `~/.pgpass` for what it leaves out. Errors name the server, never the password.
///
/// Past one server, reads may go to streaming replicas (`readReplicas`), and the store may run behind a pooler in
/// transaction mode such as PgBouncer (`transactionPooling`).
///
/// An addition to Apple's API, in its own module (`import SwiftDataPostgres`).
public struct PostgresConfiguration: DataStoreConfiguration, Sendable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The store this configuration opens.
    public typealias Store = PostgresStore

    /// The configuration's name (`default` unless given).
    public var name: String
    /// The libpq connection string or URL of the database.
    public var url: String
    /// Streaming replicas of the database (hot standbys), by URL, that fetches may read from; none unless given.
    ///
    /// A fetch (and a count, a fetch of identifiers, a batched fetch, an enumeration, an observer's refresh) reads
    /// from a replica that has replayed everything this container must see: its own last save and every save of
    /// another instance it was told of, compared by WAL position; otherwise it reads from the primary (`url`). A
    /// save, and everything in its transaction, runs on the primary. A replica that cannot be reached, or that has
    /// still not replayed a position a read needed `replicaLagLimit` (10 seconds by default) after it was found
    /// behind it, is left out for `replicaRetryInterval` (5 seconds by default), its reads going to the others or to
    /// the primary meanwhile.
    public var readReplicas: [String]

    /// How long a replica may stay behind what reads need before it is left out; 10 seconds unless given.
    public var replicaLagLimit: Duration = .seconds(10)
    /// How long a replica that could not be reached, or lagged past `replicaLagLimit`, is left out before reads try
    /// it again; 5 seconds unless given.
    public var replicaRetryInterval: Duration = .seconds(5)
    /// The models the store holds; `nil` means all of the container's.
    public var schema: Schema?
    /// The PostgreSQL schema (namespace) that holds the store's tables, created if missing: several apps, or
    /// several stores of one app, share a database each in a schema of its own. `public` unless given.
    public var postgresSchema: String
    /// Whether the store may be written; a store opened with `false` is neither created nor migrated.
    public var allowsSave: Bool
    /// The most connections the store opens for fetches and saves (besides one that listens for other instances'
    /// changes); 4 unless given.
    public var maximumConnections: Int
    /// How long a save whose connection was lost at its `COMMIT` keeps asking the server whether the transaction
    /// committed, while the server is down, restarting or recovering; 30 seconds unless given. When no answer comes
    /// in that time, the save throws `SwiftDataError.storeError` with the store code `08007`, the context keeps its
    /// changes, and its next save learns the outcome first and stores them once either way.
    public var commitOutcomeWait: Duration = .seconds(30)
    /// How long a fetch or save waits for a connection while all `maximumConnections` are in use; 30 seconds unless
    /// given. Then it throws `SwiftDataError.storeError` (store code `53300`) naming the pool's size.
    public var connectionWaitTimeout: Duration = .seconds(30)
    /// How many times a save that failed with a serialization failure or a deadlock (SQLSTATE `40001`, `40P01`) runs
    /// again, whole, before it throws; 3 unless given. Such a failure rolls the save's transaction back, so running
    /// it again stores each change once. Opening a store runs its creation or migration again as many times when it
    /// fails so (a migration stage's `willMigrate` and `didMigrate` then run again too).
    public var saveRetries = 3
    /// Whether the store reaches the database through a pooler in transaction mode (PgBouncer's `pool_mode =
    /// transaction`), which hands each transaction whichever server connection is free: the store then keeps no
    /// session state (no prepared statement outlives a statement, settings are made in each transaction) and
    /// listens for other instances' saves on `listenURL`. `false` unless given.
    public var transactionPooling: Bool
    /// A URL that reaches the database directly, not through the pooler, on which a store with
    /// `transactionPooling` listens for other instances' saves (`LISTEN` needs a session of its own). Without one,
    /// such a store learns of other instances' saves by reading the history table every
    /// `PostgresConfiguration.changePollInterval` (one second).
    public var listenURL: String?

    /// How often a store with `transactionPooling` and no `listenURL` looks for other instances' saves.
    public static let changePollInterval: Duration = .seconds(1)

    /// A configuration of the database at `url`, holding the models of `schema` (all of the container's if `nil`).
    public init(
        _ name: String = "default", url: String, readReplicas: [String] = [], schema: Schema? = nil,
        postgresSchema: String = "public", allowsSave: Bool = true, maximumConnections: Int = 4,
        transactionPooling: Bool = false, listenURL: String? = nil
    ) {
        self.name = name
        self.url = url
        self.readReplicas = readReplicas
        self.transactionPooling = transactionPooling
        self.listenURL = listenURL
        self.schema = schema
        self.postgresSchema = postgresSchema
        self.allowsSave = allowsSave
        self.maximumConnections = maximumConnections
    }

    /// Refuses a configuration that cannot open a store: an empty URL, an empty schema name or one of PostgreSQL's own
    /// (`information_schema`, `pg_catalog`, `pg_*`), no connections.
    public func validate() throws {
        if url.trimmingCharacters(in: .whitespaces).isEmpty {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the PostgreSQL configuration '\(name)' has an empty URL",
                suggestion: "Pass a URL such as postgresql://user@host:5432/database")
        }
        if let empty = readReplicas.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the PostgreSQL configuration '\(name)' has an empty URL for read replica \(empty + 1)",
                suggestion: "Pass each replica's URL, such as postgresql://user@replica1.example.com:5432/database")
        }
        if postgresSchema.isEmpty || postgresSchema.utf8.count > 63 {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the PostgreSQL schema name '\(postgresSchema)' is empty or longer than 63 bytes",
                suggestion: "Pass a schema name of 1 to 63 bytes")
        }
        if postgresSchema.hasPrefix("pg_") || postgresSchema == "information_schema" {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "the PostgreSQL schema name '\(postgresSchema)' is one of PostgreSQL's own (information_schema, "
                    + "pg_catalog, and every name that begins with pg_)",
                suggestion: "Pass a schema of your own, such as postgresSchema: \"app\"")
        }
        if maximumConnections < 1 {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the PostgreSQL configuration '\(name)' allows \(maximumConnections) connections",
                suggestion: "Allow at least one connection")
        }
        if replicaLagLimit < .zero {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the PostgreSQL configuration '\(name)' has a negative replicaLagLimit (\(replicaLagLimit))",
                suggestion: "Give replicas zero or more time to catch up")
        }
        if replicaRetryInterval < .zero {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "the PostgreSQL configuration '\(name)' has a negative replicaRetryInterval (\(replicaRetryInterval))",
                suggestion: "Leave a replica that failed out for zero or more time")
        }
        if connectionWaitTimeout <= .zero || saveRetries < 0 {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "the PostgreSQL configuration '\(name)' waits \(connectionWaitTimeout) for a connection and "
                    + "retries a save \(saveRetries) times",
                suggestion: "Wait longer than zero, and retry zero or more times")
        }
    }

    /// The configuration without its password.
    public var description: String {
        "PostgresConfiguration(\(name), \(PostgresRedaction(url)(url)), schema \(postgresSchema))"
    }

    /// The configuration without its password.
    public var debugDescription: String { description }

    /// The configuration's parts for `dump()` and `Mirror`, its URL without the password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "url": PostgresRedaction(url)(url), "schema": schema as Any,
                "postgresSchema": postgresSchema, "allowsSave": allowsSave, "maximumConnections": maximumConnections,
                "commitOutcomeWait": commitOutcomeWait, "connectionWaitTimeout": connectionWaitTimeout,
                "saveRetries": saveRetries,
                "readReplicas": readReplicas.map { PostgresRedaction($0)($0) }, "replicaLagLimit": replicaLagLimit,
                "replicaRetryInterval": replicaRetryInterval,
                "transactionPooling": transactionPooling,
                "listenURL": listenURL.map { PostgresRedaction($0)($0) } as Any,
            ], displayStyle: .struct)
    }
}
