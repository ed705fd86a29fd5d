import Foundation
import TestProcessSupport

/// A private PostgreSQL server for the tests, started on first use and shared by every test of the process.
///
/// It creates a cluster in a new temporary directory with `initdb`, starts it with `pg_ctl` on a free TCP port of
/// 127.0.0.1 and on a Unix socket in that directory, and creates a database and a user with a password
/// (`scram-sha-256` over TCP; the socket trusts the superuser `postgres`). PostgreSQL refuses to run as root, so
/// when the tests do, the server runs as the `postgres` user (or `nobody`), through `setpriv`, in a directory
/// handed to that user. A watchdog process started with the server stops it and deletes the directory once the
/// test process has exited, however it exits.
///
/// The binaries are found through `SWIFTDATA_POSTGRES_BIN`, `pg_config --bindir`, `/usr/lib/postgresql/*/bin`
/// (the newest) or `PATH`. Without them the PostgreSQL suites are skipped with a warning, unless
/// `SWIFTDATA_REQUIRE_POSTGRES=1`, which makes them run and fail.
package final class PostgresTestServer: Sendable {
    /// The directory holding the cluster (`data/`), its log (`server.log`) and its socket.
    package let directory: String
    package let port: Int
    package let database = "swiftdata"
    package let user = "swiftdata"
    package let password: String
    let binDirectory: String

    /// A URL for the test user over TCP, with its password.
    package var url: String { url(database: database) }

    /// A URL for the test user over TCP to another database of the server.
    package func url(database: String, password: String? = nil, port: Int? = nil) -> String {
        "postgresql://\(user):\(password ?? self.password)@127.0.0.1:\(port ?? self.port)/\(database)"
    }

    /// A `key=value` connection string for the superuser `postgres` over the Unix socket.
    package var superuserConnectionString: String {
        "host=\(directory) port=\(port) dbname=\(database) user=postgres"
    }

    /// Whether the PostgreSQL suites run: the binaries exist, or `SWIFTDATA_REQUIRE_POSTGRES=1` asks for them.
    /// When they are skipped, this says so on standard error, once.
    package static let isAvailable: Bool = {
        if binDirectory != nil { return true }
        if isRequired {
            warn("SWIFTDATA_REQUIRE_POSTGRES=1 but no PostgreSQL server binaries were found: the suites will fail")
            return true
        }
        warn(skipWarning)
        // Said again as the test process exits, after every test's output.
        atexit { PostgresTestServer.warn(PostgresTestServer.skipWarning) }
        return false
    }()

    private static let skipWarning =
        "no PostgreSQL server binaries (initdb, pg_ctl) were found, so the PostgreSQL suites were SKIPPED. "
        + "Install them with `apt-get install postgresql libpq-dev`, or set SWIFTDATA_POSTGRES_BIN"

    /// Whether a missing server must fail the tests (`SWIFTDATA_REQUIRE_POSTGRES=1`, as CI sets it).
    package static let isRequired = ProcessInfo.processInfo.environment["SWIFTDATA_REQUIRE_POSTGRES"] == "1"

    /// The directory of `initdb`, `pg_ctl`, `postgres` and `psql`, if any.
    package static let binDirectory: String? = {
        let environment = ProcessInfo.processInfo.environment
        // When set, SWIFTDATA_POSTGRES_BIN is the only place looked at (an empty directory skips the suites).
        if let explicit = environment["SWIFTDATA_POSTGRES_BIN"], !explicit.isEmpty {
            return isServer(explicit) ? explicit : nil
        }
        var candidates: [String] = []
        if let configured = try? output(of: "pg_config", ["--bindir"]) { candidates.append(configured) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first(where: isServer)
    }()

    private static func isServer(_ directory: String) -> Bool {
        ["initdb", "pg_ctl", "postgres", "psql"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)")
        }
    }

    private static let started = Result { try PostgresTestServer(durable: false) }

    /// The server of this test process, started by the first caller.
    package static func shared() throws -> PostgresTestServer { try started.get() }

    /// A server of the caller's own, which it may stop and start (`stop()`, `start()`) without disturbing other
    /// tests. It runs with `synchronous_commit = on`, so that a commit it acknowledged survives `stop()`.
    package static func dedicated() throws -> PostgresTestServer { try PostgresTestServer(durable: true) }

    /// The account prefix the server's commands run with (`setpriv ...` for root).
    let accountPrefix: [String]

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`): sessions end without a word, and
    /// the next start recovers from the write-ahead log.
    package func stop() throws {
        try run(accountPrefix + ["\(binDirectory)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again on its port, and returns once it accepts connections (after any crash recovery).
    /// Server processes of the stopped server may still be ending (they hold its shared memory, or its port), for a
    /// moment on a busy machine: the start is tried again until they have, for up to a minute.
    package func start() throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while true {
            do {
                try run(
                    accountPrefix + [
                        "\(binDirectory)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w",
                        "-t", "60", "start",
                    ])
                return
            } catch {
                let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
                let tail = log.split(separator: "\n").suffix(5).joined(separator: "\n")
                let oldServerLingers =
                    tail.contains("is still in use") || tail.contains("Address already in use")
                    || tail.contains("could not bind") || tail.contains("lock file")
                guard oldServerLingers, Date() < deadline else { throw ServerError("\(error)\n\(tail)") }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// A server already set up in `directory` (a standby's: see `PostgresTestCluster`).
    init(directory: String, port: Int, password: String, binDirectory: String, accountPrefix: [String]) {
        self.directory = directory
        self.port = port
        self.password = password
        self.binDirectory = binDirectory
        self.accountPrefix = accountPrefix
    }

    /// A new server; `settings` are added to its `postgresql.conf`.
    init(durable: Bool, settings: String = "") throws {
        guard let binDirectory = Self.binDirectory else {
            throw ServerError("no PostgreSQL server binaries found: apt-get install postgresql libpq-dev")
        }
        self.binDirectory = binDirectory
        let directory = try Self.makeDirectory()
        self.directory = directory
        password = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let account = try Self.serverAccount()
        accountPrefix = account.prefix
        Self.startWatchdog(
            directory: directory,
            stop: account.prefix + [
                "\(binDirectory)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop",
            ])
        if let uid = account.uid, let gid = account.gid {
            guard chown(directory, uid, gid) == 0 else {
                throw ServerError("chown of \(directory) failed (errno \(errno))")
            }
        }
        try Self.run(
            in: directory,
            account.prefix + [
                "\(binDirectory)/initdb", "-D", "\(directory)/data", "-U", "postgres",
                "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync",
            ])
        // max_connections: the suites run in parallel and each container has a pool of its own; 100 ran out
        // under load ("remaining connection slots are reserved", 53300).
        port = try Self.startOnFreePort(directory: directory, binDirectory: binDirectory, account: account.prefix) {
            """

            port = \($0)
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(directory)'
            fsync = off
            synchronous_commit = \(durable ? "on" : "off")
            full_page_writes = off
            max_connections = 400
            deadlock_timeout = 100ms
            \(settings)
            """
        }
        try psql(
            "CREATE ROLE \(user) LOGIN CREATEDB PASSWORD '\(password)'",
            "CREATE DATABASE \(database) OWNER \(user)", database: "postgres")
    }

    /// Adds `settings(port)` to the `postgresql.conf` of the cluster in `directory/data` and starts it, on another
    /// free port when the one it tried was taken meanwhile; returns the port.
    static func startOnFreePort(
        directory: String, binDirectory: String, account: [String], settings: (Int) -> String
    ) throws -> Int {
        for _ in 0..<5 {
            let port = try freePort()
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/data/postgresql.conf"))
            try file.seekToEnd()
            try file.write(contentsOf: Data(settings(port).utf8))
            try file.close()
            do {
                try run(
                    in: directory,
                    account + [
                        "\(binDirectory)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w",
                        "-t", "60", "start",
                    ])
                return port
            } catch {
                let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
                guard log.contains("could not bind") || log.contains("Address already in use") else {
                    throw ServerError("\(error)\n\(log)")
                }
            }
        }
        throw ServerError("no free port for PostgreSQL after 5 tries")
    }

    /// Runs SQL statements with `psql` in a process of its own, as the superuser over the socket, each statement
    /// in its own transaction; returns what `psql` printed (unaligned, tuples only).
    @discardableResult
    package func psql(_ statements: String..., database: String? = nil) throws -> String {
        try run(
            [
                "\(binDirectory)/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p",
                "\(port)",
                "-U", "postgres", "-d", database ?? self.database,
            ] + statements.flatMap { ["-c", $0] })
    }

    /// Runs a program to its end in the server's directory; throws with its output if it fails.
    @discardableResult
    func run(_ command: [String]) throws -> String {
        try Self.run(in: directory, command)
    }

    /// Runs a program to its end and returns its output; throws with the output if it fails. Its output goes to a
    /// file, read once the program has ended.
    @discardableResult
    static func run(in directory: String? = nil, _ command: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("openswiftdata-pg-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil, attributes: [.posixPermissions: 0o600]),
            let outputFile = FileHandle(forWritingAtPath: outputPath)
        else { throw ServerError("\(outputPath) could not be created") }
        defer { try? outputFile.close() }
        // The server's user may not be allowed into the tests' working directory: start in `directory`.
        let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0] + command } ?? command
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: command[0])
        child.arguments = Array(command.dropFirst())
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = outputFile
        child.standardError = outputFile
        do { try child.run() } catch { throw ServerError("\(error)") }
        child.waitUntilExit()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard child.terminationReason == .exit, child.terminationStatus == 0 else {
            throw ServerError(
                "\(command.joined(separator: " ")) failed (\(child.terminationReason == .exit ? "status" : "signal") "
                    + "\(child.terminationStatus)):\n\(output)")
        }
        return output
    }

    /// A program's output, trimmed, with `PATH` lookup.
    private static func output(of program: String, _ arguments: [String]) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { throw ServerError("\(program) not found") }
        return try run(in: nil, [path] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Who the server runs as: the test process's user, or, for root, `postgres` (or `nobody`) through `setpriv`.
    static func serverAccount() throws -> (prefix: [String], uid: uid_t?, gid: gid_t?) {
        guard geteuid() == 0 else { return ([], nil, nil) }
        guard let entry = getpwnam("postgres") ?? getpwnam("nobody") else {
            throw ServerError("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL")
        }
        let uid = entry.pointee.pw_uid
        let gid = entry.pointee.pw_gid
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: FileManager.default.isExecutableFile)
        else {
            throw ServerError("running as root, and setpriv (util-linux) is missing to run PostgreSQL as another user")
        }
        return ([setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"], uid, gid)
    }

    /// A new temporary directory with a short path: a socket's path must fit in 107 bytes.
    static func makeDirectory() throws -> String {
        var template = Array("/tmp/openswiftdata-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ServerError("mkdtemp failed (errno \(errno))") }
        return String(cString: made)
    }

    /// A TCP port of 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket failed (errno \(errno))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError("bind failed (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts, in a session of its own so that an interrupt of the tests does not reach it, a shell that waits for
    /// this process to exit, then runs `stop` and deletes `directory`.
    static func startWatchdog(directory: String, stop: [String]) {
        let script = """
            pid=$1; dir=$2; shift 2
            while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
            "$@" >/dev/null 2>&1
            rm -rf "$dir"
            """
        let setsid = ["/usr/bin/setsid", "/bin/setsid"].first(where: FileManager.default.isExecutableFile)
        let command = (setsid.map { [$0] } ?? []) + ["/bin/sh", "-c", script, "sh", "\(getpid())", directory] + stop
        let watchdog = ChildProcess()
        watchdog.executableURL = URL(fileURLWithPath: command[0])
        watchdog.arguments = Array(command.dropFirst())
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        if (try? watchdog.run()) == nil {
            warn("the PostgreSQL test server's watchdog did not start; \(directory) may be left behind")
        }
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("\n⚠️  WARNING: \(message)\n\n".utf8))
    }
}

/// Why the test server could not start.
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
