import Foundation
import SwiftData
import SwiftDataPostgres

/// `--postgres URL`: workloads 1 to 5 and 9 on a PostgreSQL database, through SwiftData (a `PostgresConfiguration`)
/// and through libpq used well (the package's thin libpq client: prepared statements, binary results, one
/// transaction per write, rows sent in a pipeline), in this process, on tables with the same columns and indexes in
/// two schemas of their own (`bench_swiftdata`, `bench_raw`, replaced at the start). The sides alternate
/// repetitions; only the workload itself is timed.
enum PostgresBenchmark {
    static let workloads: [Workload] = [.insert, .fetchAll, .fetchIndexed, .count, .updateAll, .pages]

    /// Runs the workloads and returns the table of median times and ratios.
    static func run(url: String, rows: Int, repetitions: Int) throws -> String {
        let raw = try RawPostgres(url: url)
        try raw.reset()
        let container = try ModelContainer(
            for: Record.self, configurations: PostgresConfiguration(url: url, postgresSchema: "bench_swiftdata"))
        var lines = [
            "PostgreSQL, \(rows) rows, \(repetitions) repetitions, medians:", "",
            "|  # | workload | SwiftData | raw libpq | ratio |", "|---:|:--|--:|--:|--:|",
        ]
        for workload in workloads {
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<repetitions {
                ours.append(try measure(ourTrial(workload, container: container, rows: rows)))
                theirs.append(try measure(raw.trial(workload, rows: rows)))
            }
            let (a, b) = (Measurement.median(ours), Measurement.median(theirs))
            lines.append(
                "| \(workload.rawValue) | \(workload.title) | \(milliseconds(a)) | \(milliseconds(b)) | "
                    + String(format: "%.2f", a / b) + " |")
        }
        return lines.joined(separator: "\n")
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

    /// Sets up our side of one repetition and returns its timed part.
    private static func ourTrial(_ workload: Workload, container: ModelContainer, rows: Int) throws -> () throws -> Void
    {
        // Emptied as the raw side's table is (TRUNCATE), so that neither side reads dead rows.
        try container.erase()
        if workload != .insert {
            let setup = ModelContext(container)
            for values in SampleData.records(rows) { setup.insert(Record(values)) }
            try setup.save()
        }
        let context = ModelContext(container)
        var digest = 0
        // What the program would have done before: the statements of the workload's query are prepared.
        _ = try ModelContext(container).fetch(FetchDescriptor<Record>(predicate: #Predicate { $0.key < 0 }))
        switch workload {
        case .insert:
            let values = SampleData.records(rows)
            return {
                for value in values { context.insert(Record(value)) }
                try context.save()
            }
        case .fetchAll:
            return {
                for record in try context.fetch(FetchDescriptor<Record>()) { digest &+= RecordValues(record).digest }
            }
        case .fetchIndexed:
            let group = SampleData.selectedGroup
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
            _ = try ModelContext(container).fetchCount(descriptor)
            return { for record in try context.fetch(descriptor) { digest &+= RecordValues(record).digest } }
        case .count:
            let limit = SampleData.amountLimit
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.amount < limit })
            return { digest = try context.fetchCount(descriptor) }
        case .updateAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return {
                for record in records { record.amount += 1 }
                try context.save()
            }
        default:
            return {
                for page in 0..<SampleData.pageCount {
                    var descriptor = FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)])
                    descriptor.fetchOffset = page * SampleData.pageSize
                    descriptor.fetchLimit = SampleData.pageSize
                    for record in try context.fetch(descriptor) { digest = digest &* 31 &+ RecordValues(record).digest }
                }
            }
        }
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
            CREATE INDEX record_key ON record ("key"); CREATE INDEX record_group ON record ("group")
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

    /// Sets up one repetition of a workload and returns its timed part.
    func trial(_ workload: Workload, rows: Int) throws -> () throws -> Void {
        try connection.execute("TRUNCATE record")
        let insert = try connection.prepare(
            "INSERT INTO record (\"_pk\", \(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            parameterTypes: [.int8, .int8, .int8, .int8, .int8, .float8, .float8, .float8, .text, .text, .text])
        let data = SampleData.records(rows).enumerated().map { values($1, key: $0 + 1) }
        if workload != .insert {
            _ = try connection.transaction(isolation: .readCommitted) { try $0.executeBatch(insert, data) }
        }
        let select = "SELECT \"_pk\", \(columns) FROM record"
        var digest = 0
        switch workload {
        case .insert:
            return {
                _ = try self.connection.transaction(isolation: .readCommitted) { try $0.executeBatch(insert, data) }
            }
        case .fetchAll:
            let statement = try connection.prepare(select)
            return {
                for record in try self.records(self.connection.query(statement)) { digest &+= record.values.digest }
            }
        case .fetchIndexed:
            let statement = try connection.prepare(select + " WHERE \"group\" = $1", parameterTypes: [.int8])
            return {
                let result = try self.connection.query(statement, [.int8(Int64(SampleData.selectedGroup))])
                for record in try self.records(result) { digest &+= record.values.digest }
            }
        case .count:
            let statement = try connection.prepare(
                "SELECT count(*) FROM record WHERE \"amount\" < $1", parameterTypes: [.int8])
            return { digest = Int(try self.connection.query(statement, [.int8(5_000)]).int64(0, 0) ?? 0) }
        case .updateAll:
            let all = try records(connection.query(select))
            let update = try connection.prepare(
                "UPDATE record SET \"amount\" = $1 WHERE \"_pk\" = $2", parameterTypes: [.int8, .int8])
            return {
                let changes = all.map { [PostgresValue.int8(Int64($0.values.amount + 1)), .int8(Int64($0.id))] }
                _ = try self.connection.transaction(isolation: .readCommitted) { try $0.executeBatch(update, changes) }
            }
        default:
            let statement = try connection.prepare(
                select + " ORDER BY \"key\", \"_pk\" LIMIT $1 OFFSET $2", parameterTypes: [.int8, .int8])
            return {
                for page in 0..<SampleData.pageCount {
                    let result = try self.connection.query(
                        statement, [.int8(Int64(SampleData.pageSize)), .int8(Int64(page * SampleData.pageSize))])
                    for record in try self.records(result) { digest = digest &* 31 &+ record.values.digest }
                }
            }
        }
    }
}
