/// A command's words after its name: positional arguments and `--option value` pairs (`--flag` alone for flags).
package struct Arguments {
    package var positional: [String] = []
    package var options: [String: String] = [:]

    package init(_ words: ArraySlice<String>, options allowed: Set<String> = [], flags: Set<String> = []) throws {
        var rest = words
        while let word = rest.popFirst() {
            guard word.hasPrefix("--") else {
                positional.append(word)
                continue
            }
            let name = String(word.dropFirst(2))
            if flags.contains(name) {
                options[name] = ""
            } else if allowed.contains(name), let value = rest.popFirst(), !value.hasPrefix("--") {
                options[name] = value
            } else {
                throw UsageError(allowed.contains(name) ? "\(word) needs a value" : "unexpected option '\(word)'")
            }
        }
    }

    /// The one positional argument, named `what` in the message when it is missing or not alone.
    package func single(_ what: String) throws -> String {
        guard positional.count == 1, let value = positional.first, !value.isEmpty else {
            throw UsageError("give one \(what)")
        }
        return value
    }
}
