import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Insert, delete, save, rollback and the bookkeeping around them, with Apple's semantics.
@Suite struct ModelContextTests {
    @Test(arguments: StoreKind.all) func insertIsIdempotentAndIdentifiersBecomePermanentAtSave(store: StoreKind) throws
    {
        let context = ModelContext(try store.makeContainer(User.self))
        let user = User(name: "Ann", email: "ann@example.com")
        #expect(user.modelContext == nil)
        context.insert(user)
        context.insert(user)
        #expect(context.insertedModelsArray.count == 1)
        #expect(user.modelContext === context)
        let temporary = user.persistentModelID
        #expect(temporary.storeIdentifier == nil)
        #expect(user.persistentModelID == temporary, "a temporary identifier is stable until the save")
        try context.save()
        #expect(user.persistentModelID != temporary)
        #expect(user.persistentModelID.storeIdentifier != nil)
        #expect(user.persistentModelID.entityName == "User")
        #expect(context.insertedModelsArray.isEmpty)
        #expect(!context.hasChanges && !user.hasChanges)
    }

    @Test(arguments: StoreKind.all) func pendingArraysAndHasChanges(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let kept = User(name: "Kept", email: "")
        let changed = User(name: "Changed", email: "")
        let removed = User(name: "Removed", email: "")
        [kept, changed, removed].forEach(context.insert)
        try context.save()
        #expect(!context.hasChanges)
        changed.email = "new@example.com"
        context.delete(removed)
        let fresh = User(name: "Fresh", email: "")
        context.insert(fresh)
        #expect(context.hasChanges)
        #expect(context.changedModelsArray.map { ($0 as! User).name } == ["Changed"])
        #expect(context.deletedModelsArray.map { ($0 as! User).name } == ["Removed"])
        #expect(context.insertedModelsArray.map { ($0 as! User).name } == ["Fresh"])
        #expect(changed.hasChanges && removed.hasChanges && fresh.hasChanges && !kept.hasChanges)
        #expect(removed.isDeleted && !changed.isDeleted)
    }

