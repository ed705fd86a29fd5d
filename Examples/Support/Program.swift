import Foundation

/// How the example programs run their command line.
package enum Program {
    /// Runs `body` with the arguments after the program's name. What it throws is printed on standard error after
    /// `name: `: a `UsageError` with `usage` and exit status 2, anything else with exit status 1.
    @MainActor package static func run(_ name: String, usage: String, _ body: @MainActor ([String]) throws -> Void) {
        do {
            try body(Array(CommandLine.arguments.dropFirst()))
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("\(name): \(error.message)\n\(usage)\n".utf8))
            exit(2)
        } catch let error as Failure {
            FileHandle.standardError.write(Data("\(name): \(error.message)\n".utf8))
            exit(1)
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }
}
