import Foundation
import SwiftData

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
        } catch let error as SwiftDataError {
            FileHandle.standardError.write(Data("\(name): \(message(for: error))\n".utf8))
            exit(1)
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }

    /// A framework error as its user reads it: what happened, what the store said, and what to do, without the
    /// error's code or SQL.
    package static func message(for error: SwiftDataError) -> String {
        var text = error == SwiftDataError.loadIssueModelContainer ? "cannot open the store" : ""
        if let reason = error.reason {
            text += text.isEmpty ? reason : ": \(reason)"
        } else if text.isEmpty {
            text = "the store failed (\(String(describing: error).split(separator: ":")[0]))"
        }
        let subject = [error.modelName.map { "model \($0)" }, error.propertyName.map { "property \($0)" }]
            .compactMap { $0 }
        if !subject.isEmpty { text += " (\(subject.joined(separator: ", ")))" }
        if var said = error.storeMessage, !said.isEmpty {
            // libpq's messages start with the SQLSTATE the error carries anyway.
            if said.hasPrefix("SQLSTATE "), let colon = said.firstIndex(of: ":") {
                said = String(said[said.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            text += ": \(said.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        if let suggestion = error.suggestion { text += text.hasSuffix(".") ? " \(suggestion)" : ". \(suggestion)" }
        return text
    }
}
