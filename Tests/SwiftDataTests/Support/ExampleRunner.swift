import Foundation

/// Runs one of the example programs as a user runs it, with its default store in a temporary data home.
struct ExampleRunner {
    let program: String
    let dataHome = TemporaryDirectory()

    /// The program's exit status, standard output and standard error.
    func run(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        try run(arguments: arguments)
    }

    func run(arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome.url.path]) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}
