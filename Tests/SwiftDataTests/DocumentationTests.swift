import Foundation
import Testing

/// The documentation of the public API.
@Suite struct DocumentationTests {
    /// Every public declaration in `Sources/` that `import SwiftData` shows has a doc comment, or implements a
    /// protocol requirement whose documentation it inherits (as `==` inherits `Equatable`'s). Names that start with
    /// an underscore, and the members of such types, are not API and are left out.
    @Test func everyPublicSymbolHasADocComment() throws {
        let graph = try SymbolGraph.swiftData()
        let declared = graph.symbols.filter { symbol in
            symbol.location?.uri.contains("/Sources/") == true && symbol.kind.identifier != "swift.extension"
                && !symbol.pathComponents.contains { $0.hasPrefix("_") }
        }
        #expect(declared.count > 300, "the graph has the re-exported modules' symbols: \(declared.count)")
        let undocumented = declared.filter { !$0.isDocumented }.map { symbol in
            let file = symbol.location.map { $0.uri.components(separatedBy: "/Sources/").last ?? $0.uri } ?? "?"
            return "\(file):\((symbol.location?.position.line ?? 0) + 1): \(symbol.name)"
        }
        let list = undocumented.sorted().joined(separator: "\n")
        #expect(list == "", "\(undocumented.count) public symbols without a doc comment:\n\(list)")
    }
}
