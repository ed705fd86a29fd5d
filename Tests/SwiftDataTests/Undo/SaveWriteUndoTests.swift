import Foundation
import SwiftData
import Testing

/// `undo()` and `redo()` of the context's undo manager called by code a save's writing runs (a value transformer here,
/// as an `Encodable` attribute's encoding or an observer they set off would be) act once the save is done, on what it
/// left, and what they register still goes on the right stack.
@Suite struct SaveWriteUndoTests {
    /// A context with an undo manager.
    private func makeContext(_ container: ModelContainer) -> (ModelContext, UndoManager) {
        let context = ModelContext(container)
        let manager = UndoManager()
        context.undoManager = manager
        return (context, manager)
    }

    /// Undoing the insert of the new model the save is writing: the save stores it, and the undo then deletes it
    /// (at the next save); redo brings it back. Before, the undo cancelled the insert while the save wrote the row:
    /// the model stayed stored while the context forgot it.
    @Test(arguments: StoreKind.all) func undoingTheInsertTheSaveWritesDeletesItAtTheNextSave(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let (context, manager) = makeContext(container)
        let fuse = Fuse("new")
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = { manager.undo() }
        context.insert(new)
        try context.save()
        #expect(fuse.runs == 1)
        #expect(try Draft.storedTitles(container) == ["new"], "the save wrote what it read")
        #expect(context.deletedModelsArray.map(\.persistentModelID) == [new.persistentModelID])
        #expect(context.insertedModelsArray.isEmpty)
        #expect(!manager.canUndo && manager.canRedo, "the undo's inverse is on the redo stack")

        try context.save()
        #expect(try Draft.storedTitles(container).isEmpty)

        manager.redo()
        #expect(context.insertedModelsArray.count == 1, "redo inserts the model again")
        #expect(manager.canUndo && !manager.canRedo)
        try context.save()
        #expect(try Draft.storedTitles(container) == ["new"])

        manager.undo()
        try context.save()
        #expect(try Draft.storedTitles(container).isEmpty)
    }

    /// Undoing the insert of the new model a failing save is writing: the save's changes stay pending, and the undo
    /// then cancels the insert; redo inserts the model again, and the next save stores it.
    @Test(arguments: StoreKind.all) func undoingTheInsertAFailingSaveWritesCancelsIt(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let (context, manager) = makeContext(container)
        let other = Draft(title: "other", fuse: Fuse("other"))
        context.insert(other)
        context.processPendingChanges()
        let fuse = Fuse("new")
        fuse.fails = true
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = { manager.undo() }
        context.insert(new)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(fuse.runs == 1)
        #expect(context.insertedModelsArray.map(\.persistentModelID) == [other.persistentModelID])
        #expect(new.modelContext == nil)
        #expect(manager.canUndo && manager.canRedo)

        fuse.fails = false
        manager.redo()
        #expect(context.insertedModelsArray.count == 2)
        try context.save()
        #expect(try Draft.storedTitles(container) == ["new", "other"])
    }

    /// Undoing a change of a saved model while the save writes it: the save stores the change, and the undo then
    /// restores the old value as an unsaved change, which the next save stores. Before, the undo restored the old
    /// value while the save wrote the new one, and the model was then taken for saved: it showed a value the store
    /// did not hold.
    @Test(arguments: StoreKind.all) func undoingAChangeTheSaveWritesIsSavedByTheNextSave(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let (context, manager) = makeContext(container)
        let draft = Draft(title: "old", fuse: Fuse("old"))
        context.insert(draft)
        try context.save()

        let fuse = Fuse("new")
        fuse.action = { manager.undo() }
        draft.title = "renamed"
        draft.fuse = fuse
        try context.save()
        #expect(fuse.runs == 1)
        #expect(try Draft.storedTitles(container) == ["renamed"])
        #expect(draft.title == "old")
        #expect(context.changedModelsArray.map(\.persistentModelID) == [draft.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["old"])

        manager.redo()
        #expect(draft.title == "renamed")
        try context.save()
        #expect(try Draft.storedTitles(container) == ["renamed"])
    }

    /// A redo called while the save writes waits for it too, after the undo called before it.
    @Test(arguments: StoreKind.all) func anUndoAndARedoWhileTheSaveWritesActInOrder(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let (context, manager) = makeContext(container)
        let fuse = Fuse("new")
        let new = Draft(title: "new", fuse: fuse)
        fuse.action = {
            manager.undo()
            manager.redo()
        }
        context.insert(new)
        try context.save()
        #expect(fuse.runs == 1)
        #expect(!context.hasChanges, "the undo and the redo cancel out")
        #expect(new.modelContext === context && !new.persistentModelID.isTemporary)
        #expect(manager.canUndo && !manager.canRedo)

        manager.undo()
        try context.save()
        #expect(try Draft.storedTitles(container).isEmpty)
    }
}
