import Foundation

/// The result of one workload: both sides' measurements.
struct WorkloadResult {
    let workload: Workload
    let ours: Measurement
    let raw: Measurement

    /// Our median time over raw's; for a workload that measures latency, our median latency over raw's.
    var ratio: Double {
        workload.measuresLatency ? ours.medianLatency / raw.medianLatency : ours.median / raw.median
    }

    /// Our instructions over raw's (`--instructions`).
    var instructionRatio: Double { ours.medianInstructions / raw.medianInstructions }
}

/// The parent process: builds each side's template stores once, then runs each repetition of each side of every
/// selected workload in a child process of this same program (`--child`), so that each peak memory is that
/// repetition's alone. The two sides' repetitions alternate, so that both meet the same load of the machine.
/// With `--instructions`, each child runs under valgrind's callgrind (see `Callgrind`).
enum Runner {
    static func run(_ options: Options) throws -> [WorkloadResult] {
        let valgrind = options.instructions ? try Callgrind.valgrind() : nil
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("openswiftdata-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        defer { Progress.done() }

        let workloads = options.workloads
        for template in Template.allCases where workloads.contains(where: { $0.template == template }) {
            for side in Side.allCases {
                Progress.show(
                    "preparing the \(template.rawValue) store of \(side.name) "
                        + "(\(template.recordCount(rows: options.rows)) rows)")
                let url = templateURL(template, side: side, in: directory)
                try makeTemplate(template, side: side, rows: options.rows, at: url)
            }
        }

        var results: [WorkloadResult] = []
        for workload in workloads {
            var ours = Measurement.empty
            var raw = Measurement.empty
            for repetition in 1...options.repetitions {
                // Alternating which side goes first keeps either from always following the other.
                for side in repetition % 2 == 1 ? [Side.swiftData, .raw] : [.raw, .swiftData] {
                    Progress.show(
                        "[\(workload.rawValue)/\(Workload.allCases.count)] \(workload.slug): repetition \(repetition) "
                            + "of \(options.repetitions), \(side.name)\(valgrind == nil ? "" : " under callgrind")")
                    let measurement = try runChild(
                        workload, side: side, options: options, directory: directory, valgrind: valgrind)
                    do {
                        try side == .swiftData ? ours.add(measurement) : raw.add(measurement)
                    } catch {
                        throw ChildError("\(workload.slug) on \(side.name): \(error)")
                    }
                }
            }
            guard ours.check == raw.check else {
                throw ChildError(
                    "\(workload.slug): the sides did different work (checks \(ours.check) and \(raw.check))")
            }
            results.append(WorkloadResult(workload: workload, ours: ours, raw: raw))
        }
        return results
    }

    /// Runs one side of one workload in a child process and reads its measurement; under callgrind when
    /// `valgrind` is given, adding the instructions it counted.
    private static func runChild(
        _ workload: Workload, side: Side, options: Options, directory: URL, valgrind: URL?
    ) throws -> Measurement {
        let arguments =
            [
                "--child", workload.slug, side.rawValue, "--rows", String(options.rows), "--directory", directory.path,
            ] + (options.withoutHistory ? ["--no-history"] : []) + (options.statements ? ["--statements"] : [])
        let counts = directory.appendingPathComponent("callgrind-\(workload.slug)-\(side.rawValue).out")
        let errors = directory.appendingPathComponent("callgrind-\(workload.slug)-\(side.rawValue).err")
        let process = Process()
        if let valgrind {
            process.executableURL = valgrind
            process.arguments = Callgrind.arguments(running: executableURL, arguments, output: counts)
            // valgrind's messages go to a file, shown if the child fails.
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
        } else {
            process.executableURL = executableURL
            process.arguments = arguments
        }
        // The measurement goes to a file, read once the child has ended: a pipe's end waits for every process
        // holding it, including any the child left behind.
        let output = directory.appendingPathComponent("output-\(workload.slug)-\(side.rawValue).json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        let end = process.waitForEnd()
        guard end.status == 0, end.exited else {
            let messages = valgrind == nil ? "" : (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ChildError(
                "\(workload.slug) on \(side.name) failed (\(end.exited ? "exit status" : "signal") \(end.status))"
                    + (messages.isEmpty ? "" : ":\n" + messages))
        }
        let data = try Data(contentsOf: output)
        let line = data.split(separator: UInt8(ascii: "\n")).last ?? Data()
        var measurement = try JSONDecoder().decode(Measurement.self, from: Data(line))
        if valgrind != nil {
            defer { try? FileManager.default.removeItem(at: counts) }
            let count = try Callgrind.instructions(inOutput: String(contentsOf: counts, encoding: .utf8))
            guard count > 0 else {
                throw ChildError(
                    "callgrind counted no instructions in \(Callgrind.timedFunction) for \(workload.slug) on "
                        + "\(side.name): build the program in release mode, unstripped")
            }
            measurement.instructions = [count]
        }
        return measurement
    }

    /// This program, run again for each child.
    private static var executableURL: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    static func makeTemplate(_ template: Template, side: Side, rows: Int, at url: URL) throws {
        switch side {
        case .swiftData: try SwiftDataWorkloads.makeTemplate(template, rows: rows, at: url)
        case .raw: try RawWorkloads.makeTemplate(template, rows: rows, at: url)
        }
    }

    static func storeName(_ side: Side) -> String {
        side == .swiftData ? "swiftdata.store" : "raw.sqlite"
    }

    static func templateURL(_ template: Template, side: Side, in directory: URL) -> URL {
        directory.appendingPathComponent("\(template.rawValue)-\(storeName(side))")
    }

    /// Copies a closed store: its file, and its write-ahead log if one is left.
    static func copyStore(from source: URL, to destination: URL) throws {
        try FileManager.default.copyItem(at: source, to: destination)
        let log = URL(fileURLWithPath: source.path + "-wal")
        if FileManager.default.fileExists(atPath: log.path) {
            try FileManager.default.copyItem(at: log, to: URL(fileURLWithPath: destination.path + "-wal"))
        }
    }
}

/// The progress line on standard error, rewritten in place (carriage return, clear to the end of the line) when
/// standard error is a terminal; nothing at all otherwise, so that logs and pipes get only the results.
enum Progress {
    private static let isTerminal = isatty(STDERR_FILENO) == 1

    static func show(_ text: String) {
        guard isTerminal else { return }
        // A line longer than the terminal would wrap, and the carriage return would then rewrite its last row only.
        var window = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &window) == 0 ? Int(window.ws_col) : 0
        let line = columns > 1 ? String(text.prefix(columns - 1)) : text
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// Clears the line, so that what follows starts on an empty one.
    static func done() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
