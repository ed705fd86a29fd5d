import Foundation
import SwiftData
import Testing

/// An undo called while a save writes its rows acts once the save is done (see `SaveWriteUndoTests`); the redo stack
/// gets at once an action standing for what it will register. When it then registers nothing, that action goes
/// again: the redo stack offers no redo that does nothing.
@Suite struct DeferredUndoRedoStackTests {
    /// Saves the delete of `gone` with a new draft whose encoding calls `manager.undo()` while the save writes its
    /// rows (neither recorded for undo), so that the undo is deferred past the save.
    private func saveUndoingWhileWriting(deleting gone: Draft, in context: ModelContext, manager: UndoManager) throws {
        let fuse = Fuse("new")
        fuse.action = { manager.undo() }
        manager.disableUndoRegistration()
        context.delete(gone)
        context.insert(Draft(title: "new", fuse: fuse))
        manager.enableUndoRegistration()
        try context.save()
        #expect(fuse.runs == 1)
    }

    /// A context of a new store with an undo manager, and two saved drafts, `gone` and `kept`, whose notes changed
    /// after the save (one undo group, the undo stack emptied before it).
    private func twoChangedDrafts(
        _ store: StoreKind
    ) throws -> (context: ModelContext, manager: UndoManager, gone: Draft, kept: Draft) {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let manager = UndoManager()
        context.undoManager = manager
        let gone = Draft(title: "gone", fuse: Fuse("gone"))
        let kept = Draft(title: "kept", fuse: Fuse("kept"))
        context.insert(gone)
        context.insert(kept)
        try context.save()
        manager.removeAllActions()

        gone.note = "changed"
        kept.note = "changed"
        context.processPendingChanges()
        return (context, manager, gone, kept)
    }

    /// Undoing the change of a model the same save deletes: once the save is done the model is gone, so the undo
    /// restores nothing and registers no redo. Before, `canRedo` stayed true and `redo()` did nothing.
    @Test(arguments: StoreKind.all) func aDeferredUndoThatRegistersNothingLeavesNoRedo(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let manager = UndoManager()
        context.undoManager = manager
        let gone = Draft(title: "gone", fuse: Fuse("gone"))
        context.insert(gone)
        try context.save()
        manager.removeAllActions()

        gone.note = "changed"
        context.processPendingChanges()
        #expect(manager.undoCount == 1)
        try saveUndoingWhileWriting(deleting: gone, in: context, manager: manager)
        #expect(try Draft.storedTitles(container) == ["new"])
        #expect(!manager.canUndo)
        #expect(!manager.canRedo, "the undo registered nothing, so there is nothing to redo")
        #expect(manager.redoCount == 0)
    }

    /// The same undo while another action of the group registers a redo: the group's redo stays, and redoes that.
    @Test(arguments: StoreKind.all) func aDeferredUndoKeepsTheRedoOfWhatItRegisters(store: StoreKind) throws {
        let (context, manager, gone, kept) = try twoChangedDrafts(store)
        try saveUndoingWhileWriting(deleting: gone, in: context, manager: manager)
        #expect(kept.note == "", "the undo restored the model that is left")
        #expect(manager.canRedo && manager.redoCount == 1)

        manager.redo()
        #expect(kept.note == "changed")
        #expect(!manager.canRedo && manager.canUndo)
    }

    /// `removeAllActions(withTarget: context)` removes the context's actions, and the action standing for a deferred
    /// undo is one: afterwards nothing is left to redo. Before, that action stayed (its target was an internal object):
    /// `canRedo` stayed true and the redo stack kept a group.
    @Test(arguments: StoreKind.all) func removingTheContextsActionsRemovesADeferredUndosRedo(store: StoreKind) throws {
        let (context, manager, gone, kept) = try twoChangedDrafts(store)
        try saveUndoingWhileWriting(deleting: gone, in: context, manager: manager)
        #expect(manager.redoCount == 1)

        manager.removeAllActions(withTarget: context)
        #expect(!manager.canRedo && manager.redoCount == 0)
        manager.redo()
        #expect(kept.note == "", "nothing was left to redo")
    }

    /// The same while the undo is still deferred (called during the write): the stand-in goes, and what the undo
    /// registers when it runs after the save is not recorded for a removed action.
    @Test(arguments: StoreKind.all) func removingTheContextsActionsWhileAnUndoIsDeferred(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let manager = UndoManager()
        context.undoManager = manager
        let kept = Draft(title: "kept", fuse: Fuse("kept"))
        context.insert(kept)
        try context.save()
        manager.removeAllActions()

        kept.note = "changed"
        context.processPendingChanges()
        let fuse = Fuse("new")
        fuse.action = {
            manager.undo()
            #expect(manager.redoCount == 1, "the stand-in for the deferred undo")
            manager.removeAllActions(withTarget: context)
            #expect(!manager.canRedo && manager.redoCount == 0)
        }
        manager.disableUndoRegistration()
        context.insert(Draft(title: "new", fuse: fuse))
        manager.enableUndoRegistration()
        try context.save()
        #expect(fuse.runs == 1)
        #expect(kept.note == "", "the undo ran once the save was done")
        #expect(!manager.canRedo && !manager.canUndo)
    }

    /// Another context's deferred undo keeps its redo when one context's actions are removed from a shared manager.
    @Test func removingOneContextsActionsKeepsAnotherContextsDeferredUndo() throws {
        let (context, manager, gone, kept) = try twoChangedDrafts(.sqlite)
        let other = ModelContext(context.container)
        other.undoManager = manager
        try saveUndoingWhileWriting(deleting: gone, in: context, manager: manager)
        manager.removeAllActions(withTarget: other)
        #expect(manager.canRedo && manager.redoCount == 1)
        manager.redo()
        #expect(kept.note == "changed")
    }
}
