import Foundation
import SwiftData
import SwiftDataPostgres
import Synchronization

/// `--postgres URL --requests`: the server pattern. T threads at once (`--tasks`, 32 by default) serve requests,
/// 100 each (fewer when the table has fewer than 100 × T rows: each request of a run reads another row, and the
/// timed run reads other rows than the untimed one before it and than the other kind's runs, as a server is asked
/// for ever other keys); a request
/// makes a new context, fetches one record by its unique `key`, changes it and saves (or, in the
/// read-only variant, only reads it). The raw side does the same statements through libpq with a pool of the same
/// size as the store's (`maximumConnections`, 4): a prepared `SELECT` by key, then the `UPDATE` in a transaction.
/// Each side's run goes through `TrialSetup` (once untimed, then timed), the sides alternate repetitions, and their
/// checks (what the requests read, and every row of the table afterwards) must agree.
///
/// With `--replica URL` (streaming standbys of the database), the run is made twice: on the primary alone, then with
/// the store reading from the replicas (`readReplicas`). The raw side then has a pool of the same size per replica,
/// and reads as the store's rule allows what libpq can do: the read-only variant round-robin from the replicas, the
/// change variant from the primary, since it must read its own writes (the store reads from a replica only when it
/// has replayed the store's last save, and otherwise from the primary). Both sides start once the replicas have
/// replayed what was filled.
///
/// With `--pooler URL` (PgBouncer in transaction mode in front of the database), both sides' requests go through it:
/// the store with `transactionPooling: true`, the raw side with unnamed statements (a named one may not outlive its
/// transaction there), the same statements otherwise.
///
/// Reported: the time per request (the run's time over its requests: the inverse of throughput), their ratio, and
/// the median (p50) and 99th-percentile latency of a request. Threads, not Swift tasks: the store blocks in libpq
/// while it waits for the server, and a blocked task would hold one of the few threads Swift's cooperative pool
/// has (one per core).
enum RequestsWorkload {
    /// The requests each thread serves in a run: 100, or fewer so that each request of a run reads another row.
    static func requestsPerThread(_ options: Options) -> Int { max(1, min(100, options.rows / options.tasks)) }
    /// The connections each side uses: the store's default `maximumConnections`.
    static let poolSize = PostgresConfiguration(url: "-").maximumConnections

    /// What a request does.
    enum Kind: String, CaseIterable {
        case change = "fetch 1 by key, change it, save"
        case read = "fetch 1 by key, read only"

        var slug: String { self == .change ? "request-change" : "request-read" }
    }

    /// One kind's results: each side's time per request in each repetition, and every request's latency.
    struct Result {
        let kind: Kind
        /// The replicas that served reads (none: the primary alone).
        let replicas: Int
        /// Whether the requests went through PgBouncer.
        var pooled = false
        var ours = Side()
        var raw = Side()

        struct Side {
            var perRequest: [Double] = []
            var latencies: [Double] = []
            /// With `--statements`: the statements of the timed runs by kind, and the requests they served.
            var statements: [String: Int] = [:]
            var requests = 0

            var median: Double { Self.percentile(perRequest, 0.5) }
            func latency(_ fraction: Double) -> Double { Self.percentile(latencies, fraction) }

            static func percentile(_ values: [Double], _ fraction: Double) -> Double {
                guard !values.isEmpty else { return 0 }
                let sorted = values.sorted()
                return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
            }
        }

        var ratio: Double { raw.median > 0 ? ours.median / raw.median : 0 }

        /// The kind's name, with the replicas it read from.
        var name: String {
            kind.slug + (replicas == 0 ? "" : ", \(replicas) replicas") + (pooled ? ", through PgBouncer" : "")
        }
    }

