import Foundation

/// One piece of work the program measures, done by both sides.
enum Workload: Int, CaseIterable {
    case insert = 1
    case fetchAll
    case fetchIndexed
    case count
    case updateAll
    case deleteAll
    case changeOne
    case graph
    case pages
    case fetchDuringSave
    case enumerate
    case fetchHierarchy
    case aggregate
    case groups

    /// The name the `--filter` option and the JSON output use.
    var slug: String {
        switch self {
        case .insert: "insert"
        case .fetchAll: "fetch-all"
        case .fetchIndexed: "fetch-indexed"
        case .count: "count"
        case .updateAll: "update-all"
        case .deleteAll: "delete-all"
        case .changeOne: "change-one"
        case .graph: "graph"
        case .pages: "pages"
        case .fetchDuringSave: "fetch-during-save"
        case .enumerate: "enumerate"
        case .fetchHierarchy: "fetch-hierarchy"
        case .aggregate: "aggregate"
        case .groups: "groups"
        }
    }

    /// What the workload does, for the table.
    var title: String {
        switch self {
        case .insert: "insert N models and save"
        case .fetchAll: "fetch all N, read every attribute"
        case .fetchIndexed: "fetch 1% by an indexed Int"
        case .count: "fetchCount with a predicate"
        case .updateAll: "change an attribute of all N, save"
        case .deleteAll: "delete all N, save"
        case .changeOne: "change 1 of N registered, save"
        case .graph: "N/100 parents, walk 100 children each"
        case .pages: "50 sorted pages of 20"
        case .fetchDuringSave: "fetch 1% while another thread saves N"
        case .enumerate: "enumerate 10×N in one context, drop each"
        case .fetchHierarchy: "fetch all N of a class and 2 subclasses"
        case .aggregate: "sum, average and maximum of N (fetchAggregate)"
        case .groups: "count and sum per group of 100 (fetchGroups)"
        }
    }

    /// The store a workload starts from; `nil` for an empty one.
    var template: Template? {
        switch self {
        case .insert: nil
        case .graph: .graph
        case .enumerate: .manyRecords
        case .fetchHierarchy: .hierarchy
        default: .records
        }
    }

    /// What our side should achieve on a backend: judged on the ratio of instructions at 10,000 rows with
    /// `--instructions`, on the ratio of times (and memory) at 100,000 rows otherwise.
    func goal(on backend: Backend) -> Goal {
        if backend == .postgres { return .ratio(1.3) }
        return switch self {
        case .insert, .updateAll, .aggregate, .groups: .ratio(1.2)
        case .deleteAll: .ratio(1.3)
        case .fetchAll: .ratioAndMemory(1.5, memory: 1.5)
        case .fetchIndexed, .pages: .ratio(1.15)
        case .count: .ratio(1.02)
        case .changeOne: .milliseconds(0.4)
        case .graph: .ratio(1.8)
        case .fetchHierarchy: .informational
        case .fetchDuringSave: .worstLatency(ofWrite: 0.5)
        case .enumerate: .ratioAndMemory(2, memory: 2)
        }
    }

    /// Whether the workload measures the latency of fetches made during its timed part (see `ConcurrentFetches`)
    /// rather than the time of the part itself: its table cells and ratio are then median latencies.
    var measuresLatency: Bool { self == .fetchDuringSave }

    /// Whether the workload runs only when `--filter` names it: the aggregate workloads (additions to Apple's API)
    /// are measured on their own at 1,000,000 rows (`--filter aggregate,groups --rows 1000000`), apart from the
    /// published tables of the others.
    var runsOnlyWhenNamed: Bool { self == .aggregate || self == .groups }

    /// The workloads that `filter` names: comma-separated numbers or parts of slugs; for `nil`, all of them but
    /// those that run only when named.
    static func selected(by filter: String?) -> [Workload] {
        guard let filter else { return allCases.filter { !$0.runsOnlyWhenNamed } }
        let terms = filter.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return allCases.filter { workload in
            terms.contains { term in term == String(workload.rawValue) || workload.slug.contains(term) }
        }
    }
}

