import Foundation
import Observation
import SharedTestModels
import SwiftData
import Synchronization
import Testing

/// `HistoryObserver` counts the arrivals of transactions that concern it, from any context or process.
@Suite struct HistoryObserverTests {
    /// Waits for the observer's counter to reach `count`, woken by each change of the counter (it is observable),
    /// not by polling; returns the counter, so that a test that fails reports its count instead of hanging.
    @discardableResult
    func waitFor(_ count: Int, _ observer: HistoryObserver) async throws -> Int {
        _ = await waitUntil { observer.eventCounter >= count }
        return observer.eventCounter
    }

    func save(_ model: some PersistentModel, in container: ModelContainer, author: String? = nil) throws {
        let context = ModelContext(container)
        context.author = author
        context.insert(model)
        try context.save()
    }

    @Test(arguments: StoreKind.all) func countsTheSavesOfAnyContextFromNowOn(store: StoreKind) async throws {
        let container = try store.makeContainer(HistoryNote.self)
        try save(HistoryNote(text: "before"), in: container)
        let observer = try HistoryObserver(modelContainer: container)
        #expect(observer.eventCounter == 0, "earlier transactions are not events")
        #expect(observer.modelContainer === container)
        let fired = Flag()
        withObservationTracking {
            _ = observer.eventCounter
        } onChange: {
            fired.set()
        }
        try save(HistoryNote(text: "after"), in: container)
        #expect(try await waitFor(1, observer) == 1)
        #expect(fired.isSet, "eventCounter is observable")
        let tokens = observer.historyTokens
        let newest = try history(container).last!.token
        #expect((tokens.values.first as? DefaultHistoryToken) == newest)
    }

    @Test(arguments: StoreKind.all) func onlyTheObservedModelsAndAuthorsCount(store: StoreKind) async throws {
        let container = try store.makeContainer(HistoryTrip.self, HistoryNote.self)
        let observer = try HistoryObserver(
            observedModels: [HistoryTrip.self], authors: ["widget"], modelContainer: container)
        #expect(observer.authors == ["widget"])
        #expect(observer.observedModels.map(ObjectIdentifier.init) == [ObjectIdentifier(HistoryTrip.self)])
        try save(HistoryNote(text: "note"), in: container, author: "widget")
        try save(HistoryTrip(name: "Graz", destination: "Austria"), in: container, author: "app")
        try save(HistoryTrip(name: "Linz", destination: "Austria"), in: container)
        // The observer handles transactions in order: when the one it counts has arrived, the three before it were
        // seen and ignored (a count above 1 says otherwise).
        try save(HistoryTrip(name: "Wien", destination: "Austria"), in: container, author: "widget")
        #expect(try await waitFor(1, observer) == 1)
    }

    @Test(arguments: StoreKind.all) func startsFromGivenTokens(store: StoreKind) async throws {
        let container = try store.makeContainer(HistoryNote.self)
        try save(HistoryNote(text: "first"), in: container)
        let first = try history(container)[0].token
        try save(HistoryNote(text: "second"), in: container)
        let observer = try HistoryObserver(historyTokens: [first.storeIdentifier: first], modelContainer: container)
        #expect(try await waitFor(1, observer) == 1, "the transaction after the token is an event")
        let newest = try history(container).last!.token
        let current = try HistoryObserver(historyTokens: [newest.storeIdentifier: newest], modelContainer: container)
        // Only a later transaction is an event: once it has arrived, a count above 1 would mean the older ones were.
        try save(HistoryNote(text: "third"), in: container)
        #expect(try await waitFor(1, current) == 1)
    }

    @Test(arguments: StoreKind.all) func deletedHistoryAfterItsPositionIsAnEvent(store: StoreKind) async throws {
        let container = try store.makeContainer(HistoryNote.self)
        try save(HistoryNote(text: "a"), in: container)
        let observer = try HistoryObserver(modelContainer: container)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "b"))
        try context.save()
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        try save(HistoryNote(text: "c"), in: container)
        #expect(try await waitFor(1, observer) >= 1)
    }

    @Test(arguments: StoreKind.all) func anotherProcessesSavesAreEvents(store: StoreKind) async throws {
        let location = store.location()
        let container = try location.container(Visit.self)
        let observer = try HistoryObserver(observedModels: [Visit.self], modelContainer: container)
        let child = try location.runChild(["insert-and-save", "elsewhere"])
        try #require(try child.wait() == 0)
        #expect(try await waitFor(1, observer) == 1)
        let transactions = try history(container)
        #expect(transactions.map(\.changes.count) == [1])
        #expect(transactions.first?.processIdentifier == String(child.processIdentifier))
        #expect(transactions.first?.bundleIdentifier == "TestChildProcess")
        withExtendedLifetime(location) {}
    }

    @Test(arguments: StoreKind.all) func countsOnTheActorItWasCreatedOn(store: StoreKind) async throws {
        let container = try store.makeContainer(HistoryNote.self)
        let observer = try await ObserverMaker().make(container)
        try save(HistoryNote(text: "x"), in: container)
        #expect(try await waitFor(1, observer) == 1)
    }

    @Test func refusesTokensOfAnotherType() throws {
        struct OtherToken: HistoryToken {
            var tokenValue: Int? { 0 }
            var storeIdentifier: String { "" }
            var id: Int { 0 }
            static func < (lhs: Self, rhs: Self) -> Bool { false }
        }
        let container = try makeMemoryContainer(HistoryNote.self)
        let store = try #require(
            container.configurations.first.flatMap { container.storeIdentifier(forConfigurationNamed: $0.name) })
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try HistoryObserver(historyTokens: [store: OtherToken()], modelContainer: container)
        }
    }
}

actor ObserverMaker {
    func make(_ container: ModelContainer) throws -> HistoryObserver { try HistoryObserver(modelContainer: container) }
}
