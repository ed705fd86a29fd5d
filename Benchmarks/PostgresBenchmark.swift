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

    /// Runs the workloads `options` selects and returns the table of median times (or instructions) and ratios.
    static func run(url: String, options: Options) throws -> String {
        let selected = workloads.filter { options.workloads.contains($0) }
        guard !selected.isEmpty else { throw ChildError("--postgres runs workloads 1 to 9 only") }
        if options.instructions {
            return try countInstructions(
                url: url, workloads: selected, rows: options.rows, withoutHistory: options.withoutHistory)
        }
        let (rows, repetitions) = (options.rows, options.repetitions)
        let raw = try RawPostgres(url: url)
        try raw.reset()
        let container = try ModelContainer(
            for: Record.self, Parent.self, Child.self,
            configurations: PostgresConfiguration(url: url, postgresSchema: "bench_swiftdata"))
        var lines = [
            "PostgreSQL, \(rows) rows, \(repetitions) repetitions, medians:", "",
            "|  # | workload | SwiftData | raw libpq | ratio |", "|---:|:--|--:|--:|--:|",
        ]
        for workload in selected {
            var ours: [Double] = []
            var theirs: [Double] = []
            for repetition in 0..<repetitions {
                Progress.show("[\(workload.rawValue)] \(workload.slug): repetition \(repetition + 1) of \(repetitions)")
                let ourTrial = try ourTrial(workload, container: container, raw: raw, rows: rows)
                ChildProcess.settleHeap()
                ours.append(try timedOurs(ourTrial.run))
                let rawTrial = try raw.trial(workload, rows: rows)
                ChildProcess.settleHeap()
                theirs.append(try timedRaw(rawTrial.run))
                let (ourCheck, rawCheck) = (try ourTrial.check(), try rawTrial.check())
                guard ourCheck == rawCheck else {
                    throw ChildError(
                        "\(workload.slug): the sides did different work (checks \(ourCheck) and \(rawCheck))")
                }
            }
            let (a, b) = (Measurement.median(ours), Measurement.median(theirs))
            lines.append(
                "| \(workload.rawValue) | \(workload.title) | \(milliseconds(a)) | \(milliseconds(b)) | "
                    + String(format: "%.2f", a / b) + " |")
        }
        Progress.done()
        return lines.joined(separator: "\n")
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
        throws -> String
    {
        let valgrind = try Callgrind.valgrind()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("openswiftdata-pg-instructions-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        defer { Progress.done() }
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var lines = [
            "PostgreSQL, \(rows) rows, instructions of this process in the timed part (not the server's):", "",
            "|  # | workload | SwiftData | raw libpq | ratio |", "|---:|:--|--:|--:|--:|",
        ]
        for workload in workloads {
            var counts: [Int] = []
            for function in ["timedOurs", "timedRaw"] {
                Progress.show("[\(workload.rawValue)] \(workload.slug): \(function) under callgrind")
                let output = directory.appendingPathComponent("\(workload.slug)-\(function).out")
                let errors = directory.appendingPathComponent("\(workload.slug)-\(function).err")
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                let process = Process()
                process.executableURL = valgrind
                process.arguments =
                    [
                        "--tool=callgrind", "--quiet", "--collect-atstart=no",
                        "--toggle-collect=*PostgresBenchmark*\(function)*", "--callgrind-out-file=\(output.path)",
                        program.path, "--postgres", url, "--rows", String(rows), "--repetitions", "1", "--filter",
                        workload.slug,
                    ] + (withoutHistory ? ["--no-history"] : [])
                process.standardOutput = FileHandle.nullDevice
                process.standardError = try FileHandle(forWritingTo: errors)
                try process.run()
                let end = process.waitForEnd()
                guard end.status == 0, end.exited else {
                    let messages = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                    throw ChildError("\(workload.slug) under callgrind failed:\n\(messages)")
                }
                counts.append(try Callgrind.instructions(inOutput: String(contentsOf: output, encoding: .utf8)))
            }
            lines.append(
                "| \(workload.rawValue) | \(workload.title) | \(instructions(counts[0])) | \(instructions(counts[1])) | "
                    + String(format: "%.2f", Double(counts[0]) / Double(max(counts[1], 1))) + " |")
        }
        return lines.joined(separator: "\n")
    }

    private static func instructions(_ count: Int) -> String {
        count >= 1_000_000 ? String(format: "%.1fM", Double(count) / 1e6) : String(format: "%.0fK", Double(count) / 1e3)
    }

    private static func milliseconds(_ seconds: Double) -> String {
        seconds >= 0.1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f ms", seconds * 1000)
    }

    /// The seconds `trial`'s run takes.
    private static func measure(_ trial: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try trial()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Sets up our side of one repetition and returns its timed part, with its check: the digest of what a fetch
    /// read, or of the rows a write left (read by the raw side's connection, as the raw side's own).
    private static func ourTrial(_ workload: Workload, container: ModelContainer, raw: RawPostgres, rows: Int) throws
        -> Trial
    {
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
        let context = ModelContext(container)
        var digest = 0
        let read = Trial(run: {}, check: { digest })
        let stored = { try raw.tableDigest(#"bench_swiftdata."Record""#) }
        // What the program would have done before: the statements of the workload's query are prepared.
        _ = try ModelContext(container).fetch(FetchDescriptor<Record>(predicate: #Predicate { $0.key < 0 }))
        switch workload {
        case .insert:
            let values = SampleData.records(rows)
            return Trial(
                run: {
                    for value in values { context.insert(Record(value)) }
                    try context.save()
                }, check: stored)
        case .fetchAll:
            return Trial(
                run: {
                    for record in try context.fetch(FetchDescriptor<Record>()) {
                        digest &+= RecordValues(record).digest
                    }
                },
                check: read.check)
        case .fetchIndexed:
            let group = SampleData.selectedGroup
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
            // Run once before, as the raw side prepares its statement before the timed part: both measure a
            // query the program runs again.
            _ = try ModelContext(container).fetch(descriptor)
            return Trial(
                run: { for record in try context.fetch(descriptor) { digest &+= RecordValues(record).digest } },
                check: read.check)
        case .count:
            let limit = SampleData.amountLimit
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.amount < limit })
            _ = try ModelContext(container).fetchCount(descriptor)
            return Trial(run: { digest = try context.fetchCount(descriptor) }, check: read.check)
        case .updateAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return Trial(
                run: {
                    for record in records { record.amount += 1 }
                    try context.save()
                }, check: stored)
        case .deleteAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return Trial(
                run: {
                    for record in records { context.delete(record) }
                    try context.save()
                }, check: stored)
        case .changeOne:
            let records = try context.fetch(FetchDescriptor<Record>())
            // One change saved first, so that the timed save is not the first of the context.
            records[0].amount += 1
            try context.save()
            let changed = records[records.count / 2]
            return Trial(
                run: {
                    changed.amount += 1
                    try context.save()
                }, check: stored)
        case .graph:
            // What the program would have done before: the statements of the walk are prepared.
            _ = try ModelContext(container).fetch(FetchDescriptor<Parent>()).first?.children.first?.value
            return Trial(
                run: {
                    for parent in try context.fetch(FetchDescriptor<Parent>()) {
                        digest &+= GraphDigest.parent(rank: parent.rank, children: parent.children.lazy.map(\.value))
                    }
                }, check: read.check)
        default:
            func page(_ page: Int) -> FetchDescriptor<Record> {
                var descriptor = FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)])
                descriptor.fetchOffset = page * SampleData.pageSize
                descriptor.fetchLimit = SampleData.pageSize
                return descriptor
            }
            // One page before, as the raw side prepares its statement before the timed part.
            _ = try ModelContext(container).fetch(page(0))
            return Trial(
                run: {
                    for page in (0..<SampleData.pageCount).lazy.map(page) {
                        for record in try context.fetch(page) { digest = digest &* 31 &+ RecordValues(record).digest }
                    }
                }, check: read.check)
        }
    }
}

/// Workload 8's digest: each parent's rank and its children's values in order, summed over parents in any order
/// (our side fetches the parents unsorted).
enum GraphDigest {
    static func parent(rank: Int, children: some Sequence<Int>) -> Int {
        var digest = rank
        for value in children { digest = digest &* 31 &+ value }
        return digest
    }
}

/// The raw side: libpq through the package's connection type, which adds nothing but parameter encoding and result
/// decoding to libpq's calls.
final class RawPostgres {
    let connection: PostgresConnection
    private let columns = #""key", "group", "amount", "rank", "price", "weight", "ratio", "name", "city", "note""#

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
    private func records(_ result: PostgresResult) throws -> [RawRecord] {
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

    /// A digest of a record table's rows, in any order: what a write left, compared between the sides.
    func tableDigest(_ table: String) throws -> Int {
        let result = try connection.query(
            """
            SELECT count(*)::bigint, coalesce(sum("key" * 31 + "amount"), 0)::bigint,
                coalesce(sum(hashtext("name" || "city" || "note")::bigint), 0)::bigint FROM \(table)
            """)
        var digest = 0
        for column in 0..<3 { digest = digest &* 31 &+ Int(try result.int64(0, column) ?? 0) }
        return digest
    }

    /// Sets up one repetition of a workload and returns its timed part, with its check (see `ourTrial`).
    func trial(_ workload: Workload, rows: Int) throws -> Trial {
        try connection.execute("TRUNCATE record, child, parent")
        let insert = try connection.prepare(
            "INSERT INTO record (\"_pk\", \(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            parameterTypes: [.int8, .int8, .int8, .int8, .int8, .float8, .float8, .float8, .text, .text, .text])
        let data = SampleData.records(rows).enumerated().map { values($1, key: $0 + 1) }
        if workload == .graph {
            try insertGraph(rows: rows)
        } else if workload != .insert {
            _ = try connection.transaction(isolation: .readCommitted) { try $0.executeBatch(insert, data) }
        }
        let select = "SELECT \"_pk\", \(columns) FROM record"
        var digest = 0
        let read = { digest }
        let stored = { try self.tableDigest("bench_raw.record") }
        switch workload {
        case .insert:
            return Trial(
                run: {
                    _ = try self.connection.transaction(isolation: .readCommitted) { try $0.executeBatch(insert, data) }
                }, check: stored)
        case .fetchAll:
            let statement = try connection.prepare(select)
            return Trial(
                run: {
                    for record in try self.records(self.connection.query(statement)) { digest &+= record.values.digest }
                }, check: read)
        case .fetchIndexed:
            let statement = try connection.prepare(select + " WHERE \"group\" = $1", parameterTypes: [.int8])
            return Trial(
                run: {
                    let result = try self.connection.query(statement, [.int8(Int64(SampleData.selectedGroup))])
                    for record in try self.records(result) { digest &+= record.values.digest }
                }, check: read)
        case .count:
            let statement = try connection.prepare(
                "SELECT count(*) FROM record WHERE \"amount\" < $1", parameterTypes: [.int8])
            let limit = Int64(SampleData.amountLimit)
            return Trial(
                run: { digest = Int(try self.connection.query(statement, [.int8(limit)]).int64(0, 0) ?? 0) },
                check: read)
        case .updateAll:
            let all = try records(connection.query(select))
            let update = try connection.prepare(
                "UPDATE record SET \"amount\" = $1 WHERE \"_pk\" = $2", parameterTypes: [.int8, .int8])
            return Trial(
                run: {
                    let changes = all.map { [PostgresValue.int8(Int64($0.values.amount + 1)), .int8(Int64($0.id))] }
                    _ = try self.connection.transaction(isolation: .readCommitted) {
                        try $0.executeBatch(update, changes)
                    }
                }, check: stored)
        case .deleteAll:
            let all = try records(connection.query(select))
            // As the store deletes: up to 10,000 keys per statement, as one binary `bigint[]` parameter each.
            let delete = try connection.prepare(
                "DELETE FROM record WHERE \"_pk\" = ANY($1)", parameterTypes: [.int8Array])
            return Trial(
                run: {
                    let keys = all.map { Int64($0.id) }
                    let chunks = stride(from: 0, to: keys.count, by: 10_000).map { start in
                        [PostgresValue.int8Array(Array(keys[start..<min(start + 10_000, keys.count)]))]
                    }
                    _ = try self.connection.transaction(isolation: .readCommitted) {
                        try $0.executeBatch(delete, chunks)
                    }
                }, check: stored)
        case .changeOne:
            var all = try records(connection.query(select))
            let update = try connection.prepare(
                "UPDATE record SET \"amount\" = $1 WHERE \"_pk\" = $2", parameterTypes: [.int8, .int8])
            func save(_ index: Int) throws {
                let change = [[PostgresValue.int8(Int64(all[index].values.amount)), .int8(Int64(all[index].id))]]
                _ = try connection.transaction(isolation: .readCommitted) { try $0.executeBatch(update, change) }
            }
            // One change saved first, as on our side.
            all[0].values.amount += 1
            try save(0)
            let middle = all.count / 2
            return Trial(
                run: {
                    all[middle].values.amount += 1
                    try save(middle)
                }, check: stored)
        case .graph:
            let parents = try connection.prepare("SELECT \"_pk\", \"name\", \"rank\" FROM parent ORDER BY \"_pk\"")
            let children = try connection.prepare(
                """
                SELECT "_pk", "name", "value", "parent" FROM child WHERE "parent" IS NOT NULL \
                ORDER BY "parent", "position"
                """)
            return Trial(
                run: {
                    for parent in try self.graph(parents: parents, children: children) {
                        digest &+= GraphDigest.parent(rank: parent.rank, children: parent.children.lazy.map(\.value))
                    }
                }, check: read)
        default:
            let statement = try connection.prepare(
                select + " ORDER BY \"key\", \"_pk\" LIMIT $1 OFFSET $2", parameterTypes: [.int8, .int8])
            return Trial(
                run: {
                    for page in 0..<SampleData.pageCount {
                        let result = try self.connection.query(
                            statement, [.int8(Int64(SampleData.pageSize)), .int8(Int64(page * SampleData.pageSize))])
                        for record in try self.records(result) { digest = digest &* 31 &+ record.values.digest }
                    }
                }, check: read)
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
