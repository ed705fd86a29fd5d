import Foundation

/// Counting instructions with valgrind's callgrind (`--instructions`): steadier than times on a busy machine.
///
/// A child runs under `valgrind --tool=callgrind` with collection off, switched on when it enters the function
/// that runs the timed part of a trial and off when it leaves it (`ChildProcess.timed`; callgrind matches the
/// pattern against its symbol, which a release build keeps), so that only the workload itself is counted, on
/// either side. Threads the workload starts are not counted, which is why workloads that measure latency are
/// left out.
enum Callgrind {
    /// The functions whose instructions are counted: `ChildProcess.timed`, by its mangled name.
    static let timedFunction = "*ChildProcess*timed*"

    /// The `valgrind` program on `PATH`.
    static func valgrind() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("valgrind")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ChildError(
            "--instructions needs valgrind, which is not on PATH (on Debian or Ubuntu: sudo apt-get install valgrind)")
    }

    /// The arguments that run `program` with `arguments` under callgrind, writing its counts to `output`.
    static func arguments(running program: URL, _ arguments: [String], output: URL) -> [String] {
        [
            "--tool=callgrind", "--quiet", "--collect-atstart=no", "--toggle-collect=\(timedFunction)",
            "--callgrind-out-file=\(output.path)", program.path,
        ] + arguments
    }

    /// Runs `body` with a new temporary directory for the children's files, named `name` and this process's
    /// number (removed afterwards), and this program's path; throws first when valgrind is missing.
    static func counting<Result>(_ name: String, _ body: (_ directory: URL, _ program: URL) throws -> Result) throws
        -> Result
    {
        _ = try valgrind()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory, URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL)
    }

    /// Runs `program` with `arguments` in a child under callgrind, counting only the functions that match the
    /// pattern `function`, and returns the count; `name` names the child's files in `directory`.
    static func count(
        _ program: URL, _ arguments: [String], function: String, in directory: URL, name: String
    ) throws -> Int {
        let output = directory.appendingPathComponent("\(name).out")
        let errors = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = try valgrind()
        process.arguments =
            [
                "--tool=callgrind", "--quiet", "--collect-atstart=no", "--toggle-collect=\(function)",
                "--callgrind-out-file=\(output.path)", program.path,
            ] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let end = process.waitForEnd()
        guard end.status == 0, end.exited else {
            let messages = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ChildError("\(name) under callgrind failed:\n\(messages)")
        }
        return try instructions(inOutput: String(contentsOf: output, encoding: .utf8))
    }

    /// The instructions counted in a callgrind output file: its `totals:` line (or `summary:`, as older versions
    /// write it), whose first number is the first event, `Ir`.
    static func instructions(inOutput text: String) throws -> Int {
        let lines = text.split(separator: "\n")
        guard lines.contains(where: { $0.hasPrefix("events: Ir") }) else {
            throw ChildError("callgrind's output does not count instructions (no 'events: Ir' line)")
        }
        for prefix in ["totals:", "summary:"] {
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { continue }
            guard let count = line.dropFirst(prefix.count).split(separator: " ").first.flatMap({ Int($0) }) else {
                throw ChildError("callgrind's '\(line)' is not a count")
            }
            return count
        }
        throw ChildError("callgrind's output has no totals")
    }
}
