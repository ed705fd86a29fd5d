import Foundation
import SwiftData
import Testing

/// Calls that code run by a save's writing (a value transformer here, as an `Encodable` attribute's encoding or an
/// observer they set off would be) makes into the saving context: `delete(model:where:)` acts once the save is done,
/// and its deletes wait for the next save, whole; `save()` is refused with an error and disturbs nothing.
@Suite struct SaveWriteReentrancyTests {
    /// A batch delete called while the save writes a new model that it matches: nothing of it is lost or applied
    /// in part. The save writes what it read; the batch delete then deletes the stored rows it matches (which no model
    /// of the context stands for) and the new model, at the next save.
    @Test(arguments: StoreKind.all) func aBatchDeleteCalledWhileTheSaveWritesIsSavedWholeByTheNextSave(
        store: StoreKind
    ) throws {
        let (_, log) = try capturingLog {
            let container = try store.makeContainer(Draft.self)
            let writer = ModelContext(container)
            for title in ["keep", "old a", "old b"] { writer.insert(Draft(title: title, fuse: Fuse(title))) }
            try writer.save()

            let context = ModelContext(container)
            let fuse = Fuse("new")
            var thrown: (any Error)?
            fuse.action = {
                do {
                    try context.delete(model: Draft.self, where: #Predicate { $0.title.starts(with: "old") })
                } catch {
                    thrown = error
                }
            }
            let new = Draft(title: "old new", fuse: fuse)
            context.insert(new)
            try context.save()
            #expect(fuse.runs == 1)
            #expect(thrown == nil)
            #expect(
                try Draft.storedTitles(container) == ["keep", "old a", "old b", "old new"], "the save wrote its model")
            #expect(context.hasChanges, "the batch delete waits for the next save")
            #expect(context.deletedModelsArray.map(\.persistentModelID) == [new.persistentModelID])
            #expect(try context.fetch(FetchDescriptor<Draft>()).map(\.title) == ["keep"])

            try context.save()
            #expect(!context.hasChanges)
            #expect(try Draft.storedTitles(container) == ["keep"])
            #expect(new.modelContext == nil)
        }
        #expect(
            log.allSatisfy {
                $0.hasPrefix(
                    "SwiftData warning: part of a predicate on Draft is evaluated in memory (PostgreSQL compares strings by code points"
                )
            }, "\(log)")
        #expect(store == .sqlite ? log.isEmpty : log.count == 1, "\(log)")
    }

    /// A batch delete called while a save writes, when that save fails: the save's changes stay pending, and the batch
    /// delete acts on what was there before the save, so the next save deletes the rows and cancels the new model's
    /// insert.
    @Test(arguments: StoreKind.all) func aBatchDeleteCalledWhileAFailingSaveWritesIsKept(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let container = try store.makeContainer(Draft.self)
            let writer = ModelContext(container)
            for title in ["keep", "old a"] { writer.insert(Draft(title: title, fuse: Fuse(title))) }
            try writer.save()

            let context = ModelContext(container)
            let fuse = Fuse("fails")
            fuse.fails = true
            fuse.action = { try? context.delete(model: Draft.self, where: #Predicate { $0.title.starts(with: "old") }) }
            let new = Draft(title: "old new", fuse: fuse)
            context.insert(new)
            #expect(throws: SwiftDataError.self) { try context.save() }
            #expect(fuse.runs == 1)
            #expect(context.insertedModelsArray.isEmpty, "the batch delete cancelled the matching insert")
            #expect(try context.fetch(FetchDescriptor<Draft>()).map(\.title) == ["keep"])

            try context.save()
            #expect(!context.hasChanges)
            #expect(try Draft.storedTitles(container) == ["keep"])
        }
        #expect(
            log.allSatisfy {
                $0.hasPrefix(
                    "SwiftData warning: part of a predicate on Draft is evaluated in memory (PostgreSQL compares strings by code points"
                )
            }, "\(log)")
        #expect(store == .sqlite ? log.isEmpty : log.count == 1, "\(log)")
    }

    /// `save()` called while a save of the context writes: it throws a `storeError` saying so, posts no `willSave`,
    /// and the outer save still notes the changes made while it wrote, before and after the refused call, which the
    /// next save writes.
    @Test(arguments: StoreKind.all) func aSaveCalledWhileTheSaveWritesThrowsAndDisturbsNothing(store: StoreKind) throws
    {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let draft = Draft(title: "first", fuse: Fuse("first"))
        context.insert(draft)
        try context.save()

        var willSaves = 0
        var didSaves = 0
        let observer = SaveObserver(context) {
            willSaves += 1
        } didSave: { _ in
            didSaves += 1
        }
        var thrown: (any Error)?
        let fuse = Fuse("second")
        fuse.action = {
            draft.title = "changed before the inner save"
            do { try context.save() } catch { thrown = error }
            draft.note = "changed after the inner save"
        }
        draft.fuse = fuse
        try context.save()
        withExtendedLifetime(observer) {}
        #expect(fuse.runs == 1)
        #expect(willSaves == 1 && didSaves == 1, "the refused save posted nothing")
        let error = try #require(thrown as? SwiftDataError)
        #expect(error == .storeError)
        #expect(error.reason?.contains("save() was called while a save of this context was writing") == true)
        #expect(try Self.stored(container) == ["first|"])
        #expect(context.changedModelsArray.map(\.persistentModelID) == [draft.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Self.stored(container) == ["changed before the inner save|changed after the inner save"])
    }

    private static func stored(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Draft>(sortBy: [SortDescriptor(\.title)])).map {
            "\($0.title)|\($0.note)"
        }
    }
}
