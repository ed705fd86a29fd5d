import Foundation
import PostgresTestSupport
import SwiftData
import SwiftDataPostgres
import TestProcessSupport

/// A store that behaviour suites run on: each test taking a `StoreKind` argument runs once on SQLite and once on
/// PostgreSQL (on the private server of `PostgresTestServer`). Without PostgreSQL's server binaries the PostgreSQL
/// cases are left out, and the test run says loudly that they were skipped; `SWIFTDATA_REQUIRE_POSTGRES=1` makes
/// them run, and fail. `pooled` is PostgreSQL through PgBouncer in transaction mode (the test cluster's), which the
/// suites that prove the store works behind such a pooler add (`withPooler`).
enum StoreKind: String, CustomStringConvertible, Sendable {
    case sqlite, postgres, pooled

    /// The stores to run on.
    static let all: [StoreKind] = PostgresTestServer.isAvailable ? [.sqlite, .postgres] : [.sqlite]

    /// The stores to run on, and PostgreSQL through the test cluster's PgBouncer when it can start.
    static let withPooler: [StoreKind] = all + (PostgresTestCluster.isAvailable ? [.pooled] : [])

    var description: String { rawValue }

    /// The PostgreSQL server of a PostgreSQL kind: the test server, or the cluster's primary behind the pooler.
    func postgresServer() throws -> PostgresTestServer {
        self == .pooled ? try PostgresTestCluster.shared().primary : try PostgresTestServer.shared()
    }

    /// A container on a new, empty store of this kind (SQLite: in memory).
    func makeContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
        try StoreLocation(self).container(Schema(types), inMemory: true)
    }

    /// A new place for a store of this kind, which containers open again and again.
    func location() -> StoreLocation { StoreLocation(self) }
}

/// Where a test's store lives: a temporary directory (SQLite) or a PostgreSQL schema of its own on the test
/// server; every container opened through it opens the same store.
final class StoreLocation {
    let kind: StoreKind
    private let directory: TemporaryDirectory?
    /// The PostgreSQL schema, for a PostgreSQL store.
    let postgresSchema: String

    init(_ kind: StoreKind) {
        self.kind = kind
        directory = kind == .sqlite ? TemporaryDirectory() : nil
        postgresSchema = "test_" + UUID().uuidString.prefix(12).lowercased()
    }

    /// The file of an SQLite store named `name`.
    func store(_ name: String = "test") -> URL {
        directory?.store(name) ?? URL(fileURLWithPath: "/dev/null")
    }

    /// The configuration of the location's store (named `name`).
    func configuration(_ schema: Schema? = nil, name: String = "test", allowsSave: Bool = true) throws
        -> any DataStoreConfiguration
    {
        switch kind {
        case .sqlite:
            return ModelConfiguration(
                schema: schema, url: directory?.store(name) ?? URL(fileURLWithPath: "/dev/null"),
                allowsSave: allowsSave)
        case .postgres:
            return PostgresConfiguration(
                name, url: try PostgresTestServer.shared().url, schema: schema, postgresSchema: postgresSchema,
                allowsSave: allowsSave)
        case .pooled:
            let cluster = try PostgresTestCluster.shared()
            return PostgresConfiguration(
                name, url: cluster.poolerURL, schema: schema, postgresSchema: postgresSchema, allowsSave: allowsSave,
                transactionPooling: true, listenURL: cluster.url)
        }
    }

    /// A container on the location's store.
    func container(_ types: any PersistentModel.Type..., allowsSave: Bool = true) throws -> ModelContainer {
        try container(Schema(types), allowsSave: allowsSave)
    }

    /// A container for a schema on the location's store (`inMemory`: an SQLite store in memory instead).
    func container(_ schema: Schema, allowsSave: Bool = true, inMemory: Bool = false) throws -> ModelContainer {
        if inMemory, kind == .sqlite {
            return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        }
        return try ModelContainer(for: schema, configurations: [configuration(allowsSave: allowsSave)])
    }
}

extension StoreLocation {
    /// A container for a schema on the location's store, migrated with a migration plan.
    func container(_ schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        switch kind {
        case .sqlite:
            return try ModelContainer(
                for: schema, migrationPlan: migrationPlan, configurations: ModelConfiguration(url: store()))
        case .postgres, .pooled:
            guard let configuration = try configuration() as? PostgresConfiguration else {
                throw CocoaError(.featureUnsupported)
            }
            return try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: configuration)
        }
    }
}

extension StoreLocation {
    /// Runs the test child process with a command on the location's store (SQLite: its file; PostgreSQL: the
    /// server's URL, and the schema in the environment), its standard output going to `output` when given;
    /// returns the running process.
    func runChild(_ arguments: [String], output: Pipe? = nil) throws -> ChildProcess {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess")
        var environment = ["SWIFTDATA_POSTGRES_SCHEMA": postgresSchema]
        let store: String
        switch kind {
        case .sqlite: store = self.store().path
        case .postgres: store = try PostgresTestServer.shared().url
        case .pooled:
            store = try PostgresTestCluster.shared().poolerURL
            environment["SWIFTDATA_POSTGRES_LISTEN_URL"] = try PostgresTestCluster.shared().url
        }
        child.arguments = [arguments[0], store] + arguments.dropFirst()
        child.environment = RunningChild.environment().merging(environment, uniquingKeysWith: { $1 })
        if let output { child.standardOutput = output }
        try child.run()
        return child
    }
}

/// A container on the store at `location`.
func makeContainer(_ types: any PersistentModel.Type..., in location: StoreLocation) throws -> ModelContainer {
    try location.container(Schema(types))
}
