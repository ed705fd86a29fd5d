import Foundation
import Synchronization

/// Diagnostics on standard error. `SWIFTDATA_LOG=debug` adds every SQL statement a store runs.
///
/// While a task runs with `Log.$capture` bound, its messages (and those of the tasks it starts) go to that
/// `LogCapture` instead, so a test can assert on the warnings it expects without printing them.
package enum Log {
    package static let isDebugEnabled = ProcessInfo.processInfo.environment["SWIFTDATA_LOG"] == "debug"
    private static let reported = Mutex<Set<String>>([])

    /// Where messages go in place of standard error, for the task that binds it and the tasks it starts.
    @TaskLocal package static var capture: LogCapture?

    package static func error(_ message: String) {
        write("SwiftData error: \(message)")
    }

    package static func warning(_ message: String) {
        write("SwiftData warning: \(message)")
    }

    /// Reports `message` once per process, however often it happens; once per capture while one is bound.
    package static func warningOnce(_ message: String) {
        let isNew = capture?.isNew(message) ?? reported.withLock { $0.insert(message).inserted }
        if isNew { warning(message) }
    }

    package static func debug(_ message: @autoclosure () -> String) {
        if isDebugEnabled { write("SwiftData: \(message())") }
    }

    private static func write(_ line: String) {
        if let capture {
            capture.append(line)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

/// The messages logged while it was bound to `Log.$capture`, in order, each as standard error would show it
/// (`SwiftData warning: ...`).
package final class LogCapture: Sendable {
    private let state = Mutex<(lines: [String], reported: Set<String>)>(([], []))

    package init() {}

    /// The messages so far.
    package var lines: [String] { state.withLock { $0.lines } }

    fileprivate func append(_ line: String) {
        state.withLock { $0.lines.append(line) }
    }

    fileprivate func isNew(_ message: String) -> Bool {
        state.withLock { $0.reported.insert(message).inserted }
    }
}
