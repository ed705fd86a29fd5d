import Foundation
import SwiftData
import Testing

/// A model with an optional attribute, stored beside a `Fuse` that runs code while a save encodes it.
@Model final class TaggedDraft {
    var title: String
    var tag: String?
    @Attribute(.transformable(by: FuseTransformer.self)) var fuse: Fuse

    init(title: String, tag: String? = nil, fuse: Fuse) {
        self.title = title
        self.tag = tag
        self.fuse = fuse
    }
}

/// `delete(_:)` and `rollback()` called by code a save's writing runs (a value transformer here, as an `Encodable`
/// attribute's encoding or an observer they set off would be) act once the save is done, on what it left; and a
/// `delete(model:where:)` called then that fails after a failed save reaches the caller with the save's own error.
@Suite struct SaveWriteCallsTests {
    /// Deleting the new model the save is writing: the save stores it, and the delete waits for the next save, which
    /// deletes it. Before, the save registered the model after the delete had cancelled its insert: the delete was
    /// lost, and the model stayed stored.
    @Test(arguments: StoreKind.all) func deletingTheModelTheSaveInsertsIsKeptForTheNextSave(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        context.insert(Draft(title: "kept", fuse: Fuse("kept")))
        try context.save()

        let fuse = Fuse("new")
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = { context.delete(new) }
        context.insert(new)
        try context.save()
        #expect(fuse.runs == 1)
        #expect(try Draft.storedTitles(container) == ["kept", "new"], "the save wrote what it read")
        #expect(context.deletedModelsArray.map(\.persistentModelID) == [new.persistentModelID])
        #expect(context.insertedModelsArray.isEmpty)
        #expect(try context.fetch(FetchDescriptor<Draft>()).map(\.title) == ["kept"])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["kept"])
        #expect(new.modelContext == nil)
    }

    /// Deleting the new model while a failing save writes it: the save's changes stay pending and the delete then
    /// cancels the model's insert, so the next save does not store it.
    @Test(arguments: StoreKind.all) func deletingTheModelAFailingSaveInsertsCancelsItsInsert(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let other = Draft(title: "other", fuse: Fuse("other"))
        context.insert(other)
        let fuse = Fuse("fails")
        fuse.fails = true
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = { context.delete(new) }
        context.insert(new)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(fuse.runs == 1)
        #expect(context.insertedModelsArray.map(\.persistentModelID) == [other.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["other"])
    }

    /// `rollback()` while the save writes: what the save wrote stays saved, and the models show what is stored; the
    /// change made while it wrote is discarded. Before, the rollback restored the changed model's old title while
    /// the save stored the new one, and the model was then taken for saved.
    @Test(arguments: StoreKind.all) func aRollbackWhileTheSaveWritesDiscardsWhatIsLeftUnsaved(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let old = Draft(title: "old", fuse: Fuse("old"))
        context.insert(old)
        try context.save()

        let fuse = Fuse("new")
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = {
            old.note = "changed while the save writes"
            context.rollback()
        }
        old.title = "renamed"
        context.insert(new)
        try context.save()
        #expect(fuse.runs == 1)
        #expect(!context.hasChanges, "the rollback discarded the change made while the save wrote")
        #expect(try Draft.storedTitles(container) == ["new", "renamed"])
        #expect(old.title == "renamed" && old.note == "", "the model shows what is stored")
        #expect(new.modelContext === context && !new.persistentModelID.isTemporary)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Draft>(sortBy: [SortDescriptor(\.title)]))
        #expect(stored.map(\.note) == ["", ""])
    }

    /// `rollback()` while a failing save writes: everything the save meant to write stays unsaved, so the rollback
    /// discards it all once the save has failed.
    @Test(arguments: StoreKind.all) func aRollbackWhileAFailingSaveWritesDiscardsItsChanges(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let old = Draft(title: "old", fuse: Fuse("old"))
        context.insert(old)
        try context.save()

        let fuse = Fuse("fails")
        fuse.fails = true
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = { context.rollback() }
        old.title = "renamed"
        context.insert(new)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(fuse.runs == 1)
        #expect(!context.hasChanges)
        #expect(old.title == "old")
        #expect(new.modelContext == nil)
        #expect(try Draft.storedTitles(container) == ["old"])
    }

    /// A failed save whose `delete(model:where:)`, called while it wrote, fails too (its predicate unwraps a `nil` of
    /// the new model): the caller gets the save's error, its code kept, with the delete's failure in its reason.
    /// Before, the delete's error was only logged.
    @Test(arguments: StoreKind.all) func aBatchDeleteThatFailsAfterAFailedSaveReachesTheCaller(store: StoreKind) throws
    {
        let container = try store.makeContainer(TaggedDraft.self)
        let context = ModelContext(container)
        let fuse = Fuse("fails")
        fuse.fails = true
        var calledWithoutError = false
        fuse.action = {
            do {
                try context.delete(model: TaggedDraft.self, where: #Predicate { $0.tag! == "x" })
                calledWithoutError = true
            } catch {}
        }
        context.insert(TaggedDraft(title: "new", fuse: fuse))
        var thrown: (any Error)?
        do { try context.save() } catch { thrown = error }
        #expect(fuse.runs == 1)
        #expect(calledWithoutError, "the batch delete waited for the save")
        let error = try #require(thrown as? SwiftDataError)
        let saveAlone = try Self.errorOfFailingSave(store)
        #expect(error == saveAlone, "the save's own error code")
        let reason = try #require(error.reason)
        #expect(reason.hasPrefix(try #require(saveAlone.reason)), "the save's own reason comes first")
        #expect(reason.contains("a delete(model:where:) called while the save wrote its rows failed too"))
        #expect(context.insertedModelsArray.count == 1, "the save's changes stay pending")
    }

    /// The error of the same failing save, with no batch delete.
    private static func errorOfFailingSave(_ store: StoreKind) throws -> SwiftDataError {
        let context = ModelContext(try store.makeContainer(TaggedDraft.self))
        let fuse = Fuse("fails")
        fuse.fails = true
        context.insert(TaggedDraft(title: "new", fuse: fuse))
        do {
            try context.save()
        } catch let error as SwiftDataError {
            return error
        }
        throw SwiftDataError.storeError.with(reason: "the save did not fail")
    }
}
