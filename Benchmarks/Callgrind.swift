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