    /// Runs both kinds on the database at `url` (through `pooler`, when given), then, with `replicas`, both again
    /// reading from them, and returns the table.
    static func run(url: String, replicas: [String], pooler: String? = nil, options: Options) throws -> String {
        if options.instructions { return try RequestInstructions.count(url: url, options: options) }
        guard options.tasks * requestsPerThread(options) <= options.rows else {
            throw ChildError("--requests needs at least as many rows as threads (\(options.tasks))")
        }
        if options.statements { StatementCount.installPostgres() }
        let raw = try RawPostgres(url: url)
        try raw.reset()
        let pool =
            if let pooler {
                PostgresConnectionPool(pooler, size: poolSize, setup: pooledSetup)
            } else {
                PostgresConnectionPool(url, size: poolSize, setup: rawSetup)
            }
        defer { Progress.done() }
        var results: [Result] = []
        for standbys in replicas.isEmpty ? [[]] : [[], replicas] {
            let container = try ModelContainer(
                for: Record.self, Parent.self, Child.self,
                configurations: PostgresConfiguration(
                    url: pooler ?? url, readReplicas: standbys, postgresSchema: "bench_swiftdata",
                    transactionPooling: pooler != nil))
            let readPools = standbys.map { PostgresConnectionPool($0, size: poolSize, setup: rawSetup) }
            for kind in Kind.allCases {
                var result = Result(kind: kind, replicas: standbys.count, pooled: pooler != nil)
                try PostgresBenchmark.fill(container, for: .changeOne, rows: options.rows)
                _ = try raw.plan(.changeOne, rows: options.rows)
                try raw.waitForReplay(on: readPools)
                for repetition in 1...options.repetitions {
                    Progress.show("\(result.name): repetition \(repetition) of \(options.repetitions)")
                    try measure(
                        &result, repetition: repetition, options: options,
                        ours: ourRequest(kind, container: container, rows: options.rows),
                        raw: raw.request(kind, pool: pool, replicas: readPools, rows: options.rows), digest: raw)
                }
                results.append(result)
            }
        }
        return table(results, options: options) + statementsNote(results, options: options)
    }

    /// What every raw connection runs first.
    static func rawSetup(_ connection: PostgresConnection) throws {
        try connection.execute("SET search_path TO bench_raw")
    }

    /// What every raw connection through a pooler runs first: nothing, but its statements are unnamed.
    static func pooledSetup(_ connection: PostgresConnection) throws {
        connection.preparesStatements = false
    }

    /// One repetition of both sides, in an order that alternates with `repetition`, added to `result`; throws when
    /// their checks (what the requests read, and the table afterwards) differ.
    static func measure(
        _ result: inout Result, repetition: Int, options: Options, ours: @escaping @Sendable (Int) throws -> Int,
        raw rawRequest: @escaping @Sendable (Int) throws -> Int, digest raw: RawPostgres
    ) throws {
        let requests = options.tasks * requestsPerThread(options)
        let kind = result.kind
        var checks: [Side: Int] = [:]
        for side in repetition % 2 == 1 ? [Side.swiftData, .raw] : [.raw, .swiftData] {
            let request = side == .swiftData ? ours : rawRequest
            var last: ConcurrentRequests?
            let trial = try TrialSetup.trial(
                .changeOne, rows: options.rows,
                plan: .query {
                    // The second run is the timed one: its requests go through the function callgrind counts.
                    let timed = last != nil
                    let run = ConcurrentRequests(
                        threads: options.tasks, perThread: requestsPerThread(options),
                        first: (timed ? requests : 0) + (kind == .read ? 2 * requests : 0),
                        timed ? RequestInstructions.counted(side, kind, request) : request)
                    last = run
                    return run.run
                })
            StatementCount.start()
            let seconds = try PostgresBenchmark.measure(trial.run)
            if let statements = StatementCount.stop() {
                if side == .swiftData {
                    result.ours.statements.merge(statements, uniquingKeysWith: +)
                    result.ours.requests += requests
                } else {
                    result.raw.statements.merge(statements, uniquingKeysWith: +)
                    result.raw.requests += requests
                }
            }
            let table = side == .swiftData ? #"bench_swiftdata."Record""# : "bench_raw.record"
            checks[side] = try trial.check() &+ raw.tableDigest(table)
            let latencies = last?.latencies ?? []
            if side == .swiftData {
                result.ours.perRequest.append(seconds / Double(requests))
                result.ours.latencies += latencies
            } else {
                result.raw.perRequest.append(seconds / Double(requests))
                result.raw.latencies += latencies
            }
        }
        guard checks[.swiftData] == checks[.raw] else {
            throw ChildError("\(result.name): the sides did different work (checks \(checks))")
        }
    }

