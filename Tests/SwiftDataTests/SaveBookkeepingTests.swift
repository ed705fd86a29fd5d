import Foundation
import SwiftData
import Testing

/// What a save keeps per model besides its rows: the lists of pending changes, the identifiers its notification
/// reports, and the keys it gives new models (kept by position in its list of new models).
@Suite struct SaveBookkeepingTests {
    private static let deletedKey = ModelContext.NotificationKey.deletedIdentifiers.rawValue
    private static let insertedKey = ModelContext.NotificationKey.insertedIdentifiers.rawValue

    @Test(arguments: StoreKind.all) func deletedIdentifiersAreInKeyOrderWhateverTheOrderOfDeletes(store: StoreKind)
        throws
    {
        let context = ModelContext(try store.makeContainer(User.self))
        let users = (0..<5).map { User(name: "u\($0)", email: "") }
        for user in users { context.insert(user) }
        try context.save()
        let ids = users.map(\.persistentModelID)
        for user in [users[3], users[0], users[4], users[1]] { context.delete(user) }
        let recorder = NotificationRecorder(context)
        try context.save()
        let deleted = try #require(recorder.userInfo?[Self.deletedKey] as? [PersistentIdentifier])
        #expect(deleted == [ids[0], ids[1], ids[3], ids[4]])
        #expect(try context.fetch(FetchDescriptor<User>()).map(\.name) == ["u2"])
        #expect(users.map { $0.modelContext == nil } == [true, true, false, true, true])
    }

    @Test(arguments: StoreKind.all) func pendingListsLeaveOutWhatWasUndone(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let saved = (0..<3).map { User(name: "s\($0)", email: "") }
        for user in saved { context.insert(user) }
        try context.save()
        let new = (0..<3).map { User(name: "n\($0)", email: "") }
        for user in new { context.insert(user) }
        context.delete(new[1])
        #expect(Self.names(context.insertedModelsArray) == ["n0", "n2"])
        saved[0].email = "a"
        saved[1].email = "b"
        context.delete(saved[1])
        #expect(Self.names(context.changedModelsArray) == ["s0"])
        #expect(Self.names(context.deletedModelsArray) == ["s1"])
        context.insert(saved[1])
        #expect(context.deletedModelsArray.isEmpty)
        #expect(Self.names(context.changedModelsArray) == ["s0", "s1"])
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty && context.changedModelsArray.isEmpty)
        let stored = try context.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["n0", "n2", "s0", "s1", "s2"])
        #expect(stored.map(\.email) == ["", "", "a", "b", ""])
    }

    @Test(arguments: StoreKind.all) func newModelsGetTheirKeysInTheOrderInserted(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(User.self))
        let users = (0..<4).map { User(name: "u\($0)", email: "") }
        for user in users { context.insert(user) }
        context.delete(users[2])
        let recorder = NotificationRecorder(context)
        try context.save()
        let inserted = try #require(recorder.userInfo?[Self.insertedKey] as? [PersistentIdentifier])
        #expect(inserted == [users[0], users[1], users[3]].map(\.persistentModelID))
        #expect(users[2].modelContext == nil)
        for (user, id) in zip([users[0], users[1], users[3]], inserted) {
            #expect(context.registeredModel(for: id) as User? === user)
        }
    }

    private static func names(_ models: [any PersistentModel]) -> [String] {
        models.compactMap { ($0 as? User)?.name }
    }
}
