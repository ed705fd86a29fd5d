import Foundation
import TestProcessSupport

/// Several private PostgreSQL servers for the tests that need more than one: a primary, two streaming standbys
/// copied from it with `pg_basebackup -R`, and a PgBouncer in transaction pooling mode in front of the primary, all
/// on 127.0.0.1 in temporary directories. One cluster is shared by the test process, started by its first user;
/// the suites that need none never start it. A test that stops a standby makes one of its own (`makeStandby()`),
/// one that kills the primary a cluster of its own (`dedicated(standbys:pooler:)`).
///
/// The servers run as `PostgresTestServer`s do (as `postgres` through `setpriv` when the tests run as root, each
/// with a watchdog), and PgBouncer, which refuses to run as root, as the same user. Replication is asynchronous
/// unless a test asks for synchronous replication (`setSynchronousReplication(_:)`). Every standby logs the
/// statements it runs, with their `application_name` first (`loggedStatements(of:)`), so that a test can count the
/// reads a standby served.
///
/// Besides PostgreSQL's binaries it needs `pg_basebackup` and `pgbouncer` (`apt-get install pgbouncer`). Without
/// them the multi-server suites are skipped with a warning, unless `SWIFTDATA_REQUIRE_POSTGRES=1`, which makes them
/// run, and fail.
package final class PostgresTestCluster: Sendable {
    /// The primary, which every write goes to.
    package let primary: PostgresTestServer
    /// The streaming standbys, `standby1`, `standby2`, ...
    package let standbys: [PostgresTestServer]
    /// PgBouncer's port (0 without one): `transaction` pooling, 2 server connections per database and user.
    package let poolerPort: Int
    private let poolerDirectory: String?

    /// A URL of the primary.
    package var url: String { primary.url }
    /// The URLs of the standbys, in order.
    package var standbyURLs: [String] { standbys.map(\.url) }
    /// A URL of the primary through PgBouncer.
    package var poolerURL: String { primary.url(database: primary.database, port: poolerPort) }

    /// How many server connections PgBouncer opens per database and user (`default_pool_size`).
    package static let poolerServerConnections = 2

    /// Whether the multi-server suites run: PostgreSQL's binaries, `pg_basebackup` and `pgbouncer` exist, or
    /// `SWIFTDATA_REQUIRE_POSTGRES=1` asks for them. When they are skipped, this says so on standard error, once.
    package static let isAvailable: Bool = {
        if PostgresTestServer.binDirectory != nil, missingPrograms.isEmpty { return true }
        if PostgresTestServer.isRequired {
            PostgresTestServer.warn("SWIFTDATA_REQUIRE_POSTGRES=1 but \(missingList) is missing: the suites will fail")
            return true
        }
        PostgresTestServer.warn(skipWarning)
        atexit { PostgresTestServer.warn(PostgresTestCluster.skipWarning) }
        return false
    }()

    private static var missingList: String {
        PostgresTestServer.binDirectory == nil ? "PostgreSQL" : missingPrograms.joined(separator: ", ")
    }

    private static var skipWarning: String {
        "\(missingList) was not found, so the multi-server PostgreSQL suites (replicas, pooler) were SKIPPED. "
            + "Install it with `apt-get install postgresql pgbouncer`"
    }

    /// The programs besides PostgreSQL's server that the cluster needs and this machine lacks.
    private static let missingPrograms: [String] = {
        var missing: [String] = []
        if let bin = PostgresTestServer.binDirectory,
            !FileManager.default.isExecutableFile(atPath: "\(bin)/pg_basebackup")
        {
            missing.append("pg_basebackup")
        }
        if pgbouncer == nil { missing.append("pgbouncer") }
        return missing
    }()

    /// PgBouncer's program: `SWIFTDATA_PGBOUNCER`, or `pgbouncer` on `PATH` or in `/usr/sbin`.
    private static let pgbouncer: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SWIFTDATA_PGBOUNCER"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin"]
        return directories.map { "\($0)/pgbouncer" }.first(where: FileManager.default.isExecutableFile)
    }()

    private static let started = Result { try PostgresTestCluster(standbys: 2, pooler: true) }

    /// The cluster of this test process, started by the first caller.
    package static func shared() throws -> PostgresTestCluster { try started.get() }

    /// A cluster of the caller's own, whose primary it may stop and whose standbys it may promote.
    package static func dedicated(standbys: Int = 2, pooler: Bool = false) throws -> PostgresTestCluster {
        try PostgresTestCluster(standbys: standbys, pooler: pooler)
    }

    private init(standbys count: Int, pooler: Bool) throws {
        guard Self.missingPrograms.isEmpty else {
            throw ServerError("\(Self.missingList) not found: apt-get install postgresql pgbouncer")
        }
        // Durable commits (the default `synchronous_commit = on`), so that synchronous replication, when a test
        // turns it on, waits for a standby. WAL is kept for a standby stopped for a while.
        let primary = try PostgresTestServer(
            durable: true,
            settings: """
                wal_level = replica
                max_wal_senders = 20
                wal_keep_size = 256MB
                """)
        self.primary = primary
        standbys = try (0..<count).map { try Self.standby(of: primary, named: "standby\($0 + 1)") }
        if pooler {
            let directory = try Self.startPooler(in: primary)
            poolerDirectory = directory.path
            poolerPort = directory.port
        } else {
            poolerDirectory = nil
            poolerPort = 0
        }
    }

    /// A new standby of the primary, for a test that stops it or slows it; it is not in `standbys`.
    package func makeStandby() throws -> PostgresTestServer {
        try Self.standby(of: primary, named: "standby_\(UUID().uuidString.prefix(8).lowercased())")
    }

    /// Copies the primary with `pg_basebackup -R` into a new directory and starts the copy as a hot standby that
    /// streams from it, reporting itself as `name` (`cluster_name`).
    private static func standby(of primary: PostgresTestServer, named name: String) throws -> PostgresTestServer {
        let directory = try PostgresTestServer.makeDirectory()
        let account = try PostgresTestServer.serverAccount()
        let bin = primary.binDirectory
        PostgresTestServer.startWatchdog(
            directory: directory,
            stop: account.prefix + ["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
        if let uid = account.uid, let gid = account.gid, chown(directory, uid, gid) != 0 {
            throw ServerError("chown of \(directory) failed (errno \(errno))")
        }
        try PostgresTestServer.run(
            in: directory,
            account.prefix + [
                "\(bin)/pg_basebackup", "-h", primary.directory, "-p", "\(primary.port)", "-U", "postgres", "-D",
                "\(directory)/data", "-R", "-X", "stream", "-c", "fast", "--no-sync",
            ])
        let port = try PostgresTestServer.startOnFreePort(
            directory: directory, binDirectory: bin, account: account.prefix
        ) {
            """

            port = \($0)
            unix_socket_directories = '\(directory)'
            cluster_name = '\(name)'
            hot_standby = on
            hot_standby_feedback = on
            log_statement = 'all'
            log_line_prefix = '%a '

            """
        }
        return PostgresTestServer(
            directory: directory, port: port, password: primary.password, binDirectory: bin,
            accountPrefix: account.prefix)
    }

    /// Starts PgBouncer in front of `primary` in a new directory, as the server's account; returns the directory
    /// and the port PgBouncer listens on, once it accepts connections.
    private static func startPooler(in primary: PostgresTestServer) throws -> (path: String, port: Int) {
        guard let pgbouncer else { throw ServerError("pgbouncer not found: apt-get install pgbouncer") }
        let directory = try PostgresTestServer.makeDirectory()
        let account = try PostgresTestServer.serverAccount()
        PostgresTestServer.startWatchdog(
            directory: directory,
            stop: ["/bin/sh", "-c", "kill $(cat \"$0\")", "\(directory)/pgbouncer.pid"])
        for _ in 0..<5 {
            let port = try PostgresTestServer.freePort()
            let configuration = """
                [databases]
                * = host=127.0.0.1 port=\(primary.port)

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = \(port)
                unix_socket_dir =
                auth_type = scram-sha-256
                auth_file = \(directory)/users.txt
                pool_mode = transaction
                default_pool_size = \(poolerServerConnections)
                max_client_conn = 500
                logfile = \(directory)/pgbouncer.log
                pidfile = \(directory)/pgbouncer.pid

                """
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: "\(directory)/pgbouncer.ini"))
            try Data("\"\(primary.user)\" \"\(primary.password)\"\n".utf8)
                .write(to: URL(fileURLWithPath: "\(directory)/users.txt"))
            if let uid = account.uid, let gid = account.gid {
                for path in [directory, "\(directory)/pgbouncer.ini", "\(directory)/users.txt"]
                where chown(path, uid, gid) != 0 {
                    throw ServerError("chown of \(path) failed (errno \(errno))")
                }
            }
            try PostgresTestServer.run(in: directory, account.prefix + [pgbouncer, "-d", "\(directory)/pgbouncer.ini"])
            // `-d` returns once PgBouncer forked; it listens, or has given up on the port, a moment later.
            let deadline = Date(timeIntervalSinceNow: 30)
            while Date() < deadline {
                if acceptsConnections(port: port) { return (directory, port) }
                let log = (try? String(contentsOfFile: "\(directory)/pgbouncer.log", encoding: .utf8)) ?? ""
                if log.contains("Address already in use") { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let log = (try? String(contentsOfFile: "\(directory)/pgbouncer.log", encoding: .utf8)) ?? ""
        throw ServerError("PgBouncer did not start:\n\(log)")
    }

    /// Whether something accepts TCP connections on the port of 127.0.0.1.
    private static func acceptsConnections(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Turns synchronous replication on (a commit waits until a standby has the transaction's WAL: `ANY 1` of the
    /// standbys) or off, and returns once the primary has reloaded its configuration.
    package func setSynchronousReplication(_ enabled: Bool) throws {
        let value =
            enabled ? "ANY 1 (\(standbys.indices.map { "standby\($0 + 1)" }.joined(separator: ", ")))" : ""
        try primary.psql("ALTER SYSTEM SET synchronous_standby_names = '\(value)'", "SELECT pg_reload_conf()")
    }

    /// Promotes a standby to a primary (`pg_ctl promote`), and returns once it accepts writes.
    package func promote(_ standby: PostgresTestServer) throws {
        try standby.run(
            standby.accountPrefix + [
                "\(standby.binDirectory)/pg_ctl", "-D", "\(standby.directory)/data", "-w", "promote",
            ])
    }
}

extension PostgresTestServer {
    /// The WAL position this server has replayed (a standby) or inserted (a primary: every transaction committed
    /// before lies before it), as PostgreSQL prints it.
    package func walPosition() throws -> String {
        try psql(
            "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pauses a standby's replay of the WAL it receives (`pg_wal_replay_pause()`): what the primary commits is not
    /// visible on it until `resumeReplay()`.
    package func pauseReplay() throws {
        try psql("SELECT pg_wal_replay_pause()")
    }

    /// Resumes a standby's replay.
    package func resumeReplay() throws {
        try psql("SELECT pg_wal_replay_resume()")
    }

    /// Makes a standby apply each transaction no sooner than `delay` after the primary committed it
    /// (`recovery_min_apply_delay`), or at once for zero; returns once it has reloaded its configuration.
    package func setApplyDelay(_ delay: Duration) throws {
        let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
        try psql("ALTER SYSTEM SET recovery_min_apply_delay = '\(milliseconds)ms'", "SELECT pg_reload_conf()")
    }

    /// Waits until a standby has replayed `position` (a primary's `walPosition()`), for up to a minute.
    package func waitForReplay(of position: String) throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while try psql("SELECT pg_last_wal_replay_lsn() >= '\(position)'::pg_lsn").contains("f") {
            guard Date() < deadline else { throw ServerError("the standby did not replay \(position) in a minute") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// The statements a standby ran for connections named `applicationName`, as its log shows them.
    package func loggedStatements(of applicationName: String) -> [String] {
        let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter {
            $0.hasPrefix(applicationName + " ") && ($0.contains("statement: ") || $0.contains("execute "))
        }.map(String.init)
    }
}
