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
            try insert(SampleData.records(template.recordCount(rows: rows)), into: database)
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

    /// Sets up one repetition of `workload` on the database at `url` (a copy of its template, or no file).
    static func prepare(_ workload: Workload, rows: Int, store url: URL) throws -> Trial {
        let database = try RawDatabase(path: url.path)
        if workload.template == nil { try database.execute(schema) }
        // Reads the schema, so that the timed part does not.
        try database.prepare("SELECT 1 FROM sqlite_master LIMIT 0").run()
        var digest = 0

        switch workload {
        case .insert:
            let values = SampleData.records(rows)
            return Trial(run: { try insert(values, into: database) }, check: { try storedDigest(database) })

        case .fetchAll:
            return Trial(
                run: { for record in try records(database) { digest &+= record.values.digest } },
                check: { digest })

        case .fetchIndexed:
            return Trial(
                run: {
                    let statement = try database.prepare("SELECT id, \(columns) FROM record WHERE \"group\" = ?")
                    try statement.bind(SampleData.selectedGroup, at: 1)
                    for record in try records(statement) { digest &+= record.values.digest }
                },
                check: { digest })

        case .count:
            return Trial(
                run: {
                    let statement = try database.prepare("SELECT count(*) FROM record WHERE amount < ?")
                    try statement.bind(SampleData.amountLimit, at: 1)
                    _ = try statement.step()
                    digest = statement.int(0)
                },
                check: { digest })

        case .updateAll:
            var records = try records(database)
            return Trial(
                run: {
                    for index in records.indices { records[index].values.amount += 1 }
                    try database.transaction {
                        let update = try database.prepare("UPDATE record SET amount = ? WHERE id = ?")
                        for record in records {
                            try update.bind(record.values.amount, at: 1)
                            try update.bind(record.id, at: 2)
                            try update.run()
                        }
                    }
                },
                check: { try storedDigest(database) })

        case .deleteAll:
            var records = try records(database)
            return Trial(
                run: {
                    try database.transaction {
                        let delete = try database.prepare("DELETE FROM record WHERE id = ?")
                        for record in records {
                            try delete.bind(record.id, at: 1)
                            try delete.run()
                        }
                    }
                    records.removeAll()
                },
                check: { try storedDigest(database) })

        case .changeOne:
            var records = try records(database)
            let update = try database.prepare("UPDATE record SET amount = ? WHERE id = ?")
            func save(_ index: Int) throws {
                try database.transaction {
                    try update.bind(records[index].values.amount, at: 1)
                    try update.bind(records[index].id, at: 2)
                    try update.run()
                }
            }
            // One change saved first, as on our side.
            records[0].values.amount += 1
            try save(0)
            let changed = records.count / 2
            return Trial(
                run: {
                    records[changed].values.amount += 1
                    try save(changed)
                },
                check: { try storedDigest(database) })

        case .graph:
            return Trial(
                run: {
                    for parent in try graph(database) {
                        digest = digest &* 31 &+ parent.rank
                        for child in parent.children { digest = digest &* 31 &+ child.value }
                    }
                },
                check: { digest })

        case .enumerate:
            return Trial(
                run: {
                    // One statement stepped through: each row is decoded, read and dropped.
                    let statement = try database.prepare("SELECT id, \(columns) FROM record")
                    defer { statement.reset() }
                    while try statement.step() { digest &+= record(statement).values.digest }
                },
                check: { digest })

        case .pages:
            return Trial(
                run: {
                    let page = try database.prepare("SELECT id, \(columns) FROM record ORDER BY key LIMIT ? OFFSET ?")
                    for index in 0..<SampleData.pageCount {
                        try page.bind(SampleData.pageSize, at: 1)
                        try page.bind(index * SampleData.pageSize, at: 2)
                        for record in try records(page) { digest = digest &* 31 &+ record.values.digest }
                    }
                },
                check: { digest })

        case .fetchHierarchy:
            return Trial(
                run: { for asset in try assets(database) { digest &+= asset.digest } },
                check: { digest })

        case .fetchDuringSave:
            // Another connection, on a thread of its own, fetches the 1% again and again while this one inserts N
            // new rows in one transaction (WAL mode lets it read meanwhile); its first fetch is setup.
            let path = url.path
            let fetches = try ConcurrentFetches {
                let reader = try RawDatabase(path: path)
                let statement = try reader.prepare("SELECT id, \(columns) FROM record WHERE \"group\" = ?")
                return {
                    try withExtendedLifetime(reader) {
                        try statement.bind(SampleData.selectedGroup, at: 1)
                        return try records(statement).reduce(0) { $0 &+ $1.values.digest }
                    }
                }
            }
            let values = SampleData.records(rows, after: rows)
            return Trial(
                run: { try fetches.during { try insert(values, into: database) } },
                check: { try storedDigest(database) },
                latencies: { try fetches.latencies() })
        }
    }

    /// Inserts records in one transaction.
    private static func insert(_ values: [RecordValues], into database: RawDatabase) throws {
        try database.transaction {
            let insert = try database.prepare("INSERT INTO record (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
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
    }

    /// Every record, in row order.
    private static func records(_ database: RawDatabase) throws -> [RawRecord] {
        try records(database.prepare("SELECT id, \(columns) FROM record"))
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
    private static func assets(_ database: RawDatabase) throws -> [AssetValues] {
        let statement = try database.prepare(
            "SELECT id, entity, key, name, price, ticker, shares, coupon, maturity FROM asset")
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
    private static func graph(_ database: RawDatabase) throws -> [RawParent] {
        var parents: [RawParent] = []
        var indexes: [Int: Int] = [:]
        let parentRows = try database.prepare("SELECT id, name, rank FROM parent ORDER BY id")
        while try parentRows.step() {
            indexes[parentRows.int(0)] = parents.count
            parents.append(RawParent(id: parentRows.int(0), name: parentRows.string(1), rank: parentRows.int(2)))
        }
        let childRows = try database.prepare(
            "SELECT id, name, value, parent FROM child WHERE parent IS NOT NULL ORDER BY parent, position")
        while try childRows.step() {
            guard let index = indexes[childRows.int(3)] else { continue }
            parents[index].children.append(
                RawChild(id: childRows.int(0), name: childRows.string(1), value: childRows.int(2)))
        }
        return parents
    }

    /// The count and digest of every record the database holds, in key order, as our side computes it.
    private static func storedDigest(_ database: RawDatabase) throws -> Int {
        let records = try records(database.prepare("SELECT id, \(columns) FROM record ORDER BY key"))
        return records.reduce(records.count) { $0 &* 31 &+ $1.values.digest }
    }
}
