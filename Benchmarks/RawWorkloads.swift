import Foundation

/// A record as the raw side holds it in memory: its row id and its values.
struct RawRecord {
    var id: Int
    var values: RecordValues
}

/// A parent of workload 8 as the raw side holds it, with its children in order.
struct RawParent {
    var id: Int
    var name: String
    var rank: Int
    var children: [RawChild] = []
}

struct RawChild {
    var id: Int
    var name: String
    var value: Int
}

/// The raw side: each workload done well with the SQLite C API: one transaction per write, prepared statements,
/// rows decoded into plain structs. Its tables have the same columns and indexes as our side's.
enum RawWorkloads {
    static let schema = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE record (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, "group" INTEGER NOT NULL,
            amount INTEGER NOT NULL, rank INTEGER NOT NULL, price REAL NOT NULL, weight REAL NOT NULL,
            ratio REAL NOT NULL, name TEXT NOT NULL, city TEXT NOT NULL, note TEXT NOT NULL);
        CREATE INDEX record_key ON record (key);
        CREATE INDEX record_group ON record ("group");
        CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER NOT NULL);
        CREATE TABLE child (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL,
            parent INTEGER REFERENCES parent (id), position INTEGER);
        CREATE INDEX child_parent ON child (parent, position);
        CREATE TABLE asset (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, name TEXT NOT NULL, price REAL NOT NULL,
            ticker TEXT, shares INTEGER, coupon REAL, maturity INTEGER, entity TEXT NOT NULL);
        """
    /// The columns of a record after its id, in `RecordValues` order.
    static let columns = #"key, "group", amount, rank, price, weight, ratio, name, city, note"#

    /// Fills a new database at `url` with a template's data.
    static func makeTemplate(_ template: Template, rows: Int, at url: URL) throws {
        let database = try RawDatabase(path: url.path)
        try database.execute(schema)
        switch template {
        case .records, .manyRecords:
            let values = SampleData.records(template.recordCount(rows: rows))
            try database.transaction { try insert(values[...], with: database.prepare(insertSQL)) }
        case .graph:
            try database.transaction {
                let parent = try database.prepare("INSERT INTO parent (id, name, rank) VALUES (?, ?, ?)")
                let child = try database.prepare(
                    "INSERT INTO child (name, value, parent, position) VALUES (?, ?, ?, ?)")
                for index in 0..<SampleData.parentCount(rows: rows) {
                    try parent.bind(index + 1, at: 1)
                    try parent.bind(SampleData.parentName(index), at: 2)
                    try parent.bind(index, at: 3)
                    try parent.run()
                    for position in 0..<SampleData.childrenPerParent {
                        let value = index * SampleData.childrenPerParent + position
                        try child.bind(SampleData.childName(value), at: 1)
                        try child.bind(value, at: 2)
                        try child.bind(index + 1, at: 3)
                        try child.bind(position, at: 4)
                        try child.run()
                    }
                }
            }
        case .hierarchy:
            try database.transaction {
                let insert = try database.prepare(
                    "INSERT INTO asset (key, name, price, ticker, shares, coupon, maturity, entity) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                for values in AssetValues.all(rows) {
                    try insert.bind(values.key, at: 1)
                    try insert.bind(values.name, at: 2)
                    try insert.bind(values.price, at: 3)
                    if let ticker = values.ticker { try insert.bind(ticker, at: 4) }
                    if let shares = values.shares { try insert.bind(shares, at: 5) }
                    if let coupon = values.coupon { try insert.bind(coupon, at: 6) }
                    if let maturity = values.maturity { try insert.bind(maturity, at: 7) }
                    try insert.bind(["Asset", "Stock", "Bond"][values.kind], at: 8)
                    try insert.run()
                    insert.clearBindings()
                }
            }
        }
    }

    /// What the raw side does for one repetition of `workload` on the database at `url` (a copy of its template,
    /// or no file); `TrialSetup` decides what runs before the timed part.
    static func plan(_ workload: Workload, rows: Int, store url: URL) throws -> Plan {
        let database = try RawDatabase(path: url.path)
        // As the store sets it: each commit syncs the write-ahead log.
        try database.execute("PRAGMA synchronous = FULL")
        if workload.template == nil { try database.execute(schema) }
        let stored = { try storedDigest(database) }

        switch workload {
        case .insert:
            let values = TrialSetup.insertedRecords(rows: rows)
            let insert = try database.prepare(insertSQL)
            return .write(
                { range in try database.transaction { try self.insert(values[range], with: insert) } }, stored: stored)

        case .updateAll, .changeOne:
            var records = try records(database.prepare(selectAll))
            let update = try database.prepare("UPDATE record SET amount = ? WHERE id = ?")
            return .write(
                { range in
                    try database.transaction {
                        for index in range {
                            records[index].values.amount += 1
                            try update.bind(records[index].values.amount, at: 1)
                            try update.bind(records[index].id, at: 2)
                            try update.run()
                        }
                    }
                }, stored: stored)

        case .deleteAll:
            let records = try records(database.prepare(selectAll))
            let delete = try database.prepare("DELETE FROM record WHERE id = ?")
            return .write(
                { range in
                    try database.transaction {
                        for record in records[range] {
                            try delete.bind(record.id, at: 1)
                            try delete.run()
                        }
                    }
                }, stored: stored)

        case .fetchAll:
            let statement = try database.prepare(selectAll)
            return .query { { try records(statement).reduce(0) { $0 &+ $1.values.digest } } }

        case .fetchIndexed:
            let statement = try database.prepare(selectAll + " WHERE \"group\" = ?")
            return .query {
                {
                    try statement.bind(SampleData.selectedGroup, at: 1)
                    return try records(statement).reduce(0) { $0 &+ $1.values.digest }
                }
            }

        case .count:
            let statement = try database.prepare("SELECT count(*) FROM record WHERE amount < ?")
            return .query {
                {
                    defer { statement.reset() }
                    try statement.bind(SampleData.amountLimit, at: 1)
                    _ = try statement.step()
                    return statement.int(0)
                }
            }

        case .graph:
            let parents = try database.prepare("SELECT id, name, rank FROM parent ORDER BY id")
            let children = try database.prepare(
                "SELECT id, name, value, parent FROM child WHERE parent IS NOT NULL ORDER BY parent, position")
            return .query {
                {
                    try graph(parents: parents, children: children).reduce(0) { digest, parent in
                        digest
                            &+ GraphDigest.parent(
                                rank: parent.rank, name: parent.name,
                                children: parent.children.lazy.map { ($0.name, $0.value) })
                    }
                }
            }

        case .enumerate:
            // One statement stepped through: each row is decoded, read and dropped.
            let statement = try database.prepare(selectAll)
            return .query {
                {
                    defer { statement.reset() }
                    var digest = 0
                    while try statement.step() { digest &+= record(statement).values.digest }
                    return digest
                }
            }

        case .pages:
            let page = try database.prepare(selectAll + " ORDER BY key LIMIT ? OFFSET ?")
            return .query {
                {
                    var digest = 0
                    for index in 0..<SampleData.pageCount {
                        try page.bind(SampleData.pageSize, at: 1)
                        try page.bind(index * SampleData.pageSize, at: 2)
                        for record in try records(page) { digest = digest &* 31 &+ record.values.digest }
                    }
                    return digest
                }
            }

        case .aggregate, .groups:
            return try AggregateWorkloads.raw(workload, database: database)

        case .fetchHierarchy:
            let statement = try database.prepare(
                "SELECT id, entity, key, name, price, ticker, shares, coupon, maturity FROM asset")
            return .query { { try assets(statement).reduce(0) { $0 &+ $1.digest } } }

        case .fetchDuringSave:
            // Another connection, on a thread of its own, fetches the 1% again and again while this one inserts N
            // new rows in one transaction (WAL mode lets it read meanwhile); its first fetch is setup.
            let path = url.path
            let fetches = try ConcurrentFetches {
                let reader = try RawDatabase(path: path)
                let statement = try reader.prepare(selectAll + " WHERE \"group\" = ?")
                return {
                    try withExtendedLifetime(reader) {
                        try statement.bind(SampleData.selectedGroup, at: 1)
                        return try records(statement).reduce(0) { $0 &+ $1.values.digest }
                    }
                }
            }
            let values = SampleData.records(rows, after: rows)
            let insert = try database.prepare(insertSQL)
            return .concurrent(
                Trial(
                    run: {
                        try fetches.during { try database.transaction { try self.insert(values[...], with: insert) } }
                    },
                    check: stored, latencies: { try fetches.latencies() }))
        }
    }

    static let selectAll = "SELECT id, \(columns) FROM record"
    static let insertSQL = "INSERT INTO record (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Inserts records through an `INSERT` of `insertSQL`.
    private static func insert(_ values: ArraySlice<RecordValues>, with insert: RawStatement) throws {
        for value in values {
            try insert.bind(value.key, at: 1)
            try insert.bind(value.group, at: 2)
            try insert.bind(value.amount, at: 3)
            try insert.bind(value.rank, at: 4)
            try insert.bind(value.price, at: 5)
            try insert.bind(value.weight, at: 6)
            try insert.bind(value.ratio, at: 7)
            try insert.bind(value.name, at: 8)
            try insert.bind(value.city, at: 9)
            try insert.bind(value.note, at: 10)
            try insert.run()
        }
    }

    /// The records a statement that selects `id, columns` returns; it is reset after.
    private static func records(_ statement: RawStatement) throws -> [RawRecord] {
        defer { statement.reset() }
        var records: [RawRecord] = []
        while try statement.step() { records.append(record(statement)) }
        return records
    }

    /// The record in the current row of a statement that selects `id, columns`.
    private static func record(_ statement: RawStatement) -> RawRecord {
        RawRecord(
            id: statement.int(0),
            values: RecordValues(
                key: statement.int(1), group: statement.int(2), amount: statement.int(3), rank: statement.int(4),
                price: statement.double(5), weight: statement.double(6), ratio: statement.double(7),
                name: statement.string(8), city: statement.string(9), note: statement.string(10)))
    }

    /// Every model of the hierarchy, each read by its kind, in row order.
    private static func assets(_ statement: RawStatement) throws -> [AssetValues] {
        defer { statement.reset() }
        var assets: [AssetValues] = []
        while try statement.step() {
            var asset = AssetValues(
                kind: 0, key: statement.int(2), name: statement.string(3), price: statement.double(4))
            switch statement.string(1) {
            case "Stock":
                asset.kind = 1
                asset.ticker = statement.string(5)
                asset.shares = statement.int(6)
            case "Bond":
                asset.kind = 2
                asset.coupon = statement.double(7)
                asset.maturity = statement.int(8)
            default:
                break
            }
            assets.append(asset)
        }
        return assets
    }

    /// The parents with their children in order: two queries.
    private static func graph(parents parentRows: RawStatement, children childRows: RawStatement) throws -> [RawParent]
    {
        defer {
            parentRows.reset()
            childRows.reset()
        }
        var parents: [RawParent] = []
        var indexes: [Int: Int] = [:]
        while try parentRows.step() {
            indexes[parentRows.int(0)] = parents.count
            parents.append(RawParent(id: parentRows.int(0), name: parentRows.string(1), rank: parentRows.int(2)))
        }
        while try childRows.step() {
            guard let index = indexes[childRows.int(3)] else { continue }
            parents[index].children.append(
                RawChild(id: childRows.int(0), name: childRows.string(1), value: childRows.int(2)))
        }
        return parents
    }

    /// The count and digest of every record the database holds, in key order, as our side computes it.
    private static func storedDigest(_ database: RawDatabase) throws -> Int {
        let records = try records(database.prepare(selectAll + " ORDER BY key"))
        return records.reduce(records.count) { $0 &* 31 &+ $1.values.digest }
    }
}
