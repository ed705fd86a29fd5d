import Foundation
import Synchronization
import Testing

@testable import SwiftDataCore

/// What a save does once, whatever it writes: the statements stores keep per row shape, and the notices a save
/// sends to the container's other contexts.
@Suite struct SaveFixedCostTests {
    /// Stores keep each write statement's text by entity, kind (insert or update) and properties set: saves that
    /// alternate shapes, and entities with the same properties, each write their own columns.
    @Test(arguments: StoreKind.all) func savesOfEveryShapeWriteTheirOwnColumns(store: StoreKind) throws {
        let container = try store.makeContainer(User.self, Counter.self)
        let context = ModelContext(container)
        let user = User(name: "a", email: "a@")
        let counter = Counter(label: "c")
        context.insert(user)
        context.insert(counter)
        try context.save()
        for round in 0..<3 {
            user.name = "name \(round)"
            try context.save()
            user.email = "email \(round)"
            try context.save()
            user.name = "both \(round)"
            user.email = "both@\(round)"
            counter.value = round
            try context.save()
            counter.label = "label \(round)"
            try context.save()
            // A new model of the same entity: an insert of every attribute, after updates of the same entity.
            context.insert(User(name: "new \(round)", email: "new@\(round)"))
            try context.save()
        }
        let fresh = ModelContext(container)
        let users = try fresh.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)]))
        #expect(users.map(\.name) == ["both 2", "new 0", "new 1", "new 2"])
        #expect(users.map(\.email) == ["both@2", "new@0", "new@1", "new@2"])
        let counters = try fresh.fetch(FetchDescriptor<Counter>())
        #expect(counters.map(\.label) == ["label 2"] && counters.map(\.value) == [2])
    }

    /// A save's notice reaches every other live subscriber, never its origin, and never one whose owner is gone.
    @Test func aNoticeReachesTheOtherLiveSubscribersOnly() {
        let center = ChangeCenter()
        let received = Mutex<[String]>([])
        let origin = NSObject()
        let other = NSObject()
        var gone: NSObject? = NSObject()
        for (name, owner) in [("origin", origin), ("other", other), ("gone", gone!)] {
            center.subscribe(owner) { _ in received.withLock { $0.append(name) } }
        }
        gone = nil
        center.post(ChangeCenter.Notice(origin: ObjectIdentifier(origin)))
        #expect(received.withLock { $0 } == ["other"])
        center.post(ChangeCenter.Notice(origin: ObjectIdentifier(other)))
        #expect(received.withLock { $0 }.sorted() == ["origin", "other"])
        center.unsubscribe(other)
        center.post(ChangeCenter.Notice(origin: nil))
        #expect(received.withLock { $0 }.sorted() == ["origin", "origin", "other"])
        withExtendedLifetime((origin, other, gone)) {}
    }
}
