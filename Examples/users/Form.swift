import ExampleSupport
import Foundation

/// The tutorial's `NewDataView` form on a terminal: asks for each field on standard input, one line each. On a
/// terminal it prompts, and when editing shows the current value, which an empty answer keeps; from a pipe or a
/// file it reads the lines without prompting.
struct Form {
    let isInteractive = isatty(STDIN_FILENO) != 0

    /// The answer for the field called `label`, or `current` when the answer is empty.
    func ask(_ label: String, current: String? = nil) throws -> String {
        if isInteractive {
            print(current.map { "\(label) [\($0)]: " } ?? "\(label): ", terminator: "")
            fflush(nil)  // the prompt has no newline to flush it
        }
        guard let line = readLine() else {
            throw Failure("the form ended before the \(label.lowercased()) was given")
        }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? current ?? "" : answer
    }
}
