import Foundation
import TestProcessSupport
import Testing

/// Children of the benchmark program started by hand (to profile one) may share a `--directory`: each works in a
/// folder of its own, and one of them builds a missing template store while the others wait for it.
@Suite struct BenchmarkChildDirectoryTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")

    @Test func childrenStartedAtOnceWithTheSameDirectoryEachMeasure() throws {
        let directory = TemporaryDirectory()
        let children = try (0..<4).map { _ in
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: benchmarks.path)
            process.arguments = [
                "--child", "fetch-all", "swiftdata", "--rows", "300", "--directory", directory.url.path,
            ]
            return try RunningChild(process)
        }
        var checks: [Int] = []
        for child in children {
            let result = try child.finish()
            #expect(result.status == 0, "\(result.errors)")
            let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
            let measurement = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let check = measurement?["check"] as? Int { checks.append(check) }
        }
        #expect(checks.count == 4, "every child measured")
        #expect(Set(checks).count == 1, "every child read the same template: \(checks)")
    }
}
