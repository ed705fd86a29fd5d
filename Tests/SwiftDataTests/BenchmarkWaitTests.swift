import Foundation
import Testing

/// The benchmark program reports, per repetition, how long its timed part waited for a processor, so that a run on
/// a loaded machine can tell that waiting from either side's own work.
@Suite struct BenchmarkWaitTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")

    @Test func everyRepetitionReportsItsWaitForAProcessor() throws {
        let result = try benchmarks.run(arguments: [
            "--rows", "200", "--repetitions", "2", "--filter", "change-one", "--json",
        ])
        try #require(result.status == 0, "\(result.errors)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let workloads = try #require(document["workloads"] as? [[String: Any]])
        try #require(workloads.count == 1)
        for name in ["swiftData", "raw"] {
            let side = try #require(workloads[0][name] as? [String: Any], "\(name) in \(result.output)")
            let seconds = try #require(side["seconds"] as? [Double])
            let waits = try #require(side["waitSeconds"] as? [Double], "\(name): \(side)")
            #expect(seconds.count == 2)
            #if os(Linux)
                #expect(waits.count == 2, "one per repetition on Linux: \(waits)")
            #endif
            #expect(waits.allSatisfy { $0 >= 0 && $0.isFinite }, "\(waits)")
            #expect(side["medianWaitSeconds"] as? Double != nil, "\(side)")
        }
    }
}
