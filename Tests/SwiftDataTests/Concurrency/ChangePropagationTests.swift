import Foundation
import SharedTestModels
import SwiftData
import Testing

@testable import SwiftDataCore

/// A save in one context reaches the container's other contexts: registered models refresh, keeping unsaved edits.
@Suite struct ChangePropagationTests {
    @Test(arguments: StoreKind.withPooler) func registeredModelsRefreshKeepingUnsavedEdits(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self)
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        let shared = Counter(label: "shared")
        writer.insert(shared)
        try writer.save()
        let seen = try #require(try reader.fetch(FetchDescriptor<Counter>()).first)
        seen.label = "reader's edit"
        let fired = Flag()
        withObservationTracking {
            _ = seen.value
        } onChange: {
            fired.set()
        }

        shared.value = 42
        shared.label = "writer's label"
        try writer.save()
        #expect(seen.value == 0, "a context without a place to run applies notices at its next fetch or save")
        _ = try reader.fetchCount(FetchDescriptor<Counter>())
        #expect(seen.value == 42)
        #expect(seen.label == "reader's edit", "the reader's unsaved edit is kept")
        #expect(fired.isSet, "observers hear of the refreshed value")
    }

    @Test(arguments: StoreKind.withPooler) func modelsDeletedElsewhereLeaveTheContext(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self)
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        let doomed = Counter(label: "doomed")
        writer.insert(doomed)
        try writer.save()
        let seen = try #require(try reader.fetch(FetchDescriptor<Counter>()).first)
        writer.delete(doomed)
        try writer.save()
        #expect(try reader.fetch(FetchDescriptor<Counter>()).isEmpty)
        #expect(seen.modelContext == nil)
        #expect(reader.registeredModel(for: seen.persistentModelID) as Counter? == nil)
    }

    @MainActor @Test(arguments: StoreKind.withPooler) func theMainContextUpdatesOnItsOwn(store: StoreKind) async throws
    {
        let container = try store.makeContainer(Counter.self)
        let counter = Counter(label: "main")
        container.mainContext.insert(counter)
        try container.mainContext.save()
        let id = counter.persistentModelID
        try await Task.detached {
            let background = ModelContext(container)
            let copy = try #require(background.model(for: id) as? Counter)
            copy.value = 7
            try background.save()
        }.value
        let applied = await waitUntil { counter.value == 7 }
        #expect(applied, "the main context applied the background save without being asked")
    }

    @Test(arguments: StoreKind.withPooler) func changesByAnotherProcessAreSeenOnTheNextFetch(store: StoreKind) throws {
        let directory = store.location()
        let container = try directory.container(Visit.self)
        let context = ModelContext(container)
        let visit = Visit(name: "here")
        context.insert(visit)
        try context.save()
        let child = try directory.runChild(["increment-all"])
        try #require(try child.wait() == 0)
        #expect(visit.count == 1)
        #expect(try context.fetch(FetchDescriptor<Visit>()).map(\.count) == [2])
        #expect(visit.count == 2, "the registered model refreshed")
    }
}