    @Test(arguments: StoreKind.all) func deletedModelAfterSaveHasNoContextAndIsNotDeleted(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let user = User(name: "Gone", email: "")
        context.insert(user)
        try context.save()
        context.delete(user)
        #expect(user.isDeleted)
        #expect(user.modelContext === context)
        try context.save()
        #expect(!user.isDeleted, "Apple's semantics: after the save a deleted model is no longer marked deleted")
        #expect(user.modelContext == nil)
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 0)
        #expect(user.name == "Gone", "a deleted model keeps its last values")
    }

    @Test(arguments: StoreKind.all) func deletingAnInsertedModelCancelsTheInsert(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let user = User(name: "Never", email: "")
        context.insert(user)
        context.delete(user)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 0)
    }

    @Test(arguments: StoreKind.all) func rollbackDiscardsInsertsRestoresChangesAndUndeletes(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let changed = User(name: "Original", email: "o@example.com")
        let deleted = User(name: "Deleted", email: "")
        context.insert(changed)
        context.insert(deleted)
        try context.save()
        changed.name = "Edited"
        context.delete(deleted)
        let inserted = User(name: "Inserted", email: "")
        context.insert(inserted)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(changed.name == "Original")
        #expect(!changed.hasChanges)
        #expect(!deleted.isDeleted && deleted.modelContext === context)
        #expect(inserted.modelContext == nil)
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.name).sorted() == ["Deleted", "Original"])
    }

    @Test(arguments: StoreKind.all) func oneObjectPerRowPerContext(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        let user = User(name: "Solo", email: "")
        context.insert(user)
        try context.save()
        let first = try context.fetch(FetchDescriptor<User>())
        let second = try context.fetch(FetchDescriptor<User>())
        #expect(first[0] === user && second[0] === user)
        let other = try ModelContext(container).fetch(FetchDescriptor<User>())
        #expect(other[0] !== user, "another context has its own object for the row")
        #expect(other[0].persistentModelID == user.persistentModelID)
    }

    @Test(arguments: StoreKind.all) func registeredModelAndModelForIdentifier(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        let user = User(name: "Found", email: "")
        context.insert(user)
        #expect(
            context.registeredModel(for: user.persistentModelID) as User? === user,
            "inserted models are found by temporary identifier")
        try context.save()
        let id = user.persistentModelID
        #expect(context.registeredModel(for: id) as User? === user)
        let other = ModelContext(container)
        #expect(other.registeredModel(for: id) as User? == nil)
        let loaded = other.model(for: id) as? User
        #expect(loaded?.name == "Found")
        #expect(other.registeredModel(for: id) as User? === loaded)
    }

    @Test(arguments: StoreKind.all) func changesInAnotherContextAreSeenAfterSave(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        let user = User(name: "Shared", email: "")
        writer.insert(user)
        try writer.save()
        let seen = try #require(try reader.fetch(FetchDescriptor<User>()).first)
        user.email = "changed@example.com"
        try writer.save()
        #expect(try reader.fetch(FetchDescriptor<User>()).first?.email == "changed@example.com")
        #expect(seen.email == "changed@example.com", "a refetch refreshes registered models without unsaved changes")
        writer.delete(user)
        try writer.save()
        #expect(try reader.fetch(FetchDescriptor<User>()).isEmpty)
    }

    @Test(arguments: StoreKind.all) func refetchKeepsUnsavedEdits(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        writer.insert(User(name: "A", email: "a"))
        try writer.save()
        let mine = try #require(try reader.fetch(FetchDescriptor<User>()).first)
        mine.name = "Mine"
        let theirs = try #require(try writer.fetch(FetchDescriptor<User>()).first)
        theirs.name = "Theirs"
        theirs.email = "theirs"
        try writer.save()
        _ = try reader.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.email == "theirs" }))
        #expect(mine.name == "Mine")
        #expect(mine.email == "theirs")
    }

    @Test(arguments: StoreKind.all) func notificationsCarryIdentifiers(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let existing = User(name: "Existing", email: "")
        let doomed = User(name: "Doomed", email: "")
        context.insert(existing)
        context.insert(doomed)
        try context.save()
        existing.email = "x"
        context.delete(doomed)
        let added = User(name: "Added", email: "")
        context.insert(added)
        let doomedID = doomed.persistentModelID
        let recorder = NotificationRecorder(context)
        try context.save()
        #expect(recorder.names == [ModelContext.willSave, ModelContext.didSave])
        let info = try #require(recorder.userInfo)
        #expect(
            info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [
                added.persistentModelID
            ])
        #expect(
            info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [
                existing.persistentModelID
            ])
        #expect(info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [doomedID])
    }

    @Test(arguments: StoreKind.all) func transactionSavesOrRollsBack(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        try context.transaction { context.insert(User(name: "Committed", email: "")) }
        #expect(!context.hasChanges)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try context.transaction {
                context.insert(User(name: "Abandoned", email: ""))
                throw Failure()
            }
        }
        #expect(!context.hasChanges)
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.name) == ["Committed"])
    }

    @Test(arguments: StoreKind.all) func deleteWhereAppliesAtSave(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        for name in ["a", "b", "c"] { context.insert(User(name: name, email: name == "b" ? "keep" : "drop")) }
        try context.save()
        try context.delete(model: User.self, where: #Predicate { $0.email == "drop" })
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.name) == ["b"], "pending deletes are left out")
        #expect(
            try ModelContext(container).fetchCount(FetchDescriptor<User>()) == 3, "nothing is written before the save")
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<User>()).map(\.name) == ["b"])
        try context.delete(model: User.self)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<User>()) == 0)
    }

    @Test(arguments: StoreKind.all) func modelOutsideTheSchemaIsAClearErrorAtSave(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        context.insert(Counter(label: "stray"))
        #expect {
            try context.save()
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .configurationSchemaNotFoundInContainerSchema && error.modelName == "Counter"
        }
    }
}

/// Records the save notifications a context posts.
final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: a context posts its save notifications on the thread that saves, the test's own.
    private(set) var names: [Notification.Name] = []
    private(set) var userInfo: [AnyHashable: Any]?
    private var tokens: [any NSObjectProtocol] = []

    init(_ context: ModelContext) {
        for name in [ModelContext.willSave, ModelContext.didSave] {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) {
                    [unowned self] note in
                    names.append(note.name)
                    if note.name == ModelContext.didSave { userInfo = note.userInfo }
                })
        }
    }

    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
}
