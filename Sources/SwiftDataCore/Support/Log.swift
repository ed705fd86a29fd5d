import Foundation
import Synchronization

/// Diagnostics on standard error. `SWIFTDATA_LOG=debug` adds every SQL statement a store runs.
package enum Log {
    package static let isDebugEnabled = ProcessInfo.processInfo.environment["SWIFTDATA_LOG"] == "debug"
    private static let reported = Mutex<Set<String>>([])

    package static func error(_ message: String) {
        write("SwiftData error: \(message)")
    }

    package static func warning(_ message: String) {
        write("SwiftData warning: \(message)")
    }

    /// Reports `message` once per process, however often it happens.
    package static func warningOnce(_ message: String) {
        let isNew = reported.withLock { $0.insert(message).inserted }
        if isNew { warning(message) }
    }

    package static func debug(_ message: @autoclosure () -> String) {
        if isDebugEnabled { write("SwiftData: \(message())") }
    }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
