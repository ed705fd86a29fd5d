import Foundation
import SwiftData
import SwiftDataPostgres

/// `--postgres URL`: workloads 1 to 9 on a PostgreSQL database, through SwiftData (a `PostgresConfiguration`)
/// and through libpq used well (the package's thin libpq client: prepared statements, binary results, one
/// transaction per write, rows sent in a pipeline), in this process, on tables with the same columns and indexes in
/// two schemas of their own (`bench_swiftdata`, `bench_raw`, replaced at the start). The sides alternate
/// repetitions; only the workload itself is timed.
enum PostgresBenchmark {
    static let workloads: [Workload] = [
        .insert, .fetchAll, .fetchIndexed, .count, .updateAll, .deleteAll, .changeOne, .graph, .pages,
    ]

    /// Runs the workloads and returns the table of median times and ratios.
    static func run(url: String, rows: Int, repetitions: Int) throws -> String {
        let raw = try RawPostgres(url: url)
        try raw.reset()
        let container = try ModelContainer(
            for: Record.self, Parent.self, Child.self,
            configurations: PostgresConfiguration(url: url, postgresSchema: "bench_swiftdata"))
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
        case .deleteAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return {
                for record in records { context.delete(record) }
                try context.save()
            }
        case .changeOne:
            let records = try context.fetch(FetchDescriptor<Record>())
            // One change saved first, so that the timed save is not the first of the context.
            records[0].amount += 1
            try context.save()
            let changed = records[records.count / 2]
            return {
                changed.amount += 1
                try context.save()
            }
        case .graph:
            // What the program would have done before: the statements of the walk are prepared.
            _ = try ModelContext(container).fetch(FetchDescriptor<Parent>()).first?.children.first?.value
            return {
                for parent in try context.fetch(FetchDescriptor<Parent>()) {
                    digest = digest &* 31 &+ parent.rank
                    for child in parent.children { digest = digest &* 31 &+ child.value }
                }
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

    /// Sets up one repetition of a workload and returns its timed part.
    func trial(_ workload: Workload, rows: Int) throws -> () throws -> Void {
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
        case .deleteAll:
            let all = try records(connection.query(select))
            let delete = try connection.prepare("DELETE FROM record WHERE \"_pk\" = $1", parameterTypes: [.int8])
            return {
                let keys = all.map { [PostgresValue.int8(Int64($0.id))] }
                _ = try self.connection.transaction(isolation: .readCommitted) { try $0.executeBatch(delete, keys) }
            }
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
            return {
                all[middle].values.amount += 1
                try save(middle)
            }
        case .graph:
            let parents = try connection.prepare("SELECT \"_pk\", \"name\", \"rank\" FROM parent ORDER BY \"_pk\"")
            let children = try connection.prepare(
                """
                SELECT "_pk", "name", "value", "parent" FROM child WHERE "parent" IS NOT NULL \
                ORDER BY "parent", "position"
                """)
            return {
                for parent in try self.graph(parents: parents, children: children) {
                    digest = digest &* 31 &+ parent.rank
                    for child in parent.children { digest = digest &* 31 &+ child.value }
                }
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
