import Foundation
import PostgresTestSupport
import Testing

/// The benchmark program prints every figure the documentation publishes (ratios, goals, whether each was met,
/// memory) in one table format on SQLite and PostgreSQL alike, at most 100 columns wide, and as JSON.
@Suite struct BenchmarkReportTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")

    /// The arguments that select a store: none for SQLite, `--postgres` with a database of its own otherwise.
    func storeArguments(_ kind: StoreKind) throws -> [String] {
        guard kind == .postgres else { return [] }
        let server = try PostgresTestServer.shared()
        let database = "bench_" + UUID().uuidString.prefix(8).lowercased()
        try server.psql("CREATE DATABASE \(database) OWNER \(server.user)", database: "postgres")
        return ["--postgres", server.url(database: database)]
    }

    @Test(arguments: StoreKind.all) func oneTableWithGoalsAndMemory(kind: StoreKind) throws {
        let result = try benchmarks.run(
            arguments: storeArguments(kind) + ["--rows", "200", "--repetitions", "1", "--filter", "insert,count"])
        try #require(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(result.output)")
        #expect(lines.first?.hasPrefix(kind == .sqlite ? "SQLite, N = 200 rows" : "PostgreSQL, N = 200 rows") == true)
        let header = lines.first { $0.hasPrefix("| #") }.map { $0.split(separator: "|").map { $0.trimmed } }
        #expect(header == ["#", "workload", "SwiftData", "raw", "ratio", "goal", "met", "peak MiB"])
        let rows = lines.filter { $0.hasPrefix("| 1 ") || $0.hasPrefix("| 4 ") }.map {
            $0.split(separator: "|").map { $0.trimmed }
        }
        try #require(rows.count == 2, "\(result.output)")
        #expect(rows[0][5] == (kind == .sqlite ? "≤ 1.2" : "≤ 1.3"), "the goal: \(rows[0])")
        #expect(rows.allSatisfy { ["yes", "no"].contains($0[6]) }, "met or not: \(rows)")
        // On SQLite each side runs in a process of its own, whose peak memory is its own.
        #expect(rows.allSatisfy { ($0[7] == "-") == (kind == .postgres) }, "\(rows)")
        for row in rows where row[6] == "no" {
            #expect(result.output.contains("\(row[0]) (\(row[1])): \(row[4]) against \(row[5]), missed by "))
        }
    }

    @Test(arguments: StoreKind.all) func jsonHasTheGoals(kind: StoreKind) throws {
        let result = try benchmarks.run(
            arguments: storeArguments(kind) + ["--rows", "200", "--repetitions", "1", "--filter", "count", "--json"])
        try #require(result.status == 0, "\(result.errors)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(document["backend"] as? String == (kind == .sqlite ? "SQLite" : "PostgreSQL"))
        let workloads = try #require(document["workloads"] as? [[String: Any]])
        try #require(workloads.count == 1)
        #expect(workloads[0]["goal"] as? String == (kind == .sqlite ? "≤ 1.02" : "≤ 1.3"))
        #expect(workloads[0]["goalMet"] as? Bool != nil)
        #expect(workloads[0]["ratio"] as? Double != nil)
    }
}

extension Substring {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
