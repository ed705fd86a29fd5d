import CSQLite
import Foundation

/// What one side of one workload measured, as a child process reports it to the parent.
struct Measurement: Codable {
    /// The time of each repetition.
    var seconds: [Double]
    /// The processor time of each repetition (user and system), which excludes waiting for the disk and for
    /// other programs.
    var cpuSeconds: [Double]
    /// The highest peak resident memory of the repetitions (see `PeakMemory`).
    var peakKilobytes: Int
    /// The number both sides' trials must agree on.
    var check: Int
    /// The time of each fetch made during the repetitions, for a workload that measures latency; empty otherwise.
    var latencies: [Double]
    /// The instructions of each repetition's timed part, when counted (`--instructions`); the parent adds them.
    var instructions: [Int] = []
    /// The time each repetition's timed part was ready to run but waited for a processor (Linux's scheduler
    /// statistics); empty where the system does not report it. On a loaded machine this, not either side's own
    /// work, can be most of a short workload's time: it is included in `seconds`, never in `cpuSeconds`. It is read
    /// just outside the timed part, so a wait in the few instructions around it counts too (rarely, it exceeds the
    /// time).
    var waitSeconds: [Double] = []
    /// The SQL statements the timed part ran, by kind, when counted (`--statements`, see `StatementCount`).
    var statements: [String: Int]?

    /// Adds the repetitions of another measurement of the same side; its check must be the same.
    mutating func add(_ other: Measurement) throws {
        guard seconds.isEmpty || other.check == check else {
            throw ChildError("repetitions disagree: their checks are \(check) and \(other.check)")
        }
        seconds += other.seconds
        cpuSeconds += other.cpuSeconds
        peakKilobytes = max(peakKilobytes, other.peakKilobytes)
        check = other.check
        latencies += other.latencies
        instructions += other.instructions
        waitSeconds += other.waitSeconds
        guard statements == nil || other.statements == statements else {
            throw ChildError(
                "repetitions ran different statements: \(statements ?? [:]) and \(other.statements ?? [:])")
        }
        statements = other.statements
    }

    var median: Double { Measurement.median(seconds) }
    var cpuMedian: Double { Measurement.median(cpuSeconds) }
    var medianLatency: Double { Measurement.median(latencies) }
    var worstLatency: Double { latencies.max() ?? 0 }
    var medianInstructions: Double { Measurement.median(instructions.map(Double.init)) }
    var medianWait: Double { Measurement.median(waitSeconds) }

