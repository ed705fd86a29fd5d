import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQL

/// A note, with and without a `.search` index on its body.
enum SearchVersions {
    @Model final class Note {
        #Index<Note>(.search([\.body]))
        var title: String
        var body: String
        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }

    enum Plain {
        @Model final class Note {
            var title: String
            var body: String
            init(title: String, body: String) {
                self.title = title
                self.body = body
            }
        }
    }

    /// A `.search` index on a number, which it cannot hold.
    @Model final class Counter {
        #Index<Counter>(.search([\.count]))
        var count: Int
        init(count: Int) { self.count = count }
    }
}

/// `#Index(.search(...))` keeps an FTS5 trigram table (SQLite) or a `pg_trgm` GIN index (PostgreSQL) that
/// `contains`, `localizedStandardContains` and `starts(with:)` find their candidates through.
@Suite struct SearchIndexTests {
    typealias Note = SearchVersions.Note

    private let bodies = [
        "The quick brown fox", "Café au lait at noon", "CAFE RACER", "a fox in socks", "Straße und Strasse",
        "nothing here", "foxglove", "Über alles", "naïve approach", "",
    ]

    private func insertNotes(_ context: ModelContext) throws {
        for (index, body) in bodies.enumerated() { context.insert(Note(title: "note \(index)", body: body)) }
        try context.save()
    }

    /// Fetches with `predicate`, checking that the rows are those `evaluate` selects and whether the `SELECT` went
    /// through the index.
    @discardableResult
    private func fetch(
        _ predicate: Predicate<Note>, _ context: ModelContext, throughIndex: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let log = StatementLog(context.container)
        let notes = try context.fetch(FetchDescriptor(predicate: predicate))
        #expect(
            log.selects.contains { $0.contains(#"IN (SELECT rowid FROM "Note_search_body" WHERE"#) } == throughIndex,
            "\(log.selects)", sourceLocation: sourceLocation)
        let expected = try context.fetch(FetchDescriptor<Note>()).filter(predicate.evaluate).map(\.body)
        #expect(notes.map(\.body).sorted() == expected.sorted(), sourceLocation: sourceLocation)
        return notes.map(\.body).sorted()
    }

    @Test func substringPredicatesFindTheirCandidatesThroughTheIndex() throws {
        let context = ModelContext(try makeMemoryContainer(Note.self))
        try insertNotes(context)
        let fox = try fetch(#Predicate<Note> { $0.body.contains("fox") }, context, throughIndex: true)
        #expect(fox == ["a fox in socks", "foxglove", "The quick brown fox"].sorted())
        let cafe = try fetch(
            #Predicate<Note> { $0.body.localizedStandardContains("cafe") }, context, throughIndex: true)
        #expect(cafe == ["CAFE RACER", "Café au lait at noon"])
        try fetch(#Predicate<Note> { $0.body.localizedStandardContains("STRASSE") }, context, throughIndex: true)
        // Foundation matches a needle's `ß` in ways no folding reproduces: such a needle reads without the index.
        try fetch(#Predicate<Note> { $0.body.localizedStandardContains("straße") }, context, throughIndex: false)
        try fetch(#Predicate<Note> { $0.body.localizedStandardContains("uber") }, context, throughIndex: true)
        try fetch(#Predicate<Note> { $0.body.localizedStandardContains("NAIVE") }, context, throughIndex: true)
        let prefix = try fetch(#Predicate<Note> { $0.body.starts(with: "fox") }, context, throughIndex: true)
        #expect(prefix == ["foxglove"])
        try fetch(
            #Predicate<Note> { $0.body.contains("fox") && $0.title != "note 0" }, context, throughIndex: true)
    }

    /// Trigrams need three characters: a shorter needle, or one outside the conjunction, reads without the index.
    @Test func shortNeedlesAndDisjunctionsReadWithoutTheIndex() throws {
        let context = ModelContext(try makeMemoryContainer(Note.self))
        try insertNotes(context)
        try fetch(#Predicate<Note> { $0.body.contains("fo") }, context, throughIndex: false)
        try fetch(#Predicate<Note> { $0.body.contains("fox") || $0.title == "x" }, context, throughIndex: false)
        try fetch(#Predicate<Note> { $0.title.contains("note") }, context, throughIndex: false)
    }

    /// Saves keep the index current: inserted, changed and deleted rows.
    @Test func savesKeepTheIndexCurrent() throws {
        let context = ModelContext(try makeMemoryContainer(Note.self))
        try insertNotes(context)
        let note = try #require(
            try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.title == "note 5" })).first)
        note.body = "a wolf appears"
        try context.save()
        #expect(try fetch(#Predicate<Note> { $0.body.contains("wolf") }, context, throughIndex: true).count == 1)
        #expect(try fetch(#Predicate<Note> { $0.body.contains("nothing") }, context, throughIndex: true).isEmpty)
        context.delete(note)
        try context.save()
        #expect(try fetch(#Predicate<Note> { $0.body.contains("wolf") }, context, throughIndex: true).isEmpty)
    }

    /// A migration adds the index, filled with the rows the store holds, and drops it again.
    @Test func migrationAddsAndDropsTheIndex() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(SearchVersions.Plain.Note.self, in: directory))
            context.insert(SearchVersions.Plain.Note(title: "old", body: "an old fox"))
            try context.save()
        }
        do {
            let context = ModelContext(try makeContainer(Note.self, in: directory))
            let found = try fetch(#Predicate<Note> { $0.body.contains("fox") }, context, throughIndex: true)
            #expect(found == ["an old fox"])
        }
        let container = try makeContainer(SearchVersions.Plain.Note.self, in: directory)
        let log = StatementLog(container)
        let context = ModelContext(container)
        let found = try context.fetch(
            FetchDescriptor<SearchVersions.Plain.Note>(predicate: #Predicate { $0.body.contains("fox") }))
        #expect(found.map(\.body) == ["an old fox"])
        #expect(!log.selects.contains { $0.contains("Note_search_body") })
        let tables = try sqlite(directory.store(), "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(!tables.contains("Note_search_body"))
    }

    /// A `.search` index on an attribute that is not a `String` is refused, naming the model and property.
    @Test func anIndexOnANumberIsRefused() throws {
        #expect {
            _ = try makeMemoryContainer(SearchVersions.Counter.self)
        } throws: { error in
            let text = "\(error)"
            return text.contains("Counter") && text.contains("count") && text.contains(".search")
        }
    }

    /// The folding the index keeps texts in lets case, diacritics and compatibility forms meet.
    @Test func foldingMeetsCaseDiacriticsAndCompatibilityForms() {
        #expect(SearchText.folded("Café") == "cafe")
        #expect(SearchText.folded("STRAẞE") == SearchText.folded("strasse"))
        #expect(SearchText.folded("ﬁle") == "file")
        #expect(SearchText.folded("ΣΟΦΟΣ") == SearchText.folded("σοφος"))
        #expect(SearchText.folded("\u{212A}elvin") == "kelvin")
    }
}
