import Testing

@Suite("@Model diagnostics")
struct ModelMacroDiagnosticsTests {
    @Test func structIsRefusedWithAFixIt() throws {
        let source = """
            @Model
            struct Song {
                var title: String
            }
            """
        let expansion = expand(source)
        #expect(expansion.diagnostics.count == 1)
        let diagnostic = try #require(expansion.diagnostics.first)
        #expect(diagnostic.message.hasPrefix("@Model applies only to classes"))
        #expect((diagnostic.line, diagnostic.column) == (2, 1))
        #expect(diagnostic.fixIts == ["Declare it as a class"])
        #expect(diagnostic.fixedSources.first == source.replacing("struct Song", with: "class Song"))
    }

    @Test func actorIsRefusedWithAFixIt() throws {
        let expansion = expand("@Model actor Library {\n    var name = \"\"\n}")
        #expect(expansion.diagnostics.map(\.fixIts) == [["Declare it as a class"]])
        #expect(expansion.diagnostics.first.map { ($0.line, $0.column) } ?? (0, 0) == (1, 8))
        #expect(expansion.diagnostics.first?.fixedSources.first == "@Model class Library {\n    var name = \"\"\n}")
    }

    @Test func enumIsRefusedWithoutAFixIt() throws {
        let expansion = expand("@Model\nenum Kind {\n    case a\n}")
        #expect(expansion.diagnostics.count == 1)
        #expect(expansion.diagnostics.first.map { ($0.line, $0.column) } ?? (0, 0) == (2, 1))
        #expect(expansion.diagnostics.first?.fixIts == [])
    }

    @Test func cascadeAttributeSuggestsARelationship() throws {
        // The seed's Album model, as written.
        let source = """
            @Model class Album {
              @Attribute(.unique) var name: String
              var artist: String
              var genre: String

              // The cascade relationship instructs SwiftData to delete all
                // songs when the album is deleted.
              @Attribute(.cascade) var songs: [Song]? = []
            }
            """
        let expansion = expand(source)
        #expect(expansion.diagnostics.count == 1)
        let diagnostic = try #require(expansion.diagnostics.first)
        #expect(
            diagnostic.message
                == "'.cascade' is a delete rule, and delete rules belong to relationships: use @Relationship(deleteRule: .cascade)"
        )
        #expect((diagnostic.line, diagnostic.column) == (8, 14))
        #expect(diagnostic.fixIts == ["Replace with @Relationship(deleteRule: .cascade)"])
        #expect(
            diagnostic.fixedSources.first
                == source.replacing(
                    "@Attribute(.cascade) var songs", with: "@Relationship(deleteRule: .cascade) var songs"))
        // The misplaced option is not passed on to the schema (whose key paths a class that may have subclasses
        // roots at any subclass).
        #expect(
            expansion.expanded.contains(
                "keypath: \\Root.songs, defaultValue: ([] as [Song]?), metadata: SwiftData.Schema.Attribute())"))
    }

    @Test func transientWithoutDefaultIsRefused() throws {
        let source = "@Model class Item {\n    @Transient var cache: Int\n    @Transient var note: String?\n}"
        let expansion = expand(source)
        #expect(expansion.diagnostics.count == 1)
        let diagnostic = try #require(expansion.diagnostics.first)
        #expect(
            diagnostic.message
                == "a @Transient stored property needs a default value: models loaded from a store start with it")
        #expect((diagnostic.line, diagnostic.column) == (2, 20))
        #expect(diagnostic.fixIts == ["Add a default value"])
        #expect(
            diagnostic.fixedSources.first
                == "@Model class Item {\n    @Transient var cache: Int = <#default value#>\n    @Transient var note: String?\n}"
        )
    }

    @Test func computedTransientNeedsNoDefault() throws {
        let expansion = expand(
            "@Model class Item {\n    var raw: Int = 0\n    @Transient var twice: Int { raw * 2 }\n}")
        #expect(expansion.diagnostics.isEmpty)
    }

    @Test func letPropertyGetsAFixIt() throws {
        let source = "@Model class Item {\n    let id: UUID\n}"
        let expansion = expand(source)
        #expect(expansion.diagnostics.count == 1)
        let diagnostic = try #require(expansion.diagnostics.first)
        #expect((diagnostic.line, diagnostic.column) == (2, 5))
        #expect(diagnostic.fixIts == ["Replace 'let' with 'var'"])
        #expect(diagnostic.fixedSources.first == "@Model class Item {\n    var id: UUID\n}")
    }

    @Test func observersAndMultipleBindingsAreRefused() throws {
        let expansion = expand(
            "@Model class Item {\n    var a = 1, b = 2\n    var c: Int = 0 { didSet { print(c) } }\n}")
        #expect(
            expansion.diagnostics.map(\.message) == [
                "@Model needs each persisted property in its own 'var' declaration",
                "a persisted property cannot have willSet or didSet; observe the model with withObservationTracking, or mark the property @Transient",
            ])
        #expect(expansion.diagnostics.map(\.line) == [2, 3])
    }
}
