import Foundation
import TestProcessSupport
import Testing

/// Seed code that must not compile gets a clear error with a fix-it: checked by compiling it with the
/// `swiftc` that built the package, against the built modules.
@Suite struct CompileDiagnosticsTests {
    /// Type-checks `source` and returns the compiler's diagnostics in LLVM style.
    func typecheck(_ source: String) throws -> String {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("Seed.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-diagnostic-style=llvm", "-swift-version", "6",
            "-I", buildDirectory.appendingPathComponent("Modules").path,
            "-I", package.appendingPathComponent("Sources/CSQLite").path,
            "-load-plugin-executable",
            buildDirectory.appendingPathComponent("SwiftDataMacros-tool").path + "#SwiftDataMacros",
            file.path,
        ]
        let result = try RunningChild(process).finish()
        return result.output + result.errors
    }

    @Test func seedPreviewContainerGetsBothErrors() throws {
        // The ToDo seed's preview container, as written.
        let output = try typecheck(
            """
            import SwiftData
            func previewContainer(_ type: any PersistentModel.Type) throws -> ModelContainer {
                try ModelContainer(for: type,
                                   ModelConfiguration(inMemory: true))
            }
            """)
        #expect(
            output.contains("Seed.swift:3:9: error: 'init(for:_:)' has been renamed to 'init(for:configurations:)'"),
            "\(output)")
        #expect(
            output.contains(
                "Seed.swift:4:24: error: 'init(inMemory:)' has been renamed to 'init(isStoredInMemoryOnly:)'"),
            "\(output)")
    }

    @Test func fixItsRenameAndAddTheLabels() throws {
        let output = try typecheck(
            """
            import SwiftData
            func previewContainer(_ type: any PersistentModel.Type) throws -> ModelContainer {
                try ModelContainer(for: type, ModelConfiguration(inMemory: true))
            }
            """)
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("isStoredInMemoryOnly"), "a fix-it renames the label:\n\(output)")
        #expect(lines.contains("configurations:"), "a fix-it adds the label:\n\(output)")
    }

    @Test func setRelationshipsAreRefused() throws {
        let output = try typecheck(
            """
            import SwiftData
            @Model final class Tag {
                var label = ""
                init() {}
            }
            @Model final class Post {
                var tags: Set<Tag> = []
                init() {}
            }
            """)
        #expect(
            output.contains("a to-many relationship is an array of models: declare [Model] instead of Set<Model>"),
            "\(output)")
    }

    @Test func unstorableTypesAreRefused() throws {
        let output = try typecheck(
            """
            import SwiftData
            struct Point { var x = 0.0 }
            @Model final class Shape {
                var origin = Point()
                init() {}
            }
            """)
        #expect(
            output.contains(
                "this property's type cannot be stored: make it Codable or RawRepresentable, or mark the property @Transient"
            ), "\(output)")
    }

    @Test func seedModelsCompileWithoutWarnings() throws {
        let output = try typecheck(
            """
            import SwiftData
            @Model final class User {
                var name: String
                var email: String
                init(name: String, email: String) {
                    self.name = name
                    self.email = email
                }
            }
            """)
        #expect(output.isEmpty, "\(output)")
    }

    @Test func contextsAndModelsCannotCrossActors() throws {
        let output = try typecheck(
            """
            import SwiftData
            @Model final class Note {
                var text = ""
                init() {}
            }
            func share(_ container: ModelContainer) {
                let context = ModelContext(container)
                let note = Note()
                let sendableContext: any Sendable = context
                let sendableNote: any Sendable = note
            }
            """)
        #expect(
            output.contains("Seed.swift:9:41: error: type 'ModelContext' does not conform to the 'Sendable' protocol"),
            "\(output)")
        #expect(
            output.contains("Seed.swift:10:38: error: type 'Note' does not conform to the 'Sendable' protocol"),
            "\(output)")
    }

    @Test func containersIdentifiersSchemasAndConfigurationsAreSendable() throws {
        let output = try typecheck(
            """
            import SwiftData
            @Model final class Note {
                var text = ""
                init() {}
            }
            @ModelActor actor Notes {
                func text(of id: PersistentIdentifier) -> String? { self[id, as: Note.self]?.text }
            }
            func share(_ container: ModelContainer, _ id: PersistentIdentifier) async {
                let schema = Schema([Note.self])
                let configuration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
                await Task.detached { _ = (container, id, schema, configuration) }.value
                _ = await Notes(modelContainer: container).text(of: id)
            }
            """)
        #expect(output.isEmpty, "\(output)")
    }
}
