import Foundation
import SwiftData
import SwiftDataPostgres
import Synchronization

/// `--postgres URL`: workloads 1 to 9 on a PostgreSQL database, through SwiftData (a `PostgresConfiguration`)
/// and through libpq used well (the package's thin libpq client: prepared statements, binary results, one
/// transaction per write, rows sent in a pipeline), in this process, on tables with the same columns and indexes in
/// two schemas of their own (`bench_swiftdata`, `bench_raw`, replaced at the start). The sides alternate
/// repetitions; only the workload itself is timed (`timedOurs`, `timedRaw`). After every repetition both sides'
/// checks must agree: a digest of the values a fetch read, or of the rows a write left in its table.
///
/// With `--instructions`, each side of each workload runs once in a child process under valgrind's callgrind,
/// which counts the instructions of this process inside `timedOurs` or `timedRaw` only: the client's work, not
/// the server's.
enum PostgresBenchmark {
    static let workloads: [Workload] = [
        .insert, .fetchAll, .fetchIndexed, .count, .updateAll, .deleteAll, .changeOne, .graph, .pages,
    ]

    /// Runs the workloads `options` selects and returns both sides' median times (or instructions).
    static func run(url: String, options: Options) throws -> [WorkloadResult] {
        let selected = workloads.filter { options.workloads.contains($0) }
        guard !selected.isEmpty else { throw ChildError("--postgres runs workloads 1 to 9 only") }
        if options.instructions {
            return try countInstructions(
                url: url, workloads: selected, rows: options.rows, withoutHistory: options.withoutHistory)
        }
        let (rows, repetitions) = (options.rows, options.repetitions)
        if options.statements { StatementCount.installPostgres() }
        let raw = try RawPostgres(url: url)
        try raw.reset()
        let container = try ModelContainer(
            for: Record.self, Parent.self, Child.self,
            configurations: PostgresConfiguration(url: url, postgresSchema: "bench_swiftdata"))
        defer { Progress.done() }
        // The clock's first reading resolves its symbols (about 4,500 instructions): done here, not in the timed part
        // of the side that happens to go first.
        _ = try measure {}
        return try selected.map { workload in
            var ours = Measurement.empty
            var theirs = Measurement.empty
            for repetition in 1...repetitions {
                Progress.show("[\(workload.rawValue)] \(workload.slug): repetition \(repetition) of \(repetitions)")
                // Each side's tables are filled again before its repetition; which side goes first alternates.
                var checks: [Side: Int] = [:]
                for side in repetition % 2 == 1 ? [Side.swiftData, .raw] : [.raw, .swiftData] {
                    let trial =
                        side == .swiftData
                        ? try TrialSetup.trial(
                            workload, rows: rows, plan: ourPlan(workload, container: container, raw: raw, rows: rows))
                        : try TrialSetup.trial(workload, rows: rows, plan: raw.plan(workload, rows: rows))
                    ChildProcess.settleHeap()
                    StatementCount.start()
                    let seconds = try side == .swiftData ? timedOurs(trial.run) : timedRaw(trial.run)
                    let statements = StatementCount.stop()
                    checks[side] = try trial.check()
                    var measurement = Measurement(
                        seconds: [seconds], cpuSeconds: [], peakKilobytes: 0, check: checks[side] ?? 0, latencies: [])
                    measurement.statements = statements
                    try side == .swiftData ? ours.add(measurement) : theirs.add(measurement)
                }
                guard checks[.swiftData] == checks[.raw] else {
                    throw ChildError("\(workload.slug): the sides did different work (checks \(checks))")
                }
            }
            return WorkloadResult(workload: workload, ours: ours, raw: theirs)
        }
    }

    /// The trials each side ran: counting them also keeps the compiler from merging `timedOurs` and `timedRaw`,
    /// whose code would otherwise be the same, into one function that callgrind could not tell apart.
    private static let ourTrials = Atomic<Int>(0)
    private static let rawTrials = Atomic<Int>(0)

    /// The timed part of our side's trial: what `--instructions` counts for SwiftData.
    @inline(never)
    static func timedOurs(_ trial: () throws -> Void) throws -> Double {
        ourTrials.add(1, ordering: .relaxed)
        return try measure(trial)
    }

    /// The timed part of the raw side's trial: what `--instructions` counts for libpq.
    @inline(never)
    static func timedRaw(_ trial: () throws -> Void) throws -> Double {
        rawTrials.add(1, ordering: .relaxed)
        return try measure(trial)
    }

