import Foundation
import SwiftData
import Testing

/// Code a save runs besides its own: the `willSave` and `didSave` notifications' observers, and the observers of
/// models (`withObservationTracking`) that the save's bookkeeping after its commit tells of a change (a relationship
/// it unloads, links, clears or empties). A change, insert or delete made from any of them is kept as a pending
/// change: the one made before the rows are written is saved with them, one made after waits for the next save.
@Suite struct SaveReentrancyTests {
    /// A change made by a model's observer while the save, after its commit, empties the relationships of a model
    /// it deleted (the observer is told that the deleted message's `sender` changed): the change to a model and to
    /// another model, and an insert, stay pending for the next save.
    @Test(arguments: StoreKind.all) func aChangeMadeByAnObserverDuringTheSaveIsKept(store: StoreKind) throws {
        let container = try store.makeContainer(Person.self, Message.self, Passport.self)
        let context = ModelContext(container)
        let person = Person(name: "sender")
        let other = Person(name: "other")
        let message = Message(text: "hello")
        let gone = Message(text: "deleted")
        for model in [person, other] { context.insert(model) }
        for model in [message, gone] { context.insert(model) }
        gone.sender = person
        try context.save()

        context.delete(gone)
        let action = Action {
            message.text = "changed while saving"
            other.name = "changed while saving"
            context.insert(Person(name: "inserted while saving"))
        }
        withObservationTracking {
            _ = gone.sender
        } onChange: {
            action.run()
        }
        try context.save()
        #expect(action.runs == 1, "the save empties the deleted message's sender, which its observers hear of")
        #expect(context.hasChanges)
        #expect(
            Set(context.changedModelsArray.map(\.persistentModelID))
                == [message.persistentModelID, other.persistentModelID])
        #expect(context.insertedModelsArray.count == 1)

        try context.save()
        #expect(!context.hasChanges)
        let fresh = ModelContext(container)
        let names = try fresh.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["changed while saving", "inserted while saving", "sender"])
        #expect(try fresh.fetch(FetchDescriptor<Message>()).map(\.text) == ["changed while saving"])
    }

    /// Changes, inserts and deletes made by a `willSave` observer are saved by that save; those of a `didSave`
    /// observer by the next one.
    @Test(arguments: StoreKind.all) func changesMadeInSaveNotificationsAreSaved(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        let saved = (0..<3).map { User(name: "u\($0)", email: "") }
        for user in saved { context.insert(user) }
        try context.save()

        saved[0].email = "changed before the save"
        var saves = 0
        let observer = SaveObserver(context) {
            guard saves == 0 else { return }
            saved[1].email = "changed in willSave"
            context.insert(User(name: "inserted in willSave", email: ""))
            context.delete(saved[2])
        } didSave: { _ in
            saves += 1
            if saves == 1 { saved[0].email = "changed in didSave" }
        }
        try context.save()
        withExtendedLifetime(observer) {}
        #expect(context.hasChanges, "the didSave observer's change waits for the next save")
        #expect(context.changedModelsArray.map(\.persistentModelID) == [saved[0].persistentModelID])
        #expect(
            try Self.stored(container) == [
                "inserted in willSave:", "u0:changed before the save", "u1:changed in willSave",
            ])
        try context.save()
        #expect(!context.hasChanges)
        #expect(
            try Self.stored(container) == [
                "inserted in willSave:", "u0:changed in didSave", "u1:changed in willSave",
            ])
    }

    private static func stored(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)])).map {
            "\($0.name):\($0.email)"
        }
    }
}

/// A closure a `@Sendable` observer runs, counting its runs. `@unchecked Sendable`: observers are told on the thread
/// that changes the model or saves, the test's own.
private final class Action: @unchecked Sendable {
    private let body: () -> Void
    private(set) var runs = 0
    init(_ body: @escaping () -> Void) { self.body = body }
    func run() {
        runs += 1
        body()
    }
}
