import Foundation
import Testing

/// The tests' child processes: a child is done when it ends, whatever else still holds its pipes.
@Suite struct RunningChildTests {
    /// The shell ends at once; the `sleep` it leaves behind holds copies of its standard output and error for 30 s,
    /// as a child started by another test at the same moment can. Waiting for the pipes to end, or for `Process` to
    /// report the end (it does not until the `sleep` ends), would throw `ChildTimeout` after 15 s.
    @Test func aChildThatEndedIsDoneWhileSomethingElseHoldsItsPipes() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo ended; sleep 30 &"]
        let result = try RunningChild(process).finish(timeout: 15)
        #expect(result.status == 0)
        #expect(result.output == "ended\n")
        #expect(result.errors.isEmpty)
    }
}