    /// `--instructions`: each side of each workload once, in a child process of this program under callgrind
    /// counting only that side's timed function (the child runs both sides, and checks them, as without it), with
    /// history off in the child too when `withoutHistory`.
    private static func countInstructions(url: String, workloads: [Workload], rows: Int, withoutHistory: Bool)
        throws -> [WorkloadResult]
    {
        defer { Progress.done() }
        return try Callgrind.counting("openswiftdata-pg-instructions") { directory, program in
            try workloads.map { workload in
                var counts: [Int] = []
                for function in ["timedOurs", "timedRaw"] {
                    Progress.show("[\(workload.rawValue)] \(workload.slug): \(function) under callgrind")
                    let arguments =
                        [
                            "--postgres", url, "--rows", String(rows), "--repetitions", "1", "--filter", workload.slug,
                        ] + (withoutHistory ? ["--no-history"] : [])
                    counts.append(
                        try Callgrind.count(
                            program, arguments, function: "*PostgresBenchmark*\(function)*", in: directory,
                            name: "\(workload.slug)-\(function)"))
                }
                func measurement(_ count: Int) -> Measurement {
                    var measurement = Measurement.empty
                    measurement.instructions = [count]
                    return measurement
                }
                return WorkloadResult(workload: workload, ours: measurement(counts[0]), raw: measurement(counts[1]))
            }
        }
    }

