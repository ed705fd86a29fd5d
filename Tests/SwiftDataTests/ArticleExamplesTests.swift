import Foundation
import TestProcessSupport
import Testing

/// The code examples of the documentation's articles and of the README compile against the built modules, so that
/// they cannot fall behind the API.
///
/// Every ```` ```swift ```` block of a document is type-checked, with macros expanded, by the `swiftc` that built the
/// package. A document's blocks form one program, in their order, as a reader who copies them one after another
/// gets it: `import SwiftData` and `import Foundation` come first, then the code of the document's
/// `<!-- doc-example-setup ... -->` comments (declarations the text takes as given, such as a model named `Item`;
/// HTML comments are not shown by DocC or on GitHub; the code is indented, or DocC would read a line that starts
/// with `@Model` as a directive of its own), then the blocks. An HTML comment on the line before a block
/// changes that block alone: `<!-- doc-example: standalone -->` type-checks it as a program of its own (the
/// imports, the setup and the block: for a block that declares again what an earlier one declared), and
/// `<!-- doc-example: skip, <reason> -->` leaves it out for the reason given (a fragment of a package manifest,
/// say); each skipped block is listed in the test's output. Errors point at the document's lines.
@Suite struct ArticleExamplesTests {
    /// The package's directory: this file is `Tests/SwiftDataTests/ArticleExamplesTests.swift`.
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let catalog = packageDirectory.appendingPathComponent("Sources/SwiftData/SwiftData.docc")

    /// The documents whose examples are compiled: every article of the catalog, and the README.
    static let documents: [String] = {
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/SwiftData/SwiftData.docc/\($0)" }
            + ["README.md"]
    }()

    @Test func everyArticleIsCompiled() {
        #expect(Self.documents.count >= 8, "articles found in \(Self.catalog.path): \(Self.documents)")
    }

    @Test(arguments: documents) func examplesCompile(document: String) throws {
        let text = try String(
            contentsOf: Self.packageDirectory.appendingPathComponent(document), encoding: .utf8)
        let examples = try DocumentExamples(text)
        #expect(!examples.blocks.isEmpty, "\(document) has no ```swift example")
        for skipped in examples.skipped {
            print("\(document):\(skipped.line): example not compiled: \(skipped.reason)")
        }
        let name = (document as NSString).lastPathComponent
        var programs = [examples.program(of: examples.blocks.filter { !$0.standalone }, document: name)]
        programs += examples.blocks.filter(\.standalone).map { examples.program(of: [$0], document: name) }
        for program in programs where !program.isEmpty {
            let output = try Self.typecheck(program)
            #expect(output.isEmpty, "the examples of \(document) do not compile:\n\(output)")
        }
    }

    @Test func markersAreRead() throws {
        let examples = try DocumentExamples(
            """
            Text.
            <!-- doc-example-setup
                struct Given {
                    let a = 1
                }
            -->
            ```swift
            let a = Given()
            ```
            <!-- doc-example: standalone -->
            ```swift
            let a = 2
            ```
            <!-- doc-example: skip, a manifest fragment -->
            ```swift
            .product(name: "SwiftData")
            ```
            ```sh
            swift build
            ```
            """)
        #expect(examples.setup.map(\.code) == ["struct Given {\n    let a = 1\n}"])
        #expect(examples.blocks.map(\.code) == ["let a = Given()", "let a = 2"])
        #expect(examples.blocks.map(\.standalone) == [false, true])
        #expect(examples.blocks.map(\.line) == [8, 12])
        #expect(examples.skipped.map(\.reason) == ["a manifest fragment"])
        #expect(throws: DocumentExamples.Malformed.self) {
            try DocumentExamples("<!-- doc-example: skip -->\n```swift\nlet a = 1\n```")
        }
        #expect(throws: DocumentExamples.Malformed.self) {
            try DocumentExamples("<!-- doc-example: sometimes -->\n```swift\nlet a = 1\n```")
        }
    }

    /// The `-I` flags of libpq's headers, from `pkg-config --cflags-only-I libpq` as SwiftPM reads them for `CLibPQ`.
    static let libpqIncludes: [String] = {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--cflags-only-I", "libpq"]
        guard let result = try? RunningChild(process).finish(), result.status == 0 else {
            return ["-I/usr/include/postgresql"]
        }
        return result.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }()

    /// Type-checks `source` as a program's `main.swift` against the built modules; the compiler's diagnostics.
    static func typecheck(_ source: String) throws -> String {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swiftc", "-typecheck", "-diagnostic-style=llvm", "-swift-version", "6", "-warnings-as-errors",
                "-I", buildDirectory.appendingPathComponent("Modules").path,
                "-I", packageDirectory.appendingPathComponent("Sources/CSQLite").path,
                "-I", packageDirectory.appendingPathComponent("Sources/CLibPQ").path,
                // libpq's headers, where `CLibPQ`'s pkg-config file says they are (Debian: /usr/include/postgresql).
            ] + libpqIncludes.flatMap { ["-Xcc", $0] } + [
                "-load-plugin-executable",
                buildDirectory.appendingPathComponent("SwiftDataMacros-tool").path + "#SwiftDataMacros",
                file.path,
            ]
        let result = try RunningChild(process).finish()
        let output = (result.output + result.errors).trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && output.isEmpty ? "" : "status \(result.status)\n\(output)"
    }
}

