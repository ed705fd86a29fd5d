import Foundation
import TestProcessSupport
import Testing

/// The tests' child processes: a child is done when it ends, whatever else still holds its pipes.
@Suite struct RunningChildTests {
    /// The shell ends at once; the `sleep` it leaves behind holds copies of its standard output and error for 30 s,
    /// as a child started by another test at the same moment can. Waiting for the pipes to end, or for Foundation's
    /// `Process` to report the end (it does not until the `sleep` ends), would throw `ChildTimeout` after 15 s.
    @Test func aChildThatEndedIsDoneWhileSomethingElseHoldsItsPipes() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo ended; sleep 30 &"]
        let result = try RunningChild(process).finish(timeout: 15)
        #expect(result.status == 0)
        #expect(result.output == "ended\n")
        #expect(result.errors.isEmpty)
    }

    /// The same for a child run without `RunningChild`, waited for with `ChildProcess.wait(timeout:)`: it returns the
    /// child's status once the child ended, and `hasEnded` says so, while the `sleep` it left behind runs on (it
    /// threw `ChildTimeout` after 15 s while it waited for Foundation's `Process.isRunning`).
    @Test func waitingForAChildThatEndedReturnsWhileSomethingElseHoldsItsDescriptors() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 30 & exit 3"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(try process.wait(timeout: 15) == 3)
        #expect(process.hasEnded)
    }
}
