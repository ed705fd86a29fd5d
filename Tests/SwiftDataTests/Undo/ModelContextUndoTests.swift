import Foundation
import SwiftData
import Testing

/// A context with an undo manager records inserts, deletes and changes, and undo and redo restore them exactly.
@Suite struct ModelContextUndoTests {
    func makeContext(on store: StoreKind, _ types: any PersistentModel.Type...) throws -> (ModelContext, UndoManager) {
        let container = try store.location().container(Schema(types), inMemory: true)
        let context = ModelContext(container)
        let undoManager = UndoManager()
        context.undoManager = undoManager
        return (context, undoManager)
    }

    @Test(arguments: StoreKind.all) func insertsUndoAndRedoWithTheSameIdentity(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, User.self)
        let user = User(name: "Ann", email: "ann@example.com")
        context.insert(user)
        let id = user.persistentModelID
        context.processPendingChanges()
        undoManager.undo()
        #expect(context.insertedModelsArray.isEmpty)
        #expect(user.modelContext == nil)
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 0)
        undoManager.redo()
        #expect(context.insertedModelsArray.count == 1)
        #expect(user.persistentModelID == id)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.name) == ["Ann"])
    }

    @Test(arguments: StoreKind.all) func attributeChangesRestoreValuesAndChangeState(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, User.self)
        let user = User(name: "Ann", email: "ann@example.com")
        context.insert(user)
        try context.save()
        undoManager.removeAllActions()

        user.name = "Bea"
        user.name = "Cy"
        user.email = "cy@example.com"
        context.processPendingChanges()
        #expect(context.hasChanges)
        undoManager.undo()
        #expect(user.name == "Ann" && user.email == "ann@example.com")
        #expect(!context.hasChanges, "back to the stored values: nothing to save")
        undoManager.redo()
        #expect(user.name == "Cy" && user.email == "cy@example.com")
        #expect(context.changedModelsArray.count == 1)
        try context.save()
        undoManager.undo()
        #expect(user.name == "Ann")
        #expect(context.hasChanges, "after a save, undoing is a change to save")
        try context.save()
        let reread = ModelContext(context.container)
        #expect(try reread.fetch(FetchDescriptor<User>()).map(\.name) == ["Ann"])
    }

    @Test(arguments: StoreKind.all) func processPendingChangesClosesAGroup(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, User.self)
        let user = User(name: "Ann", email: "")
        context.insert(user)
        context.processPendingChanges()
        user.name = "Bea"
        context.processPendingChanges()
        user.name = "Cy"
        context.processPendingChanges()
        #expect(undoManager.undoCount == 3)
        undoManager.undo()
        #expect(user.name == "Bea")
        undoManager.undo()
        #expect(user.name == "Ann")
        undoManager.undo()
        #expect(context.insertedModelsArray.isEmpty)
    }

    @Test(arguments: StoreKind.all) func deletesUndoBeforeAndAfterTheSave(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, User.self)
        let user = User(name: "Ann", email: "ann@example.com")
        context.insert(user)
        try context.save()
        undoManager.removeAllActions()

        context.delete(user)
        context.processPendingChanges()
        undoManager.undo()
        #expect(!user.isDeleted)
        #expect(!context.hasChanges)
        undoManager.redo()
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 0)

        undoManager.undo()
        #expect(user.modelContext === context)
        #expect(user.name == "Ann" && user.email == "ann@example.com")
        try context.save()
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.email) == ["ann@example.com"])
    }

    @Test(arguments: StoreKind.all) func relationshipChangesRestoreBothSidesInOrder(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, Node.self)
        let root = Node(name: "root")
        context.insert(root)
        let children = ["a", "b", "c"].map { Node(name: $0) }
        root.children = children
        let other = Node(name: "other")
        context.insert(other)
        try context.save()
        undoManager.removeAllActions()

        children[1].parent = other
        context.processPendingChanges()
        #expect(root.children.map(\.name) == ["a", "c"])
        #expect(other.children.map(\.name) == ["b"])
        undoManager.undo()
        #expect(children[1].parent === root)
        #expect(root.children.map(\.name) == ["a", "b", "c"], "the inverse array is restored in its order")
        #expect(other.children.isEmpty)
        #expect(!context.hasChanges)
        undoManager.redo()
        #expect(root.children.map(\.name) == ["a", "c"])
        #expect(other.children.map(\.name) == ["b"])
        try context.save()
        let reread = ModelContext(context.container)
        let stored = try reread.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "other" }))
        #expect(stored.first?.children.map(\.name) == ["b"])
    }

    @Test(arguments: StoreKind.all) func undoingADeleteAfterTheSaveRelinksRelatedModels(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, Node.self)
        let root = Node(name: "root")
        let leaf = Node(name: "leaf", parent: root)
        context.insert(root)
        context.insert(leaf)
        try context.save()
        undoManager.removeAllActions()

        context.delete(leaf)
        try context.save()
        #expect(root.children.isEmpty)
        undoManager.undo()
        #expect(leaf.parent === root)
        #expect(root.children.map(\.name) == ["leaf"])
        try context.save()
        let reread = ModelContext(context.container)
        let stored = try reread.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "root" }))
        #expect(stored.first?.children.map(\.name) == ["leaf"])
    }

    @Test(arguments: StoreKind.all) func rollbackEmptiesTheStack(store: StoreKind) throws {
        let (context, undoManager) = try makeContext(on: store, User.self)
        context.insert(User(name: "Ann", email: ""))
        context.processPendingChanges()
        #expect(undoManager.canUndo)
        context.rollback()
        #expect(!undoManager.canUndo && !undoManager.canRedo)
    }

    @Test func withoutAnUndoManagerNothingIsRecorded() throws {
        let container = try ModelContainer(
            for: User.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let user = User(name: "Ann", email: "")
        context.insert(user)
        user.name = "Bea"
        let undoManager = UndoManager()
        context.undoManager = undoManager
        #expect(!undoManager.canUndo)
    }
}