/// The ```` ```swift ```` blocks of a Markdown document, with the markers that precede them.
struct DocumentExamples {
    struct Block {
        /// The block's code, without its fences.
        let code: String
        /// The line of the document where the code starts.
        let line: Int
        var standalone = false
    }

    struct Skipped {
        let line: Int
        let reason: String
    }

    /// A marker that cannot be read: an unknown word, or a skip without a reason.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var setup: [Block] = []
    private(set) var blocks: [Block] = []
    private(set) var skipped: [Skipped] = []

    init(_ text: String) throws {
        let lines = text.components(separatedBy: "\n")
        var index = 0
        var marker: (text: String, line: Int)?
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "<!-- doc-example-setup" {
                let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "-->" }
                guard let end else { throw Malformed(description: "line \(index + 1): doc-example-setup never ends") }
                setup.append(Block(code: Self.unindented(lines[(index + 1)..<end]), line: index + 2))
                index = end + 1
                continue
            }
            if trimmed.hasPrefix("<!-- doc-example:") && trimmed.hasSuffix("-->") {
                let body = trimmed.dropFirst("<!-- doc-example:".count).dropLast("-->".count)
                marker = (body.trimmingCharacters(in: .whitespaces), index + 1)
                index += 1
                continue
            }
            if trimmed.hasPrefix("```") {
                let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" }
                guard let end else { throw Malformed(description: "line \(index + 1): a code block never ends") }
                if language == "swift" {
                    let code = lines[(index + 1)..<end].joined(separator: "\n")
                    var block = Block(code: code, line: index + 2)
                    switch marker?.text {
                    case nil: blocks.append(block)
                    case "standalone":
                        block.standalone = true
                        blocks.append(block)
                    case let text? where text.hasPrefix("skip,"):
                        let reason = text.dropFirst("skip,".count).trimmingCharacters(in: .whitespaces)
                        guard !reason.isEmpty else {
                            throw Malformed(description: "line \(index): a skipped example needs a reason")
                        }
                        skipped.append(Skipped(line: index + 2, reason: reason))
                    case let text?:
                        throw Malformed(
                            description: "line \(marker?.line ?? index): unknown doc-example marker '\(text)' "
                                + "(standalone, or skip, <reason>)")
                    }
                } else if marker != nil {
                    throw Malformed(description: "line \(index + 1): a doc-example marker before a \(language) block")
                }
                marker = nil
                index = end + 1
                continue
            }
            if !trimmed.isEmpty, let marker {
                throw Malformed(description: "line \(marker.line): a doc-example marker not followed by a code block")
            }
            index += 1
        }
    }

    /// `lines` without the indentation they all share, joined.
    static func unindented(_ lines: ArraySlice<String>) -> String {
        let indentation =
            lines.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
            .joined(separator: "\n")
    }

    /// A `main.swift` of the setup and `blocks`, each line placed at its line of `document` for the compiler's
    /// messages; empty when there are no blocks.
    func program(of blocks: [Block], document: String) -> String {
        guard !blocks.isEmpty else { return "" }
        let parts = setup + blocks
        var imports: [String] = ["import SwiftData", "import Foundation"]
        var body: [String] = []
        for part in parts {
            body.append("#sourceLocation(file: \"\(document)\", line: \(part.line))")
            for line in part.code.components(separatedBy: "\n") {
                // Imports go first: the blocks of a document may each start with theirs.
                if line.hasPrefix("import ") {
                    imports.append(line)
                    body.append("")
                } else {
                    body.append(line)
                }
            }
        }
        body.append("#sourceLocation()")
        return (imports + body).joined(separator: "\n") + "\n"
    }
}
