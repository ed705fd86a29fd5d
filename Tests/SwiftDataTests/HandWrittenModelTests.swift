import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// The runtime, exercised through a model written without `@Model`.
@Suite struct HandWrittenModelTests {
    @Test func insertSaveFetchUpdateDelete() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(HandWrittenNote.self, in: directory))
            let note = HandWrittenNote(title: "First", stars: 3)
            context.insert(note)
            #expect(note.persistentModelID.isTemporary)
            try context.save()
            #expect(!note.persistentModelID.isTemporary)
            note.comment = "edited"
            #expect(note.hasChanges)
            try context.save()
            context.insert(HandWrittenNote(title: "Second"))
            try context.save()
        }
        let context = ModelContext(try makeContainer(HandWrittenNote.self, in: directory))
        let notes = try context.fetch(FetchDescriptor<HandWrittenNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["First", "Second"])
        #expect(notes.map(\.stars) == [3, 0])
        #expect(notes.map(\.comment) == ["edited", nil])
        context.delete(notes[0])
        try context.save()
        let remaining = try ModelContext(try makeContainer(HandWrittenNote.self, in: directory))
            .fetch(FetchDescriptor<HandWrittenNote>())
        #expect(remaining.map(\.title) == ["Second"])
    }

    @Test func schemaComesFromMetadata() throws {
        let entity = try #require(Schema([HandWrittenNote.self]).entitiesByName["HandWrittenNote"])
        #expect(entity.orderedAttributes.map(\.name) == ["title", "stars", "comment"])
        #expect(entity.orderedAttributes.map(\.isOptional) == [false, false, true])
        #expect(entity.attributesByName["stars"]?.defaultValue as? Int == 0)
    }

    @Test func observationFiresOnChange() throws {
        let note = HandWrittenNote(title: "Watched")
        let fired = Flag()
        withObservationTracking {
            _ = note.title
        } onChange: {
            fired.set()
        }
        note.title = "Changed"
        #expect(fired.isSet)
    }
}
