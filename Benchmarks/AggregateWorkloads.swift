import Foundation
import SwiftData

/// Workloads 13 and 14: aggregates of all N records (`fetchAggregate`) and per group of `SampleData.groups`
/// (`fetchGroups`), against the same aggregates in the raw SQL one would write by hand.
enum AggregateWorkloads {
    /// The raw side's statement of each workload.
    static func rawSQL(_ workload: Workload) -> String {
        workload == .aggregate
            ? "SELECT sum(amount), avg(price), max(rank) FROM record"
            : "SELECT \"group\", count(*), sum(price) FROM record GROUP BY \"group\" ORDER BY \"group\""
    }

    /// A digest of workload 13's result.
    static func digest(sum: Int, average: Double, maximum: Int) -> Int {
        (sum &* 31 &+ Int(average * 1_000)) &* 31 &+ maximum
    }

    /// Workload 14's digest, with one more group added (prices are quarters, so their sums are exact).
    static func digest(_ digest: Int, group: Int, count: Int, sum: Double) -> Int {
        digest &* 31 &+ group &* 1_009 &+ count &* 7 &+ Int(sum * 4)
    }

    /// Our side: one run of the workload in `context`.
    static func ours(_ workload: Workload, context: ModelContext) throws -> Int {
        let all = FetchDescriptor<Record>()
        if workload == .aggregate {
            let (sum, average, maximum) = try context.fetchAggregate(
                all, .sum(\.amount), .average(\.price), .maximum(\.rank))
            return digest(sum: sum, average: average ?? 0, maximum: maximum ?? 0)
        }
        return try context.fetchGroups(all, by: \.group, aggregates: .count, .sum(\.price)).reduce(0) {
            digest($0, group: $1.key, count: $1.values.0, sum: $1.values.1)
        }
    }

    /// The raw side: the workload's statement, prepared once, stepped through.
    static func raw(_ workload: Workload, database: RawDatabase) throws -> Plan {
        let statement = try database.prepare(rawSQL(workload))
        return .query {
            {
                defer { statement.reset() }
                var result = 0
                while try statement.step() {
                    result =
                        workload == .aggregate
                        ? digest(sum: statement.int(0), average: statement.double(1), maximum: statement.int(2))
                        : digest(result, group: statement.int(0), count: statement.int(1), sum: statement.double(2))
                }
                return result
            }
        }
    }
}
