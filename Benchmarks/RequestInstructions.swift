import Foundation
import Synchronization

/// `--postgres URL --requests --instructions`: the client instructions of one request of each kind on each side.
///
/// For each kind and side, a child process of this program runs the requests workload with one thread
/// (`--tasks 1 --repetitions 1`) under valgrind's callgrind, counting only the function that runs one request of
/// that kind and side in the timed run (`counted`): the request's own work, without the thread that serves it, the
/// untimed run that prepared its statements, or the other side. The count over the run's requests is printed per
/// request, with the ratio. One thread: what several threads cost each other (waits for a lock) is not counted.
enum RequestInstructions {
    /// The requests each side's timed run counts; runs each side once, with the workload's checks.
    static func count(url: String, options: Options) throws -> String {
        defer { Progress.done() }
        let lines = try Callgrind.counting("openswiftdata-requests") { directory, program in
            try counts(url: url, rows: options.rows, directory: directory, program: program)
        }
        let title =
            "PostgreSQL requests, client instructions per request, one thread, \(max(1, min(100, options.rows))) requests"
        return
            ([title, ""] + Report.markdown(["#", "workload", "SwiftData", "raw", "ratio"], lines, leftAligned: [1]))
            .joined(separator: "\n")
    }

    /// Each kind's line of the table: its instructions per request on each side, and their ratio.
    private static func counts(url: String, rows: Int, directory: URL, program: URL) throws -> [[String]] {
        let requests = max(1, min(100, rows))
        var lines: [[String]] = []
        for kind in RequestsWorkload.Kind.allCases {
            var counts: [Side: Int] = [:]
            for side in [Side.swiftData, .raw] {
                let function = functionName(side, kind)
                Progress.show("\(kind.slug): \(side.name) under callgrind")
                counts[side] = try Callgrind.count(
                    program,
                    [
                        "--postgres", url, "--requests", "--tasks", "1", "--rows", String(rows), "--repetitions", "1",
                    ], function: "*RequestInstructions*\(function)*", in: directory,
                    name: "\(kind.slug)-\(side.rawValue)")
            }
            let ours = (counts[.swiftData] ?? 0) / requests
            let raw = (counts[.raw] ?? 0) / requests
            lines.append([
                String(lines.count + 1), kind.slug, Report.grouped(ours), Report.grouped(raw),
                String(format: "%.2f", raw > 0 ? Double(ours) / Double(raw) : 0),
            ])
        }
        return lines
    }

    /// The function whose instructions the child counts for `side` and `kind`.
    private static func functionName(_ side: Side, _ kind: RequestsWorkload.Kind) -> String {
        (side == .swiftData ? "ours" : "raw") + (kind == .change ? "Change" : "Read")
    }

    /// `request`, each call going through the function callgrind counts for `side` and `kind`.
    static func counted(
        _ side: Side, _ kind: RequestsWorkload.Kind, _ request: @escaping @Sendable (Int) throws -> Int
    ) -> @Sendable (Int) throws -> Int {
        switch (side, kind) {
        case (.swiftData, .change): { try oursChange(request, $0) }
        case (.swiftData, .read): { try oursRead(request, $0) }
        case (.raw, .change): { try rawChange(request, $0) }
        case (.raw, .read): { try rawRead(request, $0) }
        }
    }

    /// Calls of each function: counting them also keeps the compiler from merging the four, whose code would
    /// otherwise be the same, into one that callgrind could not tell apart.
    private static let oursChangeCalls = Atomic<Int>(0)
    private static let oursReadCalls = Atomic<Int>(0)
    private static let rawChangeCalls = Atomic<Int>(0)
    private static let rawReadCalls = Atomic<Int>(0)

    @inline(never)
    static func oursChange(_ request: (Int) throws -> Int, _ index: Int) throws -> Int {
        oursChangeCalls.add(1, ordering: .relaxed)
        return try request(index)
    }

    @inline(never)
    static func oursRead(_ request: (Int) throws -> Int, _ index: Int) throws -> Int {
        oursReadCalls.add(1, ordering: .relaxed)
        return try request(index)
    }

    @inline(never)
    static func rawChange(_ request: (Int) throws -> Int, _ index: Int) throws -> Int {
        rawChangeCalls.add(1, ordering: .relaxed)
        return try request(index)
    }

    @inline(never)
    static func rawRead(_ request: (Int) throws -> Int, _ index: Int) throws -> Int {
        rawReadCalls.add(1, ordering: .relaxed)
        return try request(index)
    }
}
