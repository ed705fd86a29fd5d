import Foundation

/// The peak resident memory of this process, from Linux's accounting.
///
/// Each side of each workload runs in its own child process, so nothing of the other side or of an earlier
/// workload counts. Before each timed repetition the child writes `5` to `/proc/self/clear_refs`, which resets
/// the peak (`VmHWM` in `/proc/self/status`) to what is resident at that moment; after it, the peak is read. What
/// the setup left resident (for example the registered models of workload 7) counts; what the setup freed does
/// not. `getrusage`'s `ru_maxrss` is not used on Linux: it cannot be reset, and it starts from the parent's
/// peak in a child started with `vfork`.
enum PeakMemory {
    /// Whether the kernel lets the peak be reset.
    static let canReset: Bool = reset()

    /// Resets the peak to the memory resident now; `false` when the kernel does not allow it.
    @discardableResult
    static func reset() -> Bool {
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        return write(file, "5", 1) == 1
    }

    /// The peak resident memory in kilobytes: since the last reset, or since the process started.
    static func kilobytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let value = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        {
            return value
        }
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss) / 1024  // bytes there
        #else
            getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss)
        #endif
    }
}
