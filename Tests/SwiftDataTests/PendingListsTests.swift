import Foundation
import SwiftData
import Testing

/// The pending arrays (`insertedModelsArray`, `changedModelsArray`, `deletedModelsArray`) and `hasChanges` list only
/// models still pending: a model that left that state (a changed model deleted, a new one deleted, a deleted one
/// inserted again) is not listed, and a save writes only what is pending.
@Suite struct PendingListsTests {
    @Test(arguments: StoreKind.all) func modelsThatLeftTheirPendingStateAreNotListed(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        let users = (0..<3).map { User(name: "u\($0)", email: "") }
        for user in users { context.insert(user) }
        try context.save()

        users[0].email = "changed"
        users[1].email = "changed, then deleted"
        context.delete(users[1])
        context.delete(users[2])
        context.insert(users[2])
        let dropped = User(name: "inserted, then deleted", email: "")
        context.insert(dropped)
        context.delete(dropped)
        #expect(context.changedModelsArray.map(\.persistentModelID) == [users[0].persistentModelID])
        #expect(context.deletedModelsArray.map(\.persistentModelID) == [users[1].persistentModelID])
        #expect(context.insertedModelsArray.isEmpty)

        try context.save()
        #expect(!context.hasChanges)
        let stored = try ModelContext(container).fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { "\($0.name):\($0.email)" } == ["u0:changed", "u2:"])

        users[0].email = "rolled back"
        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.changedModelsArray.isEmpty)
        #expect(users[0].email == "changed")
    }
}