    /// The seconds `trial`'s run takes.
    static func measure(_ trial: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try trial()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Fills our side's tables for one repetition and returns its plan; the check of a write is the digest of the
    /// rows it left, read by the raw side's connection, as the raw side's own.
    private static func ourPlan(_ workload: Workload, container: ModelContainer, raw: RawPostgres, rows: Int) throws
        -> Plan
    {
        try fill(container, for: workload, rows: rows)
        return try SwiftDataWorkloads.plan(
            workload, rows: rows, container: container, stored: { try raw.tableDigest(#"bench_swiftdata."Record""#) })
    }

    /// Empties our side's tables and fills them with what `workload` starts from.
    static func fill(_ container: ModelContainer, for workload: Workload, rows: Int) throws {
        // Emptied as the raw side's table is (TRUNCATE), so that neither side reads dead rows.
        try container.erase()
        let setup = ModelContext(container)
        if workload == .graph {
            for index in 0..<SampleData.parentCount(rows: rows) {
                let parent = Parent(name: SampleData.parentName(index), rank: index)
                setup.insert(parent)
                let first = index * SampleData.childrenPerParent
                parent.children = (first..<first + SampleData.childrenPerParent).map {
                    Child(name: SampleData.childName($0), value: $0)
                }
            }
        } else if workload != .insert {
            for values in SampleData.records(rows) { setup.insert(Record(values)) }
        }
        try setup.save()
    }
}

/// The raw side: libpq through the package's connection type, which adds nothing but parameter encoding and result
/// decoding to libpq's calls.
final class RawPostgres {
    let connection: PostgresConnection
    let columns = #""key", "group", "amount", "rank", "price", "weight", "ratio", "name", "city", "note""#

    init(url: String) throws {
        connection = try PostgresConnection(url)
    }

    /// Creates the raw side's schema and table, with the indexes SwiftData's side has, and drops SwiftData's side's
    /// schema, which the store creates again.
    func reset() throws {
        try connection.execute(
            """
            SET client_min_messages TO warning; DROP SCHEMA IF EXISTS bench_swiftdata CASCADE;
            DROP SCHEMA IF EXISTS bench_raw CASCADE; CREATE SCHEMA bench_raw;
            SET search_path TO bench_raw;
            CREATE TABLE record ("_pk" bigint PRIMARY KEY, "key" bigint NOT NULL, "group" bigint NOT NULL,
                "amount" bigint NOT NULL, "rank" bigint NOT NULL, "price" double precision, "weight" double precision,
                "ratio" double precision, "name" text NOT NULL, "city" text NOT NULL, "note" text NOT NULL);
            CREATE INDEX record_key ON record ("key"); CREATE INDEX record_group ON record ("group");
            CREATE TABLE parent ("_pk" bigint PRIMARY KEY, "name" text NOT NULL, "rank" bigint NOT NULL);
            CREATE TABLE child ("_pk" bigint PRIMARY KEY, "name" text NOT NULL, "value" bigint NOT NULL,
                "parent" bigint REFERENCES parent ("_pk"), "position" bigint);
            CREATE INDEX child_parent ON child ("parent", "position")
            """)
    }

    private func values(_ values: RecordValues, key: Int) -> [PostgresValue] {
        [
            .int8(Int64(key)), .int8(Int64(values.key)), .int8(Int64(values.group)), .int8(Int64(values.amount)),
            .int8(Int64(values.rank)), .float8(values.price), .float8(values.weight), .float8(values.ratio),
            .text(values.name), .text(values.city), .text(values.note),
        ]
    }

    /// Reads records into structs, as a careful program decodes rows.
    static func records(_ result: PostgresResult) throws -> [RawRecord] {
        try (0..<result.rowCount).map { row in
            RawRecord(
                id: Int(try result.int64(row, 0) ?? 0),
                values: RecordValues(
                    key: Int(try result.int64(row, 1) ?? 0), group: Int(try result.int64(row, 2) ?? 0),
                    amount: Int(try result.int64(row, 3) ?? 0), rank: Int(try result.int64(row, 4) ?? 0),
                    price: try result.double(row, 5) ?? 0, weight: try result.double(row, 6) ?? 0,
                    ratio: try result.double(row, 7) ?? 0, name: try result.string(row, 8) ?? "",
                    city: try result.string(row, 9) ?? "", note: try result.string(row, 10) ?? ""))
        }
    }

    /// A digest of a record table's rows, in any order, over every column of each (its text, which for a
    /// `double precision` is exact): what a write left, compared between the sides.
    func tableDigest(_ table: String) throws -> Int {
        let result = try connection.query(
            """
            SELECT count(*)::bigint, coalesce(sum(hashtext(concat_ws(chr(31), "key", "group", "amount", "rank",
                "price", "weight", "ratio", "name", "city", "note"))::bigint), 0)::bigint FROM \(table)
            """)
        var digest = 0
        for column in 0..<2 { digest = digest &* 31 &+ Int(try result.int64(0, column) ?? 0) }
        return digest
    }

    /// Fills the raw side's tables for one repetition of a workload and returns its plan (see `ourPlan`).
    func plan(_ workload: Workload, rows: Int) throws -> Plan {
        try connection.execute("TRUNCATE record, child, parent")
        let insert = try connection.prepare(
            "INSERT INTO record (\"_pk\", \(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            parameterTypes: [.int8, .int8, .int8, .int8, .int8, .float8, .float8, .float8, .text, .text, .text])
        if workload == .graph {
            try insertGraph(rows: rows)
        } else if workload != .insert {
            let data = SampleData.records(rows).enumerated().map { values($1, key: $0 + 1) }
            _ = try connection.transaction(isolation: .readCommitted) { try $0.executeBatch(insert, data) }
        }
        let select = "SELECT \"_pk\", \(columns) FROM record"
        let stored = { try self.tableDigest("bench_raw.record") }
        func query(_ statement: PostgresStatement, _ parameters: [PostgresValue] = []) -> Plan {
            .query {
                { try Self.records(self.connection.query(statement, parameters)).reduce(0) { $0 &+ $1.values.digest } }
            }
        }
        switch workload {
        case .insert:
            let data = TrialSetup.insertedRecords(rows: rows).enumerated().map { values($1, key: $0 + 1) }
            return .write(
                { range in
                    _ = try self.connection.transaction(isolation: .readCommitted) {
                        try $0.executeBatch(insert, Array(data[range]))
                    }
                }, stored: stored)
        case .fetchAll:
            return query(try connection.prepare(select))
        case .fetchIndexed:
            let statement = try connection.prepare(select + " WHERE \"group\" = $1", parameterTypes: [.int8])
            return query(statement, [.int8(Int64(SampleData.selectedGroup))])
        case .count:
            let statement = try connection.prepare(
                "SELECT count(*) FROM record WHERE \"amount\" < $1", parameterTypes: [.int8])
            let limit = Int64(SampleData.amountLimit)
            return .query { { Int(try self.connection.query(statement, [.int8(limit)]).int64(0, 0) ?? 0) } }
        case .updateAll, .changeOne:
            var all = try Self.records(connection.query(select))
            let update = try connection.prepare(
                "UPDATE record SET \"amount\" = $1 WHERE \"_pk\" = $2", parameterTypes: [.int8, .int8])
            return .write(
                { range in
                    let changes = range.map { index in
                        all[index].values.amount += 1
                        return [PostgresValue.int8(Int64(all[index].values.amount)), .int8(Int64(all[index].id))]
                    }
                    _ = try self.connection.transaction(isolation: .readCommitted) {
                        try $0.executeBatch(update, changes)
                    }
                }, stored: stored)
        case .deleteAll:
            let all = try Self.records(connection.query(select))
            // As the store deletes: up to 10,000 keys per statement, as one binary `bigint[]` parameter each.
            let delete = try connection.prepare(
                "DELETE FROM record WHERE \"_pk\" = ANY($1)", parameterTypes: [.int8Array])
            return .write(
                { range in
                    let keys = all[range].map { Int64($0.id) }
                    let chunks = stride(from: 0, to: keys.count, by: 10_000).map { start in
                        [PostgresValue.int8Array(Array(keys[start..<min(start + 10_000, keys.count)]))]
                    }
                    _ = try self.connection.transaction(isolation: .readCommitted) {
                        try $0.executeBatch(delete, chunks)
                    }
                }, stored: stored)
        case .graph:
            let parents = try connection.prepare("SELECT \"_pk\", \"name\", \"rank\" FROM parent ORDER BY \"_pk\"")
            let children = try connection.prepare(
                """
                SELECT "_pk", "name", "value", "parent" FROM child WHERE "parent" IS NOT NULL \
                ORDER BY "parent", "position"
                """)
            return .query {
                {
                    try self.graph(parents: parents, children: children).reduce(0) { digest, parent in
                        digest
                            &+ GraphDigest.parent(
                                rank: parent.rank, name: parent.name,
                                children: parent.children.lazy.map { ($0.name, $0.value) })
                    }
                }
            }
        default:
            let statement = try connection.prepare(
                select + " ORDER BY \"key\", \"_pk\" LIMIT $1 OFFSET $2", parameterTypes: [.int8, .int8])
            return .query {
                {
                    var digest = 0
                    for page in 0..<SampleData.pageCount {
                        let result = try self.connection.query(
                            statement, [.int8(Int64(SampleData.pageSize)), .int8(Int64(page * SampleData.pageSize))])
                        for record in try Self.records(result) { digest = digest &* 31 &+ record.values.digest }
                    }
                    return digest
                }
            }
        }
    }

    /// Inserts workload 8's parents and their children, in order, in one transaction.
    private func insertGraph(rows: Int) throws {
        let parent = try connection.prepare(
            "INSERT INTO parent (\"_pk\", \"name\", \"rank\") VALUES ($1, $2, $3)",
            parameterTypes: [.int8, .text, .int8])
        let child = try connection.prepare(
            "INSERT INTO child (\"_pk\", \"name\", \"value\", \"parent\", \"position\") VALUES ($1, $2, $3, $4, $5)",
            parameterTypes: [.int8, .text, .int8, .int8, .int8])
        let count = SampleData.parentCount(rows: rows)
        let parents = (0..<count).map {
            [PostgresValue.int8(Int64($0 + 1)), .text(SampleData.parentName($0)), .int8(Int64($0))]
        }
        let children = (0..<count).flatMap { index in
            (0..<SampleData.childrenPerParent).map { position -> [PostgresValue] in
                let value = index * SampleData.childrenPerParent + position
                return [
                    .int8(Int64(value + 1)), .text(SampleData.childName(value)), .int8(Int64(value)),
                    .int8(Int64(index + 1)), .int8(Int64(position)),
                ]
            }
        }
        _ = try connection.transaction(isolation: .readCommitted) { connection in
            try connection.executeBatch(parent, parents)
            try connection.executeBatch(child, children)
        }
    }

    /// Every parent with its children in order: two queries, rows decoded into structs.
    private func graph(parents: PostgresStatement, children: PostgresStatement) throws -> [RawParent] {
        let parentRows = try connection.query(parents)
        var graph: [RawParent] = []
        var indexes: [Int: Int] = [:]
        for row in 0..<parentRows.rowCount {
            let id = Int(try parentRows.int64(row, 0) ?? 0)
            indexes[id] = graph.count
            graph.append(
                RawParent(
                    id: id, name: try parentRows.string(row, 1) ?? "", rank: Int(try parentRows.int64(row, 2) ?? 0)))
        }
        let childRows = try connection.query(children)
        for row in 0..<childRows.rowCount {
            guard let index = indexes[Int(try childRows.int64(row, 3) ?? 0)] else { continue }
            graph[index].children.append(
                RawChild(
                    id: Int(try childRows.int64(row, 0) ?? 0), name: try childRows.string(row, 1) ?? "",
                    value: Int(try childRows.int64(row, 2) ?? 0)))
        }
        return graph
    }
}
