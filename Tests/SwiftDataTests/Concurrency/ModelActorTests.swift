import Foundation
import SwiftData
import Testing

/// A model actor as the seeds' readers would write one: it takes identifiers in and hands identifiers out.
@ModelActor actor CounterStore {
    func add(_ labels: [String]) throws -> [PersistentIdentifier] {
        let counters = labels.map { Counter(label: $0) }
        for counter in counters { modelContext.insert(counter) }
        try modelContext.save()
        return counters.map(\.persistentModelID)
    }

    func increment(_ id: PersistentIdentifier) throws {
        guard let counter = self[id, as: Counter.self] else { throw CocoaError(.fileNoSuchFile) }
        counter.value += 1
        try modelContext.save()
    }

    func value(of id: PersistentIdentifier) -> Int? { self[id, as: Counter.self]?.value }

    /// Waits until the counter `id` holds `value`, woken by its changes, which the actor's context applies on the
    /// actor; returns whether it came to hold it.
    func waitForValue(of id: PersistentIdentifier, toBe value: Int) async -> Bool {
        guard let counter = self[id, as: Counter.self] else { return false }
        return await waitUntil { counter.value == value }
    }
    func runsOnTheMainThread() -> Bool { Thread.isMainThread }
    func count() throws -> Int { try modelContext.fetchCount(FetchDescriptor<Counter>()) }
    func contextIdentity() -> ObjectIdentifier { ObjectIdentifier(modelContext) }
}

/// A public model actor gets public members, so a library can expose one.
@ModelActor public actor PublicCounterStore {}

@Suite struct ModelActorTests {
    @Test func anActorHasItsOwnContextOnItsOwnThread() async throws {
        let container = try makeMemoryContainer(Counter.self)
        let store = CounterStore(modelContainer: container)
        #expect(store.modelContainer === container)
        #expect(await !store.runsOnTheMainThread())
        let ids = try await store.add(["a", "b"])
        try await store.increment(ids[0])
        #expect(await store.value(of: ids[0]) == 1)
        #expect(await store.value(of: ids[1]) == 0)
        let other = CounterStore(modelContainer: container)
        #expect(await other.contextIdentity() != store.contextIdentity())
        #expect(PublicCounterStore(modelContainer: container).modelContainer === container)
    }

    @Test func theSubscriptFindsStoredModelsAndNothingElse() async throws {
        let container = try makeMemoryContainer(Counter.self, User.self)
        let ids = try await CounterStore(modelContainer: container).add(["stored"])
        let second = CounterStore(modelContainer: container)
        #expect(await second.value(of: ids[0]) == 0, "a model saved by another actor is loaded from the store")
        try await second.increment(ids[0])

        let context = ModelContext(container)
        let gone = Counter(label: "gone")
        context.insert(gone)
        try context.save()
        let goneID = gone.persistentModelID
        context.delete(gone)
        try context.save()
        #expect(await second.value(of: goneID) == nil, "a deleted model is not found")

        let item = User(name: "not a counter", email: "")
        context.insert(item)
        try context.save()
        #expect(await second.value(of: item.persistentModelID) == nil, "a model of another type is not a Counter")
    }

    @MainActor @Test func theMainContextSeesAnActorsSaves() async throws {
        let container = try makeMemoryContainer(Counter.self)
        let counter = Counter(label: "shared")
        container.mainContext.insert(counter)
        try container.mainContext.save()
        try await CounterStore(modelContainer: container).increment(counter.persistentModelID)
        let applied = await waitUntil { counter.value == 1 }
        #expect(applied, "the main context applied the actor's save")
    }

    @Test func anActorsContextSeesOtherSavesWithoutFetching() async throws {
        let container = try makeMemoryContainer(Counter.self)
        let store = CounterStore(modelContainer: container)
        let ids = try await store.add(["x"])
        #expect(await store.value(of: ids[0]) == 0)
        let context = ModelContext(container)
        let copy = try #require(context.model(for: ids[0]) as? Counter)
        copy.value = 5
        try context.save()
        #expect(
            await store.waitForValue(of: ids[0], toBe: 5),
            "the actor's registered model was refreshed on the actor's queue")
    }
}
