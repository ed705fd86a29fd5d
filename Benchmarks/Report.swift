import Foundation

/// The results as a table or as JSON: of times and memory, or of instructions (see `Report+Instructions`), on
/// SQLite or on PostgreSQL, in one format: every figure the documentation publishes is printed here.
struct Report {
    let results: [WorkloadResult]
    let rows: Int
    let repetitions: Int
    /// Whether the results are instruction counts (`--instructions`).
    let instructions: Bool
    /// The selected workloads that were left out (those that measure latency, when counting instructions).
    let leftOut: [Workload]
    var backend = Backend.sqlite
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let date = Date()

    /// The table, or the JSON document, of the mode the results were measured in.
    func text(json: Bool) throws -> String {
        switch (json, instructions) {
        case (false, _): table
        case (true, false): try self.json()
        case (true, true): try instructionJSON()
        }
    }

    /// The ratio the goals are judged on: of instructions when they were counted, of times otherwise.
    func ratio(_ result: WorkloadResult) -> Double { instructions ? result.instructionRatio : result.ratio }

    /// Whether a result meets its workload's goal on this backend; `nil` when there is none to judge.
    func isMet(_ result: WorkloadResult) -> Bool? {
        result.workload.goal(on: backend).isMet(by: result, instructions: instructions)
    }

    /// A Markdown table (at most 100 columns wide) with a row per workload, under a line that says what was run
    /// where, and over notes: by how much each missed goal was missed, and for workloads that measure latency,
    /// their slowest fetches.
    var table: String {
        var header = ["#", "workload", "SwiftData", "raw", "ratio", "goal", "met"]
        if !instructions { header.append("peak MiB") }
        let lines = results.map { result -> [String] in
            let latency = result.workload.measuresLatency
            let cells =
                instructions
                ? [
                    Report.instructions(result.ours.medianInstructions),
                    Report.instructions(result.raw.medianInstructions),
                ]
                : [
                    Report.time(latency ? result.ours.medianLatency : result.ours.median),
                    Report.time(latency ? result.raw.medianLatency : result.raw.median),
                ]
            var line =
                [String(result.workload.rawValue), result.workload.slug] + cells + [
                    String(format: "%.2f", ratio(result)), result.workload.goal(on: backend).description,
                    isMet(result).map { $0 ? "yes" : "no" } ?? "-",
                ]
            if !instructions { line.append(Report.memory(result)) }
            return line
        }
        let measure =
            instructions
            ? "instructions of the timed part (valgrind --tool=callgrind)"
            : "median of \(repetitions) repetition\(repetitions == 1 ? "" : "s"), \(cores) core\(cores == 1 ? "" : "s")"
        let title =
            "\(backend.name), N = \(Report.grouped(rows)) rows, \(measure), "
            + ISO8601DateFormatter().string(from: date)
        return ([title, ""] + Report.markdown(header, lines, leftAligned: [1, 5, 6]) + notes).joined(separator: "\n")
    }

    /// The notes under the table.
    private var notes: [String] {
        let misses = results.compactMap { result -> String? in
            guard isMet(result) == false else { return nil }
            let goal = result.workload.goal(on: backend)
            if let limit = goal.ratioLimit, ratio(result) > limit {
                let over = (ratio(result) / limit - 1) * 100
                return
                    "\(result.workload.rawValue) (\(result.workload.slug)): \(String(format: "%.2f", ratio(result))) "
                    + "against \(goal.description), missed by \(String(format: "%.0f", over.rounded(.up)))%."
            }
            return "\(result.workload.rawValue) (\(result.workload.slug)): \(goal.description) not met."
        }
        let latencies = results.filter(\.workload.measuresLatency).filter { _ in !instructions }.map { result in
            "\(result.workload.rawValue): the median time of a fetch; the slowest took "
                + "\(Report.time(result.ours.worstLatency)) and \(Report.time(result.raw.worstLatency)) of "
                + "\(result.ours.latencies.count) and \(result.raw.latencies.count) fetches, the saves "
                + "\(Report.time(result.ours.median)) and \(Report.time(result.raw.median))."
        }
        let left = leftOut.map { workload in
            "\(workload.rawValue) (\(workload.slug)) is left out: it measures how long fetches wait, and waiting "
                + "costs no instructions."
        }
        return (misses + latencies + left).flatMap { ["", Report.wrapped($0)] }
    }

