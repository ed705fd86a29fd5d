import Foundation

/// The results as a table or as JSON: of times and memory, or of instructions (see `Report+Instructions`).
struct Report {
    let results: [WorkloadResult]
    let rows: Int
    let repetitions: Int
    /// Whether the results are instruction counts (`--instructions`).
    let instructions: Bool
    /// The selected workloads that were left out (those that measure latency, when counting instructions).
    let leftOut: [Workload]
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let date = Date()

    /// The table, or the JSON document, of the mode the results were measured in.
    func text(json: Bool) throws -> String {
        switch (json, instructions) {
        case (false, false): table
        case (true, false): try self.json()
        case (false, true): instructionTable
        case (true, true): try instructionJSON()
        }
    }

    /// A Markdown table with a row per workload, under a line that says what was run where, and over notes for
    /// the workloads that measure latency.
    var table: String {
        let header = ["#", "workload", "SwiftData", "raw SQLite", "ratio", "goal", "met", "SwiftData peak", "raw peak"]
        let lines = results.map { result -> [String] in
            let latency = result.workload.measuresLatency
            return [
                String(result.workload.rawValue), result.workload.title,
                Report.time(latency ? result.ours.medianLatency : result.ours.median),
                Report.time(latency ? result.raw.medianLatency : result.raw.median),
                String(format: "%.2f", result.ratio), result.workload.goal.description,
                result.workload.goal.isMet(by: result).map { $0 ? "yes" : "no" } ?? "-",
                Report.memory(result.ours.peakKilobytes), Report.memory(result.raw.peakKilobytes),
            ]
        }
        let title =
            "N = \(Report.grouped(rows)) rows, median of \(repetitions) repetition"
            + "\(repetitions == 1 ? "" : "s"), \(cores) core\(cores == 1 ? "" : "s"), "
            + ISO8601DateFormatter().string(from: date)
        let notes = results.filter(\.workload.measuresLatency).map { result in
            "\n\(result.workload.rawValue): the median time of a fetch (SwiftData, raw SQLite); the slowest took "
                + "\(Report.time(result.ours.worstLatency)) and \(Report.time(result.raw.worstLatency)) of "
                + "\(result.ours.latencies.count) and \(result.raw.latencies.count) fetches, the saves "
                + "\(Report.time(result.ours.median)) and \(Report.time(result.raw.median))."
        }
        return ([title, ""] + Report.markdown(header, lines, leftAligned: [1, 5, 6]) + notes).joined(separator: "\n")
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
                peakKilobytes: measurement.peakKilobytes, fetchSeconds: latency ? measurement.latencies : nil,
                medianFetchSeconds: latency ? measurement.medianLatency : nil,
                worstFetchSeconds: latency ? measurement.worstLatency : nil)
        }
        let document = Document(
            rows: rows, repetitions: repetitions, cores: cores, date: ISO8601DateFormatter().string(from: date),
            workloads: results.map { result in
                Line(
                    number: result.workload.rawValue, name: result.workload.slug, title: result.workload.title,
                    goal: result.workload.goal.description, goalMet: result.workload.goal.isMet(by: result),
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

    static func memory(_ kilobytes: Int) -> String {
        String(format: "%.1f MiB", Double(kilobytes) / 1_024)
    }
}
