import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// A model's bookkeeping is stored in the model itself (`_PersistentState`, a noncopyable struct): a registered model
/// that goes away leaves its context's identity map as it is freed, for plain models, subclass models and models
/// written by hand, and undo, identity and changes work on the state in place.
@Suite struct ModelStateTests {
    /// Holds an object weakly, to tell whether anything else still holds it.
    private final class WeakBox<Object: AnyObject> {
        weak var object: Object?
        init(_ object: Object?) { self.object = object }
    }

    @Test func aFreedModelLeavesTheIdentityMapAndTheRestStay() throws {
        let container = try makeMemoryContainer(Pupil.self)
        let writer = ModelContext(container)
        for index in 0..<50 { writer.insert(Lesson(title: "Lesson \(index)")) }
        try writer.save()

        let context = ModelContext(container)
        var kept: [Lesson] = []
        var dropped = WeakBox<Lesson>(nil)
        do {
            let lessons = try context.fetch(FetchDescriptor<Lesson>(sortBy: [SortDescriptor(\.title)]))
            #expect(context.registry.keys(of: Lesson.self).count == 50)
            // Keeps every third lesson; the others go away, each taking its entry out of the map.
            kept = lessons.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            dropped = WeakBox(lessons[1])
        }
        #expect(dropped.object == nil)
        #expect(context.registry.keys(of: Lesson.self).count == kept.count)
        for lesson in kept {
            // The entries that filled the gaps still find their models, at their new places.
            #expect(context.registry.model(Lesson.self, key: lesson._$persistentState.key) === lesson)
        }
        let again = try context.fetch(FetchDescriptor<Lesson>(sortBy: [SortDescriptor(\.title)]))
        #expect(again.count == 50)
        #expect(kept.allSatisfy { lesson in again.contains { $0 === lesson } }, "one object per row")
        #expect(context.registry.keys(of: Lesson.self).count == 50)
    }

    @Test func aFreedSubclassModelLeavesTheIdentityMap() throws {
        let container = try makeMemoryContainer(Media.self, Documentary.self, Podcast.self)
        let writer = ModelContext(container)
        writer.insert(Documentary(title: "Oceans", year: 2009, director: "Perrin", subject: "Sea"))
        writer.insert(Podcast(title: "Talk", year: 2020))
        writer.insert(Media(title: "Plain", year: 1999))
        try writer.save()

        let context = ModelContext(container)
        var documentary = WeakBox<Media>(nil)
        let kept: Media
        do {
            let media = try context.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.title)]))
            #expect(media.map { "\(type(of: $0))" } == ["Documentary", "Media", "Podcast"])
            documentary = WeakBox(media[0])
            kept = media[2]
            #expect(context.registry.allModels().count == 3)
        }
        #expect(documentary.object == nil)
        #expect(context.registry.allModels().count == 1)
        #expect(context.registry.allModels().first === kept)
        let podcast = try #require(kept as? Podcast)
        podcast.episodes = 3
        #expect(podcast.hasChanges)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Podcast>())
        #expect(stored.map(\.episodes) == [3])
    }

    @Test func aHandWrittenModelLeavesTheIdentityMap() throws {
        let container = try makeMemoryContainer(HandWrittenNote.self)
        let writer = ModelContext(container)
        writer.insert(HandWrittenNote(title: "One"))
        writer.insert(HandWrittenNote(title: "Two"))
        try writer.save()

        let context = ModelContext(container)
        let kept: HandWrittenNote
        do {
            let notes = try context.fetch(FetchDescriptor<HandWrittenNote>())
            #expect(notes.count == 2)
            kept = notes[1]
        }
        #expect(context.registry.keys(of: HandWrittenNote.self) == [kept._$persistentState.key])
        #expect(try context.fetch(FetchDescriptor<HandWrittenNote>()).contains { $0 === kept })
    }

    /// The fields few models use (external references, links beyond the first, linked members) live in one box that
    /// a model has only while one of them is set: each reads back what was set, and clearing the last drops the box.
    @Test func rareFieldsHaveABoxOnlyWhileOneIsSet() {
        let note = HandWrittenNote(title: "")
        #expect(note._$persistentState.rare == nil)
        note._$persistentState.link(0, to: 7)
        #expect(note._$persistentState.rare == nil, "the first link is stored inline")
        note._$persistentState.link(1, to: 8)
        note._$persistentState.linkMembers(2, to: [3, 4])
        note._$persistentState.externalReferences = [5: "file"]
        #expect(note._$persistentState.rare != nil)
        #expect(note._$persistentState.linkedKey(0) == 7 && note._$persistentState.linkedKey(1) == 8)
        #expect(note._$persistentState.linkedMembers(2) == [3, 4] && note._$persistentState.hasLinks)
        #expect(note._$persistentState.externalReferences?[5] == "file")
        note._$persistentState.externalReferences?[5] = nil
        #expect(note._$persistentState.externalReferences?.isEmpty == true && note._$persistentState.rare != nil)
        note._$persistentState.externalReferences = nil
        note._$persistentState.unlink(0)
        #expect(note._$persistentState.linkedKey(1) == 8, "the next link moves inline")
        note._$persistentState.unlink(2)
        #expect(note._$persistentState.linkedMembers(2) == nil)
        #expect(note._$persistentState.rare == nil, "nothing rare is set any more")
        #expect(note._$persistentState.hasLinks == true)
        note._$persistentState.unlinkAll()
        #expect(!note._$persistentState.hasLinks && note._$persistentState.rare == nil)
    }

    @Test func undoOfInsertAndDeleteChangesTheStateInPlace() throws {
        let container = try makeMemoryContainer(Pupil.self)
        let context = ModelContext(container)
        let undoManager = UndoManager()
        context.undoManager = undoManager

        let lesson = Lesson(title: "Art")
        context.insert(lesson)
        context.processPendingChanges()
        #expect(lesson.modelContext === context && lesson.hasChanges)
        undoManager.undo()
        #expect(lesson.modelContext == nil && !lesson.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        undoManager.redo()
        #expect(lesson.modelContext === context && context.insertedModelsArray.count == 1)
        try context.save()
        let savedID = lesson.persistentModelID
        #expect(!savedID.isTemporary)
        #expect(context.registry.model(Lesson.self, key: lesson._$persistentState.key) === lesson)

        context.delete(lesson)
        context.processPendingChanges()
        #expect(lesson.isDeleted)
        undoManager.undo()
        #expect(!lesson.isDeleted && !lesson.hasChanges)
        #expect(lesson.persistentModelID == savedID)
        #expect(context.registry.model(Lesson.self, key: lesson._$persistentState.key) === lesson)

        // A delete that is saved leaves the identity map; undoing it inserts the model again as a new one.
        context.delete(lesson)
        context.processPendingChanges()
        try context.save()
        #expect(lesson.modelContext == nil)
        #expect(context.registry.keys(of: Lesson.self).isEmpty)
        undoManager.undo()
        #expect(lesson.modelContext === context)
        try context.save()
        #expect(lesson.persistentModelID != savedID)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Lesson>()).map(\.title) == ["Art"])
    }
}