    /// Text wrapped at 100 columns.
    static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 100 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// The lines of a Markdown table whose columns are padded to the same width, aligned left or right.
    static func markdown(_ header: [String], _ lines: [[String]], leftAligned: Set<Int>) -> [String] {
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func format(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.indices.map { column in
                leftAligned.contains(column)
                    ? ":" + String(repeating: "-", count: widths[column] + 1)
                    : String(repeating: "-", count: widths[column] + 1) + ":"
            }.joined(separator: "|") + "|"
        return [format(header), rule] + lines.map(format)
    }

    /// The same results as JSON, times in seconds and memory in kilobytes.
    func json() throws -> String {
        struct Side: Encodable {
            let medianSeconds: Double
            let seconds: [Double]
            let medianCPUSeconds: Double
            let cpuSeconds: [Double]
            /// The part of each time spent ready to run but waiting for a processor (empty where not reported).
            let medianWaitSeconds: Double
            let waitSeconds: [Double]
            let peakKilobytes: Int
            /// The SQL statements of the timed part by kind, with `--statements`.
            let statements: [String: Int]?
            /// For a workload that measures latency: every fetch's time, their median and the slowest.
            let fetchSeconds: [Double]?
            let medianFetchSeconds: Double?
            let worstFetchSeconds: Double?
        }
        struct Line: Encodable {
            let number: Int
            let name: String
            let title: String
            let goal: String
            let goalMet: Bool?
            let ratio: Double
            let swiftData: Side
            let raw: Side
        }
        struct Document: Encodable {
            let backend: String
            let rows: Int
            let repetitions: Int
            let cores: Int
            let date: String
            let workloads: [Line]
        }
        func side(_ measurement: Measurement, latency: Bool) -> Side {
            Side(
                medianSeconds: measurement.median, seconds: measurement.seconds,
                medianCPUSeconds: measurement.cpuMedian, cpuSeconds: measurement.cpuSeconds,
                medianWaitSeconds: measurement.medianWait, waitSeconds: measurement.waitSeconds,
                peakKilobytes: measurement.peakKilobytes, statements: measurement.statements,
                fetchSeconds: latency ? measurement.latencies : nil,
                medianFetchSeconds: latency ? measurement.medianLatency : nil,
                worstFetchSeconds: latency ? measurement.worstLatency : nil)
        }
        let document = Document(
            backend: backend.name, rows: rows, repetitions: repetitions, cores: cores,
            date: ISO8601DateFormatter().string(from: date),
            workloads: results.map { result in
                Line(
                    number: result.workload.rawValue, name: result.workload.slug, title: result.workload.title,
                    goal: result.workload.goal(on: backend).description, goalMet: isMet(result),
                    ratio: result.ratio, swiftData: side(result.ours, latency: result.workload.measuresLatency),
                    raw: side(result.raw, latency: result.workload.measuresLatency))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// Milliseconds with three significant digits.
    static func time(_ seconds: Double) -> String {
        let milliseconds = seconds * 1_000
        let digits = milliseconds >= 100 ? 0 : milliseconds >= 10 ? 1 : milliseconds >= 1 ? 2 : 3
        return String(format: "%.\(digits)f ms", milliseconds)
    }

    /// A count with thousands separated by commas.
    static func grouped(_ count: Int) -> String {
        var digits = String(count)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }

    /// Both sides' peak memory in MiB, ours first; `-` where it was not measured apart (on PostgreSQL both sides
    /// run in one process).
    static func memory(_ result: WorkloadResult) -> String {
        guard result.ours.peakKilobytes > 0, result.raw.peakKilobytes > 0 else { return "-" }
        return String(
            format: "%.1f / %.1f", Double(result.ours.peakKilobytes) / 1_024, Double(result.raw.peakKilobytes) / 1_024)
    }
}
