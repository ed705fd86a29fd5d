import SwiftDataCore

/// Why a command could not do its work, with the exit code it ends with.
enum ToolError: Error, CustomStringConvertible {
    /// The command line is wrong: what is wrong, and the command's name for its help.
    case usage(String, command: String?)
    case noStore(String)
    case cannotOpen(String, String)
    case notAStore(String)
    case targetNotEmpty(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let problem, let command):
            "\(problem)\nRun 'swiftdata \(command.map { "\($0) " } ?? "")--help' for how to use it."
        case .noStore(let path): "there is no store at \(path): check the path"
        case .cannotOpen(let store, let reason): "\(store) cannot be opened: \(reason)"
        case .notAStore(let store):
            "\(store) is not a store of OpenSwiftData (it has no _swiftdata_metadata table); it was left untouched"
        case .targetNotEmpty(let store):
            "\(store) is not empty: copy into a new SQLite file or an empty PostgreSQL schema"
        case .failed(let reason): reason
        }
    }

    /// The exit code: 2 for a wrong command line, 3 for a store the command could not use.
    var exitCode: Int32 {
        if case .usage = self { return ExitCode.usage }
        return ExitCode.failure
    }

    /// A store's error, said as the tool says its own.
    static func from(_ error: any Error) -> ToolError {
        if let error = error as? ToolError { return error }
        if let error = error as? SwiftDataError {
            return .failed([error.reason, error.suggestion].compactMap { $0 }.joined(separator: ". "))
        }
        return .failed("\(error)")
    }
}

/// The exit codes of `swiftdata`.
public enum ExitCode {
    /// The command did its work (`check`: the store is sound).
    public static let success: Int32 = 0
    /// `check` found problems.
    public static let problems: Int32 = 1
    /// The command line is wrong.
    public static let usage: Int32 = 2
    /// A store could not be opened, is not a store of this framework, or the work failed (nothing was written).
    public static let failure: Int32 = 3
}

/// Where a command writes: its output, its errors, and whether errors go to a terminal (for a progress line).
public struct ToolOutput {
    /// Writes to standard output.
    public let write: (String) -> Void
    /// Writes to standard error.
    public let writeError: (String) -> Void
    /// Whether standard error is a terminal, where `copy` shows its progress.
    public let isTerminal: Bool

    /// Output to the given functions.
    public init(write: @escaping (String) -> Void, writeError: @escaping (String) -> Void, isTerminal: Bool = false) {
        self.write = write
        self.writeError = writeError
        self.isTerminal = isTerminal
    }

    /// Writes a line to standard output.
    func line(_ text: String = "") { write(text + "\n") }
}