/// A populated store that workloads start from; each side builds its own once per run and copies it before
/// every repetition.
enum Template: String, CaseIterable {
    /// N records.
    case records
    /// N/100 parents with 100 children each.
    case graph
    /// 10×N records, for the workload that walks a store much larger than what a program keeps in memory.
    case manyRecords
    /// N models of a class and its two subclasses, a third of each, in one table.
    case hierarchy

    /// The number of records of the template for `rows` (the `--rows` option).
    func recordCount(rows: Int) -> Int { self == .manyRecords ? 10 * rows : rows }
}

/// The bar a workload's result is held to.
enum Goal {
    /// Our median at most this many times raw's.
    case ratio(Double)
    /// Our peak memory at most this many times raw's.
    case memory(Double)
    /// A ratio, and our peak memory at most `memory` times raw's.
    case ratioAndMemory(Double, memory: Double)
    /// Our median below this many milliseconds.
    case milliseconds(Double)
    /// None: the workload is measured for information.
    case informational
    /// Our slowest fetch below this fraction of our timed write: readers do not wait for the writer.
    case worstLatency(ofWrite: Double)

    var description: String {
        switch self {
        case .ratio(let ratio): "≤ \(ratio.formatted())"
        case .memory(let memory): "mem ≤ \(memory.formatted())×"
        case .ratioAndMemory(let ratio, let memory): "≤ \(ratio.formatted()), mem ≤ \(memory.formatted())×"
        case .milliseconds(let limit): "< \(limit.formatted()) ms"
        case .informational: "-"
        case .worstLatency(let fraction): "worst < \(fraction.formatted()) × save"
        }
    }

    /// The highest ratio the goal allows, if it limits the ratio.
    var ratioLimit: Double? {
        switch self {
        case .ratio(let limit), .ratioAndMemory(let limit, _): limit
        default: nil
        }
    }

    /// Whether a result meets the goal; `nil` when there is no goal, or nothing measured to judge it by. Counted
    /// instructions judge only a ratio; memory counts where each side ran in a process of its own.
    func isMet(by result: WorkloadResult, instructions: Bool) -> Bool? {
        let ratio = instructions ? result.instructionRatio : result.ratio
        let measuredMemory = !instructions && result.ours.peakKilobytes > 0 && result.raw.peakKilobytes > 0
        func memoryWithin(_ factor: Double) -> Bool {
            Double(result.ours.peakKilobytes) <= factor * Double(result.raw.peakKilobytes)
        }
        switch self {
        case .ratio(let limit): return ratio <= limit
        case .memory(let factor): return measuredMemory ? memoryWithin(factor) : nil
        case .ratioAndMemory(let limit, let factor):
            return ratio <= limit && (!measuredMemory || memoryWithin(factor))
        case .milliseconds(let limit): return instructions ? nil : result.ours.median * 1_000 < limit
        case .informational: return nil
        case .worstLatency(let fraction):
            return instructions ? nil : result.ours.worstLatency < fraction * result.ours.median
        }
    }
}

/// Where both sides store their rows.
enum Backend {
    case sqlite
    case postgres

    var name: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// Which implementation runs a workload.
enum Side: String, CaseIterable {
    /// This package, through `import SwiftData` as an app uses it.
    case swiftData = "swiftdata"
    /// The SQLite C API, used directly and well.
    case raw

    var name: String {
        switch self {
        case .swiftData: "SwiftData"
        case .raw: "raw SQLite"
        }
    }
}

/// One prepared repetition of a workload: `run` is the part that is timed; `check` afterwards returns a number
/// that must be the same for both sides (a digest of what was read, or of what the store holds).
struct Trial {
    let run: () throws -> Void
    let check: () throws -> Int
    /// The time of each fetch `run` made on another thread, for workloads that measure latency.
    var latencies: () throws -> [Double] = { [] }
}
