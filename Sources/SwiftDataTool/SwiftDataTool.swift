import Foundation

/// The `swiftdata` command-line tool: inspect, dump, copy and check a store, SQLite or PostgreSQL, from what it
/// records about itself (no app code needed). Each command is a function of its arguments and output that returns
/// the exit code (see `ExitCode`); nothing is ever written to a source store.
public enum SwiftDataTool {
    /// Runs a command line (without the program's name) and returns its exit code.
    public static func run(_ arguments: [String], output: ToolOutput) -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            output.write(help)
            return arguments.isEmpty ? ExitCode.usage : ExitCode.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            output.writeError("swiftdata: error: unknown command '\(name)'\n\(help)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            output.write(command.help)
            return ExitCode.success
        }
        do {
            return try command.run(ToolArguments(rest, command: command), output)
        } catch {
            let error = ToolError.from(error)
            output.writeError("swiftdata \(name): error: \(error)\n")
            return error.exitCode
        }
    }

    /// A command: its name, help, the options it takes (and whether each takes a value), and what it does.
    struct Command: Sendable {
        let name: String
        let summary: String
        let help: String
        let options: [String: Bool]
        let positional: ClosedRange<Int>
        let run: @Sendable (ToolArguments, ToolOutput) throws -> Int32
    }

    static let commands = [
        InspectCommand.command, DumpCommand.command, CopyCommand.command, CheckCommand.command,
    ]

    static var help: String {
        """
        OVERVIEW: Inspect, dump, copy and check the stores of OpenSwiftData apps.

        USAGE: swiftdata <command> <store> [options]

        A store is an SQLite store's path or a PostgreSQL URL (postgres://user@host/database), with the
        PostgreSQL schema after '#' (public without one). Nothing is ever written to a source store.

        COMMANDS:
        \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        EXIT CODES: 0 done (check: all is well), 1 check found problems, 2 wrong command line,
        3 a store could not be used (nothing was written).

        See 'swiftdata <command> --help' for each command.

        """
    }
}

/// A command's arguments: positional ones and `--option [value]`s.
struct ToolArguments {
    var positional: [String] = []
    var options: [String: String] = [:]

    init(_ arguments: [String], command: SwiftDataTool.Command) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            guard let takesValue = command.options[argument] else {
                throw ToolError.usage("unknown option '\(argument)'", command: command.name)
            }
            if takesValue {
                guard index < arguments.count else {
                    throw ToolError.usage("\(argument) needs a value", command: command.name)
                }
                options[argument] = arguments[index]
                index += 1
            } else {
                options[argument] = ""
            }
        }
        guard command.positional.contains(positional.count) else {
            throw ToolError.usage(
                "expected \(command.positional.lowerBound == command.positional.upperBound ? "\(command.positional.lowerBound)" : "\(command.positional.lowerBound) to \(command.positional.upperBound)") store argument(s), got \(positional.count)",
                command: command.name)
        }
    }
}
