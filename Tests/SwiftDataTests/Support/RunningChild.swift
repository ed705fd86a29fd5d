import Foundation
import TestProcessSupport

/// A child process of the tests, started with its standard output and error collected as it runs. It runs without
/// Swift's backtracer: when a child crashes, the backtracer it starts keeps the child's pipes open, and a reader
/// would wait for their end forever. A child that does not end in time is killed, and `finish` throws with what it
/// wrote, so a test fails instead of hanging.
final class RunningChild {
    /// How long a child may run, unless told otherwise.
    static let defaultTimeout: TimeInterval = 300

    let process: ChildProcess
    private let output = CollectedOutput()
    private let errors = CollectedOutput()

    /// Starts `process` with `input` on its standard input (none when `nil`).
    init(_ process: ChildProcess, input: String? = nil) throws {
        self.process = process
        process.environment = Self.environment(process.environment)
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let inputPipe = input == nil ? nil : Pipe()
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        output.collect(outputPipe.fileHandleForReading)
        errors.collect(errorPipe.fileHandleForReading)
        if let inputPipe, let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
    }

    /// `environment` (this process's when `nil`) with Swift's backtracer off.
    static func environment(_ environment: [String: String]? = nil) -> [String: String] {
        (environment ?? ProcessInfo.processInfo.environment).merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    }

    /// Waits for the child to end and for what it wrote; its status, standard output and standard error. After
    /// `timeout` seconds the child is killed and `ChildTimeout` thrown, with its output so far.
    ///
    /// Once the child has ended, its pipes are read for ten seconds more at most rather than until they end: if another
    /// process got a copy of their write ends (one the child left running in the background), their end waits for that
    /// process, not for this child, and a reader waiting for it would report this child as hanging.
    func finish(timeout: TimeInterval = defaultTimeout) throws -> (status: Int32, output: String, errors: String) {
        guard process.waitUntilExit(timeout: timeout) else {
            kill(process.processIdentifier, SIGKILL)
            _ = process.waitUntilExit(timeout: 10)
            throw ChildTimeout(
                command: ([process.executableURL?.path ?? "?"] + (process.arguments ?? [])).joined(separator: " "),
                seconds: timeout, output: output.text, errors: errors.text)
        }
        let drained = DispatchTime.now() + 10
        _ = output.waitForEnd(until: drained)
        _ = errors.waitForEnd(until: drained)
        return (process.terminationStatus, output.text, errors.text)
    }
}

/// A child process that did not end in time and was killed, with what it wrote until then.
struct ChildTimeout: Error, CustomStringConvertible {
    let command: String
    let seconds: TimeInterval
    let output: String
    let errors: String

    var description: String {
        "\(command) did not end within \(seconds) s and was killed; its output:\n\(output)\nits errors:\n\(errors)"
    }
}

extension ChildProcess {
    /// Whether a started child has ended.
    var hasEnded: Bool { !isRunning }

    /// Waits for a started child to end, and returns its status (`terminationStatus`); after `timeout` seconds kills
    /// it and throws `ChildTimeout`.
    @discardableResult func wait(timeout: TimeInterval = RunningChild.defaultTimeout) throws -> Int32 {
        guard waitUntilExit(timeout: timeout) else {
            kill(processIdentifier, SIGKILL)
            _ = waitUntilExit(timeout: 10)
            throw ChildTimeout(
                command: ([executableURL?.path ?? "?"] + (arguments ?? [])).joined(separator: " "), seconds: timeout,
                output: "(not collected)", errors: "(not collected)")
        }
        return terminationStatus
    }
}

/// What a child writes to one pipe, read on a thread of its own until the pipe ends.
private final class CollectedOutput: @unchecked Sendable {  // `data` is guarded by `lock`
    private let lock = NSLock()
    private var data = Data()
    private let ended = DispatchSemaphore(value: 0)

    /// Reads on a thread of its own rather than on Dispatch's shared threads: when many children's readers block at
    /// once, a reader queued there can start seconds late, after its child has ended.
    func collect(_ handle: FileHandle) {
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock { self.data.append(chunk) }
            }
            self.ended.signal()
        }
    }

    /// Whether the pipe ended before `deadline` (asked once).
    func waitForEnd(until deadline: DispatchTime) -> Bool {
        ended.wait(timeout: deadline) == .success
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
