import Foundation
import TestProcessSupport

/// Runs one of the example programs as a user runs it, with its default store in a temporary data home.
struct ExampleRunner {
    let program: String
    let dataHome = TemporaryDirectory()

    /// The program's path: it is built beside the test program.
    var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(program).path
    }

    /// The program's exit status, standard output and standard error.
    func run(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        try run(arguments: arguments)
    }

    /// The program's exit status, standard output and standard error; `input` is its standard input (empty: none),
    /// `environment` variables to set or replace.
    func run(arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.environment?["XDG_DATA_HOME"] = dataHome.url.path
        return try collect(process, input: input)
    }

    /// Runs the program on a pseudo-terminal `columns` wide, through util-linux's `script`, and returns its exit
    /// status and what the terminal showed: `input` typed in (and echoed), and the program's standard output (unless
    /// `discardingOutput` sends it to `/dev/null`) and standard error.
    func runOnTerminal(arguments: [String], input: String = "", columns: Int = 80, discardingOutput: Bool = false)
        throws -> (status: Int32, shown: String)
    {
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command =
            "stty cols \(columns); XDG_DATA_HOME='\(dataHome.url.path)' \(quoted.joined(separator: " "))"
            + (discardingOutput ? " >/dev/null" : "")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["script", "--quiet", "--return", "--command", command, "/dev/null"]
        let result = try collect(process, input: input)
        return (result.status, result.output + result.errors)
    }

    /// Starts `process` with `input` (small) on its standard input, and collects its output until it exits.
    private func collect(_ process: ChildProcess, input: String) throws -> (
        status: Int32, output: String, errors: String
    ) {
        try RunningChild(process, input: input).finish()
    }
}
