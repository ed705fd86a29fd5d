import SwiftBasicFormat
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@testable import SwiftDataMacros

/// A diagnostic a macro is expected to emit: its message, where it lands, and the source after applying its
/// fix-it, if it has one.
struct ExpectedDiagnostic {
    var message: String
    var line: Int
    var column: Int
    var fixIt: String?
    var fixedSource: String?
}

/// The result of expanding `source` with the package's macros, as the compiler would see it.
struct Expansion {
    let expanded: String
    let diagnostics: [(message: String, line: Int, column: Int, fixIts: [String], fixedSources: [String])]
}

var allMacros: [String: any Macro.Type] {
    [
        "Model": ModelMacro.self,
        "_PersistedProperty": PersistedPropertyMacro.self,
        "Attribute": AttributeMacro.self,
        "Relationship": RelationshipMacro.self,
        "Transient": TransientMacro.self,
        "ModelActor": ModelActorMacro.self,
    ]
}

/// Expands `source` as the compiler would for a class that does not conform to `conformances` yet: a subclass of
/// a `@Model` class already conforms to `PersistentModel` and `Observable`, so the compiler passes none.
func expand(
    _ source: String, macros: [String: any Macro.Type] = allMacros,
    conformances: [TypeSyntax] = ["PersistentModel", "Observable"]
) -> Expansion {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
        sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "test.swift")])
    let specs = macros.mapValues { macro in
        switch macro {
        case is ModelMacro.Type: MacroSpec(type: macro, conformances: conformances)
        case is ModelActorMacro.Type: MacroSpec(type: macro, conformances: ["ModelActor"])
        default: MacroSpec(type: macro)
        }
    }
    let expanded = file.expand(
        macroSpecs: specs,
        contextGenerator: {
            BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts())
        },
        indentationWidth: .spaces(4))
    let diagnostics = context.diagnostics.map { diagnostic in
        let location = context.location(for: diagnostic.position, anchoredAt: diagnostic.node, fileName: "test.swift")
        let fixedSources = diagnostic.fixIts.map { fixIt in
            apply(fixIt.edits, anchoredAt: diagnostic.node, in: context, to: source)
        }
        return (
            diagnostic.message, location.line, location.column, diagnostic.fixIts.map(\.message.message), fixedSources
        )
    }
    return Expansion(expanded: expanded.description, diagnostics: diagnostics)
}

/// Applies a fix-it's edits, whose positions are in the (possibly detached) tree of `node`, to the source.
private func apply(
    _ edits: [SourceEdit], anchoredAt node: Syntax, in context: BasicMacroExpansionContext, to source: String
) -> String {
    var bytes = Array(source.utf8)
    let located = edits.map { edit in
        let start = context.location(for: edit.range.lowerBound, anchoredAt: node, fileName: "test.swift").offset
        let end = context.location(for: edit.range.upperBound, anchoredAt: node, fileName: "test.swift").offset
        return (start, end, edit.replacement)
    }
    for (start, end, replacement) in located.sorted(by: { $0.0 > $1.0 }) {
        bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Checks that `source` expands to `expected` (compared line by line, ignoring trailing spaces) with exactly
/// the expected diagnostics.
func assertExpansion(
    _ source: String, expandsTo expected: String, diagnostics expectedDiagnostics: [ExpectedDiagnostic] = [],
    macros: [String: any Macro.Type] = allMacros, conformances: [TypeSyntax] = ["PersistentModel", "Observable"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let expansion = expand(source, macros: macros, conformances: conformances)
    let actualLines = expansion.expanded.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.replacing(/\s+$/, with: "")
    }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.replacing(/\s+$/, with: "")
    }
    #expect(
        actualLines.drop { $0.isEmpty } == expectedLines.drop { $0.isEmpty },
        "expansion differs:\n\(expansion.expanded)", sourceLocation: sourceLocation)
    #expect(
        expansion.diagnostics.count == expectedDiagnostics.count,
        "diagnostics: \(expansion.diagnostics.map { "\($0.line):\($0.column) \($0.message)" })",
        sourceLocation: sourceLocation)
    for (actual, wanted) in zip(expansion.diagnostics, expectedDiagnostics) {
        #expect(actual.message == wanted.message, sourceLocation: sourceLocation)
        #expect(
            actual.line == wanted.line && actual.column == wanted.column,
            "diagnostic at \(actual.line):\(actual.column), expected \(wanted.line):\(wanted.column)",
            sourceLocation: sourceLocation)
        #expect(actual.fixIts == (wanted.fixIt.map { [$0] } ?? []), sourceLocation: sourceLocation)
        if let fixed = wanted.fixedSource {
            #expect(
                actual.fixedSources.first == fixed, "fixed source:\n\(actual.fixedSources.first ?? "none")",
                sourceLocation: sourceLocation)
        }
    }
}
