import Foundation

/// Removes a connection string's password from text: from libpq's messages, which may echo parts of the string
/// (a port or host libpq read from a badly escaped password, an invalid percent-encoding), from the server names
/// libpq reports, and from descriptions of a configuration.
///
/// It works from the connection string itself: every way the password may have been read (the URL's user
/// information up to the first `@` and up to the last one, raw and percent-decoded, a `password=` keyword or query
/// parameter, quoted or not), and each piece of those between the characters a URL splits on, is replaced by `***`
/// wherever it appears. The URL's user information and `password=` values are also masked by their form.
package struct PostgresRedaction: Sendable {
    /// The texts to remove, longest first.
    private let secrets: [String]

    /// The shortest piece of a password, between separators, that is removed on its own.
    private static let shortestPiece = 3

    /// A redaction of the password of `connectionString`.
    package init(_ connectionString: String) {
        var candidates: Set<String> = []
        func add(_ value: Substring) {
            guard !value.isEmpty else { return }
            let text = String(value)
            candidates.insert(text)
            if let decoded = text.removingPercentEncoding { candidates.insert(decoded) }
            candidates.insert(Self.decodingValidEscapes(text))
            // Pieces between the characters on which a URL is split, as libpq may have read them apart (a comma
            // separates the hosts and the ports of a multi-host URL; brackets enclose an IPv6 address).
            for piece in text.split(whereSeparator: { "/@:?#&%=,[]".contains($0) })
            where piece.count >= Self.shortestPiece && piece != "password" {
                candidates.insert(String(piece))
            }
        }
        let text = Substring(connectionString)
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            if let colon = rest.firstIndex(of: ":") {
                if let lastAt = rest.lastIndex(of: "@"), colon < lastAt {
                    add(rest[rest.index(after: colon)..<lastAt])
                    if let firstAt = rest.firstIndex(of: "@"), firstAt != lastAt, colon < firstAt {
                        add(rest[rest.index(after: colon)..<firstAt])
                    }
                }
            }
            // A password given as a query parameter.
            for match in rest.matches(of: /[?&]password=([^&]*)/) {
                add(match.output.1)
                // A raw `&` in the password splits it into parameters: it may run to the end of the URL.
                add(rest[match.output.1.startIndex...])
            }
        }
        // `password=value` or `password = 'quoted value'` pairs.
        for match in text.matches(of: /password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/) {
            var value = match.output.1
            if value.hasPrefix("'") {
                value = value.dropFirst().dropLast()
                add(
                    Substring(
                        value.replacingOccurrences(of: "\\'", with: "'").replacingOccurrences(of: "\\\\", with: "\\")))
            }
            add(value)
        }
        secrets = candidates.sorted { $0.count > $1.count }
    }

    /// Whether the connection string has a password to remove.
    package var isEmpty: Bool { secrets.isEmpty }

    /// `text` without the password: each way it may appear replaced by `***`, and URL user information and
    /// `password=` values masked by their form.
    package func callAsFunction(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return Self.maskingForm(result)
    }

    /// Optional text without the password.
    package func callAsFunction(_ text: String?) -> String? {
        text.map { self($0) }
    }

    /// `error` with the password removed from its message, detail, server and SQL.
    package func callAsFunction(_ error: PostgresError) -> PostgresError {
        guard !secrets.isEmpty else { return error }
        return PostgresError(
            error.kind, sqlState: error.sqlState, server: self(error.server), message: self(error.message),
            detail: self(error.detail), sql: self(error.sql), constraint: error.constraint)
    }

    /// `text` with the password of any connection URL in it (its user information after the first `:`, up to the
    /// last `@` before the host) and any `password=` value replaced by `***`.
    package static func maskingForm(_ text: String) -> String {
        var result = text.replacing(
            /(postgres(?:ql)?:\/\/[^:@\s\/]*):[^\s]*@/, with: { "\($0.output.1):***@" })
        result = result.replacing(/password\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]+)/, with: "password=***")
        // libpq quotes the value it could not read in a connection option or a URL.
        result = result.replacing(/(invalid [^"]* value )"[^"]*"/, with: { "\($0.output.1)\"***\"" })
        result = result.replacing(/(percent-encoded token: )"[^"]*"/, with: { "\($0.output.1)\"***\"" })
        result = result.replacing(/(query parameter: )"[^"]*"/, with: { "\($0.output.1)\"***\"" })
        return result
    }

    /// `text` with its valid `%XX` escapes decoded, and any others left as they are.
    private static func decodingValidEscapes(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let first = utf8.first {
            if first == UInt8(ascii: "%"), utf8.count >= 3,
                let byte = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(byte)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(first)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
