import Foundation

/// The results as a table or as JSON.
struct Report {
    let results: [WorkloadResult]
    let rows: Int
    let repetitions: Int
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let date = Date()

    /// A Markdown table with a row per workload, under a line that says what was run where.
    var table: String {
        let header = ["#", "workload", "SwiftData", "raw SQLite", "ratio", "goal", "met", "SwiftData peak", "raw peak"]
        let lines = results.map { result -> [String] in
            [
                String(result.workload.rawValue), result.workload.title, Report.time(result.ours.median),
                Report.time(result.raw.median), String(format: "%.2f", result.ratio), result.workload.goal.description,
                result.workload.goal.isMet(by: result).map { $0 ? "yes" : "no" } ?? "-",
                Report.memory(result.ours.peakKilobytes), Report.memory(result.raw.peakKilobytes),
            ]
        }
        let leftAligned: Set = [1, 5, 6]
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
        let title =
            "N = \(Report.grouped(rows)) rows, median of \(repetitions) repetition"
            + "\(repetitions == 1 ? "" : "s"), \(cores) core\(cores == 1 ? "" : "s"), "
            + ISO8601DateFormatter().string(from: date)
        return ([title, "", format(header), rule] + lines.map(format)).joined(separator: "\n")
    }

    /// The same results as JSON, times in seconds and memory in kilobytes.
    func json() throws -> String {
        struct Side: Encodable {
            let medianSeconds: Double
            let seconds: [Double]
            let medianCPUSeconds: Double
            let cpuSeconds: [Double]
            let peakKilobytes: Int
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
        func side(_ measurement: Measurement) -> Side {
            Side(
                medianSeconds: measurement.median, seconds: measurement.seconds,
                medianCPUSeconds: measurement.cpuMedian, cpuSeconds: measurement.cpuSeconds,
                peakKilobytes: measurement.peakKilobytes)
        }
        let document = Document(
            rows: rows, repetitions: repetitions, cores: cores, date: ISO8601DateFormatter().string(from: date),
            workloads: results.map { result in
                Line(
                    number: result.workload.rawValue, name: result.workload.slug, title: result.workload.title,
                    goal: result.workload.goal.description, goalMet: result.workload.goal.isMet(by: result),
                    ratio: result.ratio, swiftData: side(result.ours), raw: side(result.raw))
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