    /// Our side's request number `index`: a new context fetches the record with the index's key, and changes and
    /// saves it; returns a digest of what it read.
    static func ourRequest(_ kind: Kind, container: ModelContainer, rows: Int) -> @Sendable (Int) throws -> Int {
        { index in
            let key = requestKey(index, rows: rows)
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.key == key })
            descriptor.fetchLimit = 1
            guard let record = try context.fetch(descriptor).first else {
                throw ChildError("no record has the key \(key)")
            }
            let digest = RecordValues(record).digest
            if kind == .change {
                record.amount += 1
                try context.save()
            }
            return digest
        }
    }

    /// With `--statements`: each side's statements per request, by kind, under the table.
    static func statementsNote(_ results: [Result], options: Options) -> String {
        guard options.statements else { return "" }
        func perRequest(_ side: Result.Side) -> String {
            side.statements.sorted { $0.key < $1.key }.map {
                "\($0.key) \(String(format: "%.2f", Double($0.value) / Double(max(1, side.requests))))"
            }.joined(separator: ", ")
        }
        let lines = results.map { "\($0.name): SwiftData \(perRequest($0.ours)); raw \(perRequest($0.raw))" }
        return "\n\nStatements per request of the timed runs, by kind:\n" + lines.joined(separator: "\n")
    }

    /// The key of request `index`: a different record for each request of a run.
    static func requestKey(_ index: Int, rows: Int) -> Int { index * 7_919 % rows }

    /// The table, under a line that says what ran where.
    static func table(_ results: [Result], options: Options) -> String {
        let header = ["#", "workload", "SwiftData", "raw", "ratio", "goal", "met", "p50", "p99"]
        let lines = results.enumerated().map { number, result -> [String] in
            [
                String(number + 1), result.name, Report.time(result.ours.median), Report.time(result.raw.median),
                String(format: "%.2f", result.ratio), "≤ 1.3", result.ratio <= 1.3 ? "yes" : "no",
                "\(Report.time(result.ours.latency(0.5))) / \(Report.time(result.raw.latency(0.5)))",
                "\(Report.time(result.ours.latency(0.99))) / \(Report.time(result.raw.latency(0.99)))",
            ]
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let replicas = results.map(\.replicas).max() ?? 0
        let pooled = results.contains(where: \.pooled)
        let title =
            "PostgreSQL requests\(replicas == 0 ? "" : ", on the primary alone and with \(replicas) replicas")"
            + "\(pooled ? " through PgBouncer in transaction mode" : ""), "
            + "N = \(Report.grouped(options.rows)) rows, median of \(options.repetitions) "
            + "repetition\(options.repetitions == 1 ? "" : "s"), \(cores) core\(cores == 1 ? "" : "s"), "
            + ISO8601DateFormatter().string(from: Date())
        let note =
            "\(options.tasks) threads at once, \(requestsPerThread(options)) requests each, through \(poolSize) "
            + "connections on each side. SwiftData and raw: time per request (a run's time over its requests); p50 "
            + "and p99: the latency of one request, SwiftData's / raw's."
            + (replicas == 0
                ? ""
                : " With replicas, the raw side reads the read-only requests round-robin from the replicas (a pool "
                    + "of \(poolSize) connections each, as SwiftData's) and the changing ones from the primary, "
                    + "which has its own writes; SwiftData reads from a replica that has replayed its last save, "
                    + "else from the primary.")
            + (pooled
                ? " Both sides' requests go through PgBouncer (pool_mode = transaction): SwiftData's store with "
                    + "transactionPooling: true, the raw side with unnamed statements."
                : "")
        return
            ([title, ""] + Report.markdown(header, lines, leftAligned: [1, 5, 6])
            + ["", Report.wrapped(note)]).joined(separator: "\n")
    }
}