    static let empty = Measurement(seconds: [], cpuSeconds: [], peakKilobytes: 0, check: 0, latencies: [])

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The child process: runs one repetition of one side of one workload and prints its `Measurement` as JSON.
///
/// The repetition starts from a fresh copy of the side's template store (or no store, for inserts), sets up
/// what the workload needs, resets the peak memory, and times only the workload itself.
enum ChildProcess {
    ///
    /// Each child works in a folder of its own in `directory` (named after its process), so that children started by
    /// hand with the same `--directory` do not meet; a template store missing there is built by one of them while it
    /// holds a lock on the directory, and the others wait for it.
    static func run(_ workload: Workload, side: Side, rows: Int, directory: URL, countsStatements: Bool) throws {
        if countsStatements { StatementCount.install() }
        let folder = directory.appendingPathComponent("\(workload.slug)-\(side.rawValue)-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent(Runner.storeName(side))
        if let template = workload.template {
            let source = Runner.templateURL(template, side: side, in: directory)
            // The parent has built it; a child started by hand (to profile it) builds it once.
            try withLock(on: directory) {
                if !FileManager.default.fileExists(atPath: source.path) {
                    try Runner.makeTemplate(template, side: side, rows: rows, at: source)
                }
            }
            try Runner.copyStore(from: source, to: store)
        }
        let measurement = try measure(workload, side: side, rows: rows, store: store)
        FileHandle.standardOutput.write(try JSONEncoder().encode(measurement) + Data("\n".utf8))
    }

    /// Runs `body` holding an exclusive lock (`flock`) on the file `.lock` in `directory`, which processes sharing
    /// the directory take in turn; the system lets it go if the process dies.
    static func withLock<Result>(on directory: URL, _ body: () throws -> Result) throws -> Result {
        let path = directory.appendingPathComponent(".lock").path
        let file = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            throw ChildError("cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(file) }
        while flock(file, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw ChildError("cannot lock \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(file, LOCK_UN) }
        return try body()
    }

    /// Sets up, times and checks one repetition; the trial and its store are released before it returns.
    private static func measure(_ workload: Workload, side: Side, rows: Int, store: URL) throws -> Measurement {
        let plan =
            switch side {
            case .swiftData: try SwiftDataWorkloads.plan(workload, rows: rows, store: store)
            case .raw: try RawWorkloads.plan(workload, rows: rows, store: store)
            }
        let trial = try TrialSetup.trial(workload, rows: rows, plan: plan)
        settleHeap()
        PeakMemory.reset()
        let waitBefore = waitingTime()
        StatementCount.start()
        let start = (time: now(CLOCK_MONOTONIC), cpu: now(CLOCK_PROCESS_CPUTIME_ID))
        try timed(trial)
        let end = (time: now(CLOCK_MONOTONIC), cpu: now(CLOCK_PROCESS_CPUTIME_ID))
        let statements = StatementCount.stop()
        let waitAfter = waitingTime()
        let peak = PeakMemory.kilobytes()
        var measurement = Measurement(
            seconds: [end.time - start.time], cpuSeconds: [end.cpu - start.cpu], peakKilobytes: peak,
            check: try trial.check(), latencies: try trial.latencies())
        if let waitBefore, let waitAfter { measurement.waitSeconds = [waitAfter - waitBefore] }
        measurement.statements = statements
        return measurement
    }

    /// How long this thread has been ready to run but waiting for a processor, in seconds: the second number of
    /// Linux's `/proc/thread-self/schedstat`; `nil` where there is none. Read with `open` and `read` into a buffer on
    /// the stack, so that reading it costs a few microseconds.
    static func waitingTime() -> Double? {
        let file = open("/proc/thread-self/schedstat", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> Double? in
            let count = read(file, buffer.baseAddress, buffer.count)
            guard count > 0, let space = buffer[..<count].firstIndex(of: UInt8(ascii: " ")) else { return nil }
            var nanoseconds = 0
            for byte in buffer[(space + 1)..<count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
                nanoseconds = nanoseconds * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return Double(nanoseconds) / 1e9
        }
    }

    /// Makes the allocator put away what the setup freed, so that the timed part does not pay for it.
    ///
    /// glibc's `malloc` files a freed chunk that its per-size caches do not take in an unsorted list, and sorts
    /// that list into its bins only when a later request misses those caches, at most 10,000 chunks per request.
    /// After a setup that freed many chunks, the first such request in the timed part sorted 10,000 of them:
    /// workload 7's one small save counted 590,000 of its 700,000 instructions in one 48-byte allocation (the
    /// history's buffer, the first of a size the setup had not left cached). Requests larger than any freed chunk,
    /// made and freed here, sort the list (and merge the small chunks waiting in fast bins) on both sides, outside
    /// the measured part; once it is sorted, each costs a few hundred instructions.
    static func settleHeap() {
        #if canImport(Glibc)
            for _ in 0..<200 {
                // Below glibc's mmap threshold (at least 128 KiB), so that the request goes through the bins; made
                // through SQLite's allocator, which calls `malloc`, so that the compiler cannot drop the pair as it
                // drops a `malloc` whose memory is not used.
                sqlite3_free(sqlite3_malloc64(64 * 1024))
            }
        #endif
    }

    /// Runs the timed part of a trial: a function of its own, so that a profiler can measure just it
    /// (`valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*ChildProcess*timed*'`).
    @inline(never)
    private static func timed(_ trial: Trial) throws {
        try trial.run()
    }

    /// The time of a clock, in seconds.
    static func now(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

struct ChildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Process {
    /// Waits for a started child to end, and returns its exit status, or the signal that ended it (`exited` false).
    /// Asked of the system with `waitid` and `WNOWAIT`, which leaves the child for Foundation to collect:
    /// `waitUntilExit` goes on waiting while a process the child left behind holds descriptors it inherited from it.
    func waitForEnd() -> (status: Int32, exited: Bool) {
        while true {
            if !isRunning { return (terminationStatus, terminationReason == .exit) }
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
                info._sifields._sigchld.si_pid != 0
            {
                return (info._sifields._sigchld.si_status, info.si_code == Int32(CLD_EXITED))
            }
            usleep(10_000)
        }
    }
}
