import Testing

@Suite("@ModelActor expansion")
struct ModelActorMacroTests {
    @Test func anActorGetsApplesMembers() {
        assertExpansion(
            """
            @ModelActor
            actor Importer {
                func run() {}
            }
            """,
            expandsTo: """
                actor Importer {
                    func run() {}

                    nonisolated let modelExecutor: any SwiftData.ModelExecutor

                    nonisolated let modelContainer: SwiftData.ModelContainer

                    init(modelContainer: SwiftData.ModelContainer) {
                        let modelContext = SwiftData.ModelContext(modelContainer)
                        self.modelExecutor = SwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension Importer: SwiftData.ModelActor {
                }
                """)
    }

    @Test func aPublicActorGetsPublicMembers() {
        let expanded = expand("@ModelActor public actor Importer {}").expanded
        #expect(expanded.contains("public nonisolated let modelExecutor"))
        #expect(expanded.contains("public nonisolated let modelContainer"))
        #expect(expanded.contains("public init(modelContainer:"))
    }

    @Test func aClassIsRefused() {
        let expansion = expand("@ModelActor\nfinal class Importer {}")
        #expect(
            expansion.diagnostics.map(\.message) == [
                "@ModelActor applies only to actors: declare the type with 'actor'"
            ])
        #expect(!expansion.expanded.contains("modelExecutor"))
    }
}
