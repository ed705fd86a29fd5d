import Foundation

extension Report {
    /// The instruction counts as JSON.
    func instructionJSON() throws -> String {
        struct Side: Encodable {
            let medianInstructions: Double
            let instructions: [Int]
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
            let measure = "instructions of the timed part, counted by valgrind --tool=callgrind"
            let backend: String
            let rows: Int
            let repetitions: Int
            let date: String
            let workloads: [Line]
            let leftOut: [String]
        }
        func side(_ measurement: Measurement) -> Side {
            Side(medianInstructions: measurement.medianInstructions, instructions: measurement.instructions)
        }
        let document = Document(
            backend: backend.name, rows: rows, repetitions: repetitions,
            date: ISO8601DateFormatter().string(from: date),
            workloads: results.map { result in
                Line(
                    number: result.workload.rawValue, name: result.workload.slug, title: result.workload.title,
                    goal: result.workload.goal(on: backend).description, goalMet: isMet(result),
                    ratio: result.instructionRatio, swiftData: side(result.ours), raw: side(result.raw))
            },
            leftOut: leftOut.map(\.slug))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// A count of instructions with three significant digits and a unit: `275M`, `1.43M`, `912K`.
    static func instructions(_ count: Double) -> String {
        let (value, unit) =
            count >= 1e9
            ? (count / 1e9, "G") : count >= 1e6 ? (count / 1e6, "M") : count >= 1e3 ? (count / 1e3, "K") : (count, "")
        let digits = value >= 100 || unit.isEmpty ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(digits)f", value) + unit
    }
}
