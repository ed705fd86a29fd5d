import Foundation
import Testing

/// The benchmark program's progress on standard error: one line rewritten in place on a terminal, nothing otherwise.
@Suite struct BenchmarkProgressTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")
    let arguments = ["--rows", "200", "--repetitions", "2", "--filter", "count"]

    @Test func nothingOnStandardErrorWhenItIsNotATerminal() throws {
        let result = try benchmarks.run(arguments: arguments)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors == "")
        #expect(result.output.contains("| 4 | count "), "the results still go to standard output")
    }

    /// Standard output goes to `/dev/null`, so that what the terminal shows is standard error alone.
    @Test func oneLineRewrittenInPlaceOnATerminal() throws {
        let (status, shown) = try benchmarks.runOnTerminal(arguments: arguments, columns: 40, discardingOutput: true)
        try #require(status == 0, "needs util-linux's script: \(shown)")

        let clear = "\r\u{1B}[K"
        #expect(!shown.contains("\n"), "no line is ended: \(shown.debugDescription)")
        #expect(shown.hasPrefix(clear) && shown.hasSuffix(clear), "the line is cleared when the program ends")
        let steps = shown.components(separatedBy: clear).filter { !$0.isEmpty }
        #expect(steps.count == 2 + 2 * 2, "two stores prepared, two sides of two repetitions: \(steps)")
        #expect(steps.allSatisfy { $0.count <= 39 }, "cut to the terminal's width, so it never wraps: \(steps)")
        #expect(steps.last?.hasPrefix("[4/14] count: repetition 2 of 2") == true, "\(steps)")
    }
}