/// One run of requests: `threads` threads at once, each serving `perThread` requests one after another, each
/// timed.
final class ConcurrentRequests: Sendable {
    private let threads: Int
    private let perThread: Int
    /// The number of the run's first request.
    private let first: Int
    private let request: @Sendable (Int) throws -> Int
    private let state = Mutex((latencies: [Double](), digest: 0, failure: String?.none))

    init(threads: Int, perThread: Int, first: Int = 0, _ request: @escaping @Sendable (Int) throws -> Int) {
        self.threads = threads
        self.perThread = perThread
        self.first = first
        self.request = request
    }

    /// Every request's latency in the run, in seconds.
    var latencies: [Double] { state.withLock { $0.latencies } }

    /// Serves every request and returns a digest of what they read; throws the first failure.
    func run() throws -> Int {
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread.detachNewThread { [self] in
                defer { finished.leave() }
                var latencies: [Double] = []
                var digest = 0
                do {
                    for index in first + thread * perThread..<first + (thread + 1) * perThread {
                        let start = ContinuousClock.now
                        digest &+= try request(index)
                        let elapsed = ContinuousClock.now - start
                        latencies.append(
                            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    }
                } catch {
                    state.withLock { $0.failure = $0.failure ?? "\(error)" }
                }
                state.withLock {
                    $0.latencies += latencies
                    $0.digest &+= digest
                }
            }
        }
        finished.wait()
        return try state.withLock {
            if let failure = $0.failure { throw ChildError("a request failed: \(failure)") }
            return $0.digest
        }
    }
}

extension RawPostgres {
    /// The raw side's request number `index`, through `pool`: the prepared `SELECT` by key, then (for a change) the
    /// `UPDATE` of the amount in a transaction, on one connection; returns a digest of what it read. A read-only
    /// request reads from `replicas` in turn when there are some.
    func request(
        _ kind: RequestsWorkload.Kind, pool: PostgresConnectionPool, replicas: [PostgresConnectionPool], rows: Int
    ) -> @Sendable (Int) throws -> Int {
        // The schema is named: behind a pooler no connection keeps a `search_path`.
        let select = "SELECT \"_pk\", \(columns) FROM bench_raw.record WHERE \"key\" = $1 LIMIT 1"
        return { index in
            let key = Int64(RequestsWorkload.requestKey(index, rows: rows))
            let reading = kind == .read && !replicas.isEmpty ? replicas[index % replicas.count] : pool
            return try reading.withConnection { connection in
                let found = try connection.query(connection.cachedStatement(select, [.int8]), [.int8(key)])
                guard var record = try Self.records(found).first else {
                    throw ChildError("no record has the key \(key)")
                }
                let digest = record.values.digest
                if kind == .change {
                    record.values.amount += 1
                    let update = try connection.cachedStatement(
                        "UPDATE bench_raw.record SET \"amount\" = $1 WHERE \"_pk\" = $2", [.int8, .int8])
                    try connection.transaction(isolation: .readCommitted) {
                        try $0.query(update, [.int8(Int64(record.values.amount)), .int8(Int64(record.id))])
                    }
                }
                return digest
            }
        }
    }

    /// Waits until every replica that `pools` reach has replayed what the primary has written so far.
    func waitForReplay(on pools: [PostgresConnectionPool]) throws {
        guard !pools.isEmpty else { return }
        let written = try connection.query("SELECT pg_current_wal_insert_lsn()::text").string(0, 0) ?? "0/0"
        let deadline = ContinuousClock.now + .seconds(120)
        for pool in pools {
            while try pool.withConnection({
                try $0.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", [.text(written)]).bool(0, 0) != true
            }) {
                guard ContinuousClock.now < deadline else {
                    throw ChildError("a replica did not replay the primary's writes in two minutes")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }
}
