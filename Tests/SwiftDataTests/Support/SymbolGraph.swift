import Foundation
import TestProcessSupport

/// The public API that `import SwiftData` shows, read from the symbol graph that the toolchain's
/// `swift-symbolgraph-extract` writes for the built `SwiftData` module with the modules it re-exports, as the
/// documentation build (`.ci/docs`) reads it.
struct SymbolGraph {
    struct Symbol: Decodable {
        struct Kind: Decodable { let identifier: String }
        struct Location: Decodable {
            struct Position: Decodable { let line: Int }
            let uri: String
            let position: Position
        }
        struct DocComment: Decodable {
            struct Line: Decodable { let text: String }
            let lines: [Line]
        }

        let kind: Kind
        let pathComponents: [String]
        let location: Location?
        let docComment: DocComment?

        var name: String { pathComponents.joined(separator: ".") }
        var isDocumented: Bool { docComment?.lines.contains { !$0.text.allSatisfy(\.isWhitespace) } ?? false }
    }

    private struct File: Decodable { let symbols: [Symbol] }

    /// Every symbol of the module and of its extensions to other modules' types.
    let symbols: [Symbol]

    /// The directory of the package: this file is `Tests/SwiftDataTests/Support/SymbolGraph.swift`.
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Extracts the graph of the `SwiftData` module built beside the test program, with `SwiftDataCore` and
    /// `SwiftDataSQLite`, which it re-exports. Documentation inherited from a protocol counts as documentation.
    static func swiftData() throws -> SymbolGraph {
        let output = TemporaryDirectory()
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("Modules")
        let process = ChildProcess()
        process.executableURL = try toolchainTool("swift-symbolgraph-extract")
        process.arguments = [
            "-module-name", "SwiftData", "-I", modules.path,
            "-I", packageDirectory.appendingPathComponent("Sources/CSQLite").path,
            "-experimental-allowed-reexported-modules=SwiftDataCore,SwiftDataSQLite",
            "-minimum-access-level", "public", "-emit-extension-block-symbols", "-output-dir", output.url.path,
        ]
        let result = try RunningChild(process).finish()
        guard result.status == 0 else {
            throw ToolFailure(message: "swift-symbolgraph-extract: \(result.errors)")
        }
        var symbols: [Symbol] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.url.path) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: output.url.appendingPathComponent(file))
            symbols += try JSONDecoder().decode(File.self, from: data).symbols
        }
        return SymbolGraph(symbols: symbols)
    }

    /// A tool of the toolchain whose `swift` is on `PATH` (symbolic links resolved), as `Package.swift` finds it.
    static func toolchainTool(_ name: String) throws -> URL {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let tool = swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        throw ToolFailure(message: "no \(name) beside the swift on PATH")
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
