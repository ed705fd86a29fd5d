import Foundation
import TestProcessSupport
import Testing

/// The tests' child processes end a test instead of hanging it: a child that crashes is reported with its output
/// (Swift's backtracer, which would keep its pipes open, is off), and one that never ends is killed after the
/// time limit, and its output reported.
@Suite struct ChildProcessTests {
    func child(_ command: String) -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess")
        process.arguments = [command]
        return process
    }

    @Test func aChildThatCrashesIsReportedWithItsOutput() throws {
        // Without the backtracer switched off, the pipes stay open after the crash: this would time out.
        let result = try RunningChild(child("crash")).finish(timeout: 60)
        #expect(result.status != 0)
        #expect(result.output == "about to crash\n")
        #expect(result.errors.contains("the crash command crashes"), "\(result.errors)")
    }

    @Test func aChildThatNeverEndsIsKilledAndItsOutputReported() throws {
        let running = try RunningChild(child("hang"))
        #expect {
            try running.finish(timeout: 2)
        } throws: { error in
            let timeout = error as? ChildTimeout
            return timeout?.output == "hanging\n" && "\(error)".contains("TestChildProcess hang")
        }
        #expect(running.process.hasEnded)
    }

    @Test func waitingForAChildThatNeverEndsThrows() throws {
        let process = child("hang")
        process.environment = RunningChild.environment()
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(throws: ChildTimeout.self) { try process.wait(timeout: 1) }
        #expect(process.hasEnded)
    }
}
