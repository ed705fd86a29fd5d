import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres

/// A connection string's password never appears in what the library shows: an error's description, localized
/// description, `String(describing:)`, `String(reflecting:)` and `dump()`, a configuration's descriptions, `dump()`
/// and `Mirror`, or a notice it logs, however the password is written and escaped.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresPasswordTests {
    /// Everything the library shows of `error`.
    static func outputs(of error: any Error) -> [String] {
        var dumped = ""
        dump(error, to: &dumped)
        return [
            "\(error)", error.localizedDescription, String(describing: error), String(reflecting: error), dumped,
        ]
    }

    /// Everything the library shows of `configuration`.
    static func outputs(of configuration: PostgresConfiguration) -> [String] {
        var dumped = ""
        dump(configuration, to: &dumped)
        let children = Mirror(reflecting: configuration).children.map { "\($0.label ?? ""): \($0.value)" }
        return [
            "\(configuration)", String(reflecting: configuration), configuration.debugDescription, dumped,
        ] + children
    }

    /// The texts that must not appear: the password, its percent-encoded form, and each piece of it of four
    /// characters or more between the characters a URL is split on.
    static func secrets(of password: String) -> [String] {
        let pieces = password.split(whereSeparator: { "/@:?#&%=,[]' \\".contains($0) }).map(String.init)
            .filter { $0.count >= 4 }
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password
        return [password, encoded] + pieces
    }

    static func expectNoSecret(_ outputs: [String], _ password: String, _ comment: String) {
        for output in outputs {
            for secret in secrets(of: password) {
                #expect(!output.contains(secret), "\(comment): '\(secret)' appears in: \(output)")
            }
        }
    }

    /// The error of opening a container on `url`.
    static func openingError(_ url: String) -> (any Error)? {
        do {
            _ = try ModelContainer(for: Counter.self, configurations: PostgresConfiguration(url: url))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("a raw % that is not percent-encoding", "SeCrEt%zzPaSs"),
        ("a raw / in the password", "SeCrEt/PaSsWd"),
        ("a raw @ in the password", "SeCrEt@PaSsWd"),
        ("a raw ? and # in the password", "SeCrEt?Pa#SsWd"),
        ("a raw : in the password", "SeCrEt:PaSsWd"),
        // libpq reads `user:SeCrEt,PaSs` as two hosts with their ports when a `/` comes before the `@`.
        ("a raw , and / in the password", "SeCrEt,PaSs/WoRd"),
    ])
    func aBadlyEscapedPasswordInAURLNeverShows(_ name: String, _ password: String) throws {
        let server = try PostgresTestServer.shared()
        let url = "postgresql://\(server.user):\(password)@127.0.0.1:\(server.port)/\(server.database)"
        let error = try #require(Self.openingError(url), "\(name): opening fails")
        Self.expectNoSecret(Self.outputs(of: error), password, name)
        Self.expectNoSecret(Self.outputs(of: PostgresConfiguration(url: url)), password, name)
    }

    @Test func aMalformedPortSaysTheConnectionStringIsNotValid() throws {
        let server = try PostgresTestServer.shared()
        let error = try #require(
            Self.openingError("postgresql://\(server.user):SeCrEtPaSs@127.0.0.1:54x32/\(server.database)")
                as? SwiftDataError)
        #expect(error == .loadIssueModelContainer)
        #expect((error.reason ?? "").contains("the connection string is not valid"), "\(error)")
        Self.expectNoSecret(Self.outputs(of: error), "SeCrEtPaSs", "a malformed port")
    }

    @Test func aConfigurationsDumpAndMirrorShowNoPassword() {
        let configuration = PostgresConfiguration(url: "postgresql://app:SeCrEt@PaSs/Wd@db.example.com:5432/app")
        let outputs = Self.outputs(of: configuration)
        Self.expectNoSecret(outputs, "SeCrEt@PaSs/Wd", "dump and Mirror")
        #expect(outputs.contains { $0.contains("db.example.com") }, "the host stays: \(outputs)")
        let keyword = PostgresConfiguration(url: "host=db.example.com password='SeCr Et\\'PaSs' dbname=app")
        Self.expectNoSecret(Self.outputs(of: keyword), "SeCr Et'PaSs", "a quoted keyword password")
    }

    /// Passwords of random characters, URL delimiters among them, placed in a URL's user information (raw or
    /// percent-encoded), in its `password` parameter, or in a `password=` pair (plain or quoted), against the
    /// server with a wrong password, a port nothing listens on, and a malformed port.
    @Test func fuzzedConnectionStringsNeverShowTheirPassword() throws {
        let server = try PostgresTestServer.shared()
        let seed = UInt64(ProcessInfo.processInfo.environment["SWIFTDATA_FUZZ_SEED"] ?? "") ?? .random(in: 1...999_999)
        var random = SeededGenerator(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let specials = Array("%/@:?#&=' \\+!$;,")
        let notices = NoticeLog()
        let token = PostgresNotices.observe { notices.append($0) }
        defer { PostgresNotices.stopObserving(token) }
        for round in 0..<80 {
            var password = ""
            for _ in 0..<Int.random(in: 6...16, using: &random) {
                password.append(
                    Bool.random(using: &random)
                        ? specials.randomElement(using: &random)! : letters.randomElement(using: &random)!)
            }
            // A core of letters that makes the password unlike any other text.
            password.insert(contentsOf: "Zq\(round)Xv", at: password.startIndex)
            let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password
            let quoted =
                "'"
                + password.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "'", with: "\\'") + "'"
            let port = ["\(server.port)", "1", "5x4"].randomElement(using: &random)!
            let host = "127.0.0.1"
            let forms = [
                "postgresql://\(server.user):\(password)@\(host):\(port)/\(server.database)",
                "postgresql://\(server.user):\(encoded)@\(host):\(port)/\(server.database)",
                "postgres://\(server.user)@\(host):\(port)/\(server.database)?password=\(encoded)",
                "postgresql://\(server.user)@\(host):\(port)/\(server.database)?password=\(password)",
                "host=\(host) port=\(port) user=\(server.user) dbname=\(server.database) password=\(quoted)",
                "host=\(host) port=\(port) password=\(encoded) user=\(server.user) dbname=\(server.database)",
            ]
            let url = forms.randomElement(using: &random)!
            let comment = "seed \(seed), round \(round): \(url.count) characters"
            var outputs = Self.outputs(of: PostgresConfiguration(url: url))
            do {
                _ = try PostgresConnection(url)
                Issue.record("\(comment): connected with a wrong password")
            } catch let error as PostgresError {
                outputs += Self.outputs(of: error) + Self.outputs(of: error.swiftDataError)
            }
            Self.expectNoSecret(outputs + notices.all, password, comment)
        }
        print("password fuzzing: 80 connection strings, seed \(seed) (SWIFTDATA_FUZZ_SEED=\(seed) repeats it)")
    }
}

/// Notices logged from libpq's threads.
final class NoticeLog: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

/// A small deterministic random number generator (SplitMix64), so that a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
