import Foundation
import TestProcessSupport
import Testing

/// The tests' launcher of child processes: statuses, signals, pipes both ways, environment, directory, and a child
/// that inherits no descriptor of the test process beyond its standard input, output and error.
@Suite struct ChildProcessLauncherTests {
    /// A child of `/bin/sh -c script`, with `arguments` after the script (`$0`, `$1`…).
    func shell(_ script: String, _ arguments: String...) -> ChildProcess {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", script] + arguments
        return child
    }

    /// Runs `child` with its standard output and error collected; both, once it ended.
    func outputs(of child: ChildProcess) throws -> (output: String, errors: String) {
        let output = Pipe()
        let errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        // Read one pipe on a thread of its own, so that a child filling the other cannot block.
        let errorText = Collected()
        let errorsRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorText.set(errors.fileHandleForReading.readDataToEndOfFile())
            errorsRead.signal()
        }
        let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        errorsRead.wait()
        child.waitUntilExit()
        return (outputText, errorText.text)
    }

    @Test func anExitStatusIsReported() throws {
        let child = shell("exit 7")
        #expect(!child.isRunning)
        try child.run()
        #expect(child.processIdentifier > 0)
        child.waitUntilExit()
        #expect(!child.isRunning)
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 7)
    }

    @Test func aSignalThatEndsTheChildIsReported() throws {
        let child = shell("kill -KILL $$")
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
    }

    @Test func terminateAndInterruptSendTheirSignals() throws {
        for (signal, send) in [(SIGTERM, { (child: ChildProcess) in child.terminate() }), (SIGINT, { $0.interrupt() })]
        {
            // `exec`: the signal reaches `sleep` itself, not a shell waiting for it.
            let child = shell("exec sleep 60")
            try child.run()
            #expect(child.isRunning)
            send(child)
            #expect(child.waitUntilExit(timeout: 30), "signal \(signal) ended the child")
            #expect(child.terminationReason == .uncaughtSignal)
            #expect(child.terminationStatus == signal)
        }
    }

    @Test func pipesCarryInputAndOutputBothWays() throws {
        let child = shell("tr a-z A-Z; echo done >&2")
        let input = Pipe()
        child.standardInput = input
        let output = Pipe()
        child.standardOutput = output
        let errors = Pipe()
        child.standardError = errors
        try child.run()
        input.fileHandleForWriting.write(Data("hello\nchild\n".utf8))
        try input.fileHandleForWriting.close()
        // The parent's copies of the child's ends are closed: each pipe ends when the child does.
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "HELLO\nCHILD\n")
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "done\n")
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
    }

    @Test func oneStreamCanBeGivenToTwoDescriptorsAndFileHandlesAreUsedAsGiven() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let log = try FileHandle(forWritingTo: file)
        let child = shell("echo out; echo err >&2; cat")
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = log
        child.standardError = log
        try child.run()
        child.waitUntilExit()
        try log.close()
        #expect(child.terminationStatus == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == "out\nerr\n")
    }

    @Test func theEnvironmentIsTheOneGivenOrThisProcesss() throws {
        let given = ChildProcess()
        given.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        given.environment = ["ONLY": "this one", "AND": "that"]
        let listed = try outputs(of: given).output.split(separator: "\n").sorted()
        #expect(listed == ["AND=that", "ONLY=this one"])

        let inherited = shell(#"printf %s "$PATH""#)
        #expect(try outputs(of: inherited).output == ProcessInfo.processInfo.environment["PATH"] ?? "")
    }

    @Test func theChildStartsInTheDirectoryGiven() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/pwd")
        child.arguments = ["-P"]
        child.currentDirectoryURL = URL(fileURLWithPath: "/usr/bin")
        #expect(try outputs(of: child).output == URL(fileURLWithPath: "/usr/bin").resolvingSymlinksInPath().path + "\n")
    }

    /// A descriptor of this process that any child would inherit (not close-on-exec, and at a number that no
    /// standard stream has) is not open in the child: `ls` lists its standard input, output and error, and its own
    /// handle on the directory it lists.
    @Test func theChildInheritsNoOtherDescriptor() throws {
        let pipe = Pipe()
        let inheritable = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_DUPFD, 200)
        try #require(inheritable >= 200)
        defer { close(inheritable) }
        #expect(fcntl(inheritable, F_GETFD) & FD_CLOEXEC == 0, "an exec would keep it open")
        let child = shell("exec ls /proc/self/fd")
        let listed = try outputs(of: child).output.split(separator: "\n").map(String.init)
        #expect(child.terminationStatus == 0)
        #expect(listed.sorted() == ["0", "1", "2", "3"], "\(listed)")
        #expect(!listed.contains("\(inheritable)"))
    }

    /// The child has ended although the `sleep` it left behind holds its output pipe: `isRunning` says so.
    @Test func aChildThatEndedIsNotRunningWhileSomethingElseHoldsItsPipes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("sleep.pid")
        let child = shell(#"sleep 60 & echo $! >"$0"; exit 3"#, pidFile.path)
        child.standardOutput = Pipe()
        try child.run()
        #expect(child.waitUntilExit(timeout: 30))
        #expect(!child.isRunning)
        #expect(child.terminationStatus == 3)
        let sleeper = Int32(
            try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        if let sleeper { kill(sleeper, SIGKILL) }
        #expect(sleeper != nil)
    }

    @Test func aChildThatCannotStartIsAnErrorNamingIt() throws {
        let missing = ChildProcess()
        missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        missing.arguments = ["an-argument"]
        #expect {
            try missing.run()
        } throws: { error in
            "\(error)".contains("/nonexistent/program an-argument could not be started")
        }
        #expect(!missing.isRunning)

        let unset = ChildProcess()
        #expect(throws: ChildProcessError.self) { try unset.run() }

        let twice = shell("exit 0")
        try twice.run()
        #expect(throws: ChildProcessError.self) { try twice.run() }
        twice.waitUntilExit()

        let wrongStream = shell("exit 0")
        wrongStream.standardOutput = "not a stream"
        #expect(throws: ChildProcessError.self) { try wrongStream.run() }
    }
}

/// Text read on another thread.
private final class Collected: @unchecked Sendable {  // `value` is guarded by `lock`
    private let lock = NSLock()
    private var value = ""

    func set(_ data: Data) { lock.withLock { value = String(decoding: data, as: UTF8.self) } }
    var text: String { lock.withLock { value } }
}
