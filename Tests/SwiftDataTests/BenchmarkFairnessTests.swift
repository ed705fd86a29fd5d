import Foundation
import PostgresTestSupport
import Testing

/// The benchmark program gives neither side a setup, warm-up or check the other does not get.
@Suite struct BenchmarkFairnessTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")

    /// What the store runs beyond the raw side's statements in each workload's timed part, by kind: a
    /// `PRAGMA data_version` before each fetch (has another connection written?), the history row of each save, and
    /// for inserts the key sequence's row and the two reads of it; `enumerate` reads its rows in batches.
    static let storeStatements: [String: [String: Int]] = [
        "insert": ["INSERT": 2, "SELECT": 2], "fetch-all": ["PRAGMA": 1], "fetch-indexed": ["PRAGMA": 1],
        "count": ["PRAGMA": 1], "update-all": ["INSERT": 1], "delete-all": ["INSERT": 1], "change-one": ["INSERT": 1],
        "graph": ["PRAGMA": 1], "pages": ["PRAGMA": 50], "fetch-during-save": ["INSERT": 2],
        "enumerate": ["PRAGMA": 1, "SELECT": 1], "fetch-hierarchy": ["PRAGMA": 1], "aggregate": ["PRAGMA": 1],
        "groups": ["PRAGMA": 1],
    ]

    /// What the PostgreSQL store runs beyond the raw side's statements in each workload's timed part, by kind: a
    /// save records its identifier (`INSERT`, so that a save whose commit went unanswered can be looked up), takes
    /// the save lock, draws its history number and notifies the other instances (one `SELECT`), and writes its
    /// history row (`INSERT`); inserts also reserve their keys (`INSERT ... RETURNING`). Fetches run nothing more.
    static let postgresStoreStatements: [String: [String: Int]] = [
        "insert": ["INSERT": 3, "SELECT": 1], "fetch-all": [:], "fetch-indexed": [:], "count": [:],
        "update-all": ["INSERT": 2, "SELECT": 1], "delete-all": ["INSERT": 2, "SELECT": 1],
        "change-one": ["INSERT": 2, "SELECT": 1], "graph": [:], "pages": [:],
    ]

    /// The statements each side's timed part ran, by kind, for each workload of a `--statements --json` run with
    /// these arguments.
    func statements(_ arguments: [String]) throws -> [(name: String, ours: [String: Int], raw: [String: Int])] {
        let result = try benchmarks.run(
            arguments: arguments + ["--rows", "300", "--repetitions", "1", "--statements", "--json"])
        try #require(result.status == 0, "\(result.errors)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let workloads = try #require(document["workloads"] as? [[String: Any]])
        return try workloads.map { workload in
            (
                try #require(workload["name"] as? String),
                try #require((workload["swiftData"] as? [String: Any])?["statements"] as? [String: Int]),
                try #require((workload["raw"] as? [String: Any])?["statements"] as? [String: Int])
            )
        }
    }

    /// How many more statements of each kind `ours` ran than `raw`, among `kinds` (all by default).
    func extra(_ ours: [String: Int], _ raw: [String: Int], kinds: Set<String>? = nil) -> [String: Int] {
        var extra: [String: Int] = [:]
        for kind in kinds ?? Set(ours.keys).union(raw.keys) where ours[kind, default: 0] != raw[kind, default: 0] {
            extra[kind] = ours[kind, default: 0] - raw[kind, default: 0]
        }
        return extra
    }

    /// Both sides' timed parts run the same statements (SQLite's trace of every connection, the store's included),
    /// apart from the store's own listed above, and none for the first time: every statement was prepared and ran
    /// once before, on both sides. (The raw side prepared its queries inside the timed part before.)
    @Test func bothSidesRunTheSameStatementsInTheTimedPart() throws {
        // Every workload, those that run only when named included.
        let workloads = try statements(["--filter", Self.storeStatements.keys.sorted().joined(separator: ",")])
        #expect(workloads.count == Self.storeStatements.count)
        for (name, ours, raw) in workloads {
            // Workload 10's fetches run on another thread as often as the write lets them, and its write is its
            // first (it measures how long the fetches wait, not the write): only the write's statements count.
            let kinds: Set<String>? = name == "fetch-during-save" ? ["BEGIN", "COMMIT", "INSERT"] : nil
            #expect(
                extra(ours, raw, kinds: kinds) == Self.storeStatements[name], "\(name): SwiftData \(ours), raw \(raw)")
            if name != "fetch-during-save" {
                #expect(!ours.keys.contains { $0.hasPrefix("new ") }, "\(name): SwiftData \(ours)")
                #expect(!raw.keys.contains { $0.hasPrefix("new ") }, "\(name): raw \(raw)")
            }
        }
    }

    /// On PostgreSQL too (every statement each libpq connection sends, the store's included): the same statements
    /// apart from the store's own, and none prepared in the timed part.
    @Test(.enabled(if: PostgresTestServer.isAvailable)) func bothSidesRunTheSameStatementsOnPostgreSQL() throws {
        let server = try PostgresTestServer.shared()
        let database = "fair_" + UUID().uuidString.prefix(8).lowercased()
        try server.psql("CREATE DATABASE \(database) OWNER \(server.user)", database: "postgres")
        let workloads = try statements(["--postgres", server.url(database: database)])
        #expect(workloads.count == Self.postgresStoreStatements.count)
        for (name, ours, raw) in workloads {
            #expect(extra(ours, raw) == Self.postgresStoreStatements[name], "\(name): SwiftData \(ours), raw \(raw)")
            #expect(!ours.keys.contains { $0.hasPrefix("new ") }, "\(name): SwiftData \(ours)")
            #expect(!raw.keys.contains { $0.hasPrefix("new ") }, "\(name): raw \(raw)")
        }
    }

    /// The check compares every value's contents: one character of one text changed in the raw side's store (to
    /// one of the same length, which a check of lengths let pass) makes the sides disagree.
    @Test func oneWrongCharacterFailsTheCheck() throws {
        let directory = TemporaryDirectory()
        func check(_ workload: String, _ side: String) throws -> Int {
            let result = try benchmarks.run(arguments: [
                "--child", workload, side, "--rows", "300", "--directory", directory.url.path,
            ])
            try #require(result.status == 0, "\(result.errors)")
            let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
            let measurement = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(measurement?["check"] as? Int, "\(result.output)")
        }
        for workload in ["fetch-all", "update-all"] {
            #expect(try check(workload, "swiftdata") == check(workload, "raw"), "\(workload) before the change")
        }
        let store = directory.url.appendingPathComponent("records-raw.sqlite")
        let note = try sqlite(store, "SELECT note FROM record WHERE id = 7").trimmingCharacters(in: .newlines)
        let changed = String(note.dropLast()) + (note.last == "x" ? "y" : "x")
        try #require(changed.utf8.count == note.utf8.count, "'\(note)' ends in one byte")
        try sqlite(store, "UPDATE record SET note = '\(changed)' WHERE id = 7")
        for workload in ["fetch-all", "update-all"] {
            #expect(try check(workload, "swiftdata") != check(workload, "raw"), "\(workload) after the change")
        }
    }
}
