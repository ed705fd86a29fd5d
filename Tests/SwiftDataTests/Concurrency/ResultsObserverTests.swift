import Foundation
import SharedTestModels
import SwiftData
import Testing

/// `ResultsObserver` keeps a fetch current across contexts, actors and processes.
@Suite struct ResultsObserverTests {
    /// Counters with value at least 10, by value then label.
    func bigCounters(in context: ModelContext) throws -> ResultsObserver<Counter, Never> {
        try ResultsObserver(
            filterBy: #Predicate<Counter> { $0.value >= 10 },
            sortBy: [SortDescriptor(\.value), SortDescriptor(\.label)], modelContext: context)
    }

    func labels(_ observer: ResultsObserver<Counter, Never>) -> [String] { observer.results.map(\.label) }

    func insert(_ values: [String: Int], into context: ModelContext) throws -> [String: Counter] {
        var counters: [String: Counter] = [:]
        for (label, value) in values {
            let counter = Counter(label: label)
            counter.value = value
            context.insert(counter)
            counters[label] = counter
        }
        try context.save()
        return counters
    }

    @Test(arguments: StoreKind.all) func savesInAnotherContextReachTheResults(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self)
        let writer = ModelContext(container)
        let counters = try insert(["a": 10, "b": 20, "small": 1], into: writer)
        let observer = try bigCounters(in: ModelContext(container))
        #expect(labels(observer) == ["a", "b"])

        let c = try insert(["c": 15], into: writer)["c"]!
        #expect(labels(observer) == ["a", "c", "b"], "an insert appears in sort order")

        counters["a"]!.value = 30
        try writer.save()
        #expect(labels(observer) == ["c", "b", "a"], "an update moves the model")
        #expect(observer.results.last?.value == 30, "and the model shows the new value")

        counters["small"]!.value = 12
        try writer.save()
        #expect(labels(observer) == ["small", "c", "b", "a"], "a change moves a model into the predicate")

        counters["b"]!.value = 2
        try writer.save()
        #expect(labels(observer) == ["small", "c", "a"], "a change moves a model out of the predicate")

        writer.delete(c)
        try writer.save()
        #expect(labels(observer) == ["small", "a"], "a delete removes the model")
    }

    @Test(arguments: StoreKind.all) func savesOfTheObserversOwnContextReachTheResults(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self)
        let context = ModelContext(container)
        let observer = try bigCounters(in: context)
        _ = try insert(["mine": 11], into: context)
        #expect(labels(observer) == ["mine"])
    }

    @Test(arguments: StoreKind.all) func observationTrackingFiresOnEachRelevantSave(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self, User.self)
        let writer = ModelContext(container)
        let observer = try bigCounters(in: ModelContext(container))
        let fired = Flag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            fired.set()
        }
        writer.insert(User(name: "unrelated", email: ""))
        try writer.save()
        #expect(!fired.isSet, "a save of an unrelated model leaves the results alone")
        _ = try insert(["x": 50], into: writer)
        #expect(fired.isSet)
        #expect(labels(observer) == ["x"])
    }

    @Test(arguments: StoreKind.all) func settingTheFilterOrSortRefetchesAtOnce(store: StoreKind) throws {
        let container = try store.makeContainer(Counter.self)
        let context = ModelContext(container)
        _ = try insert(["a": 10, "b": 20, "c": 5], into: context)
        let observer = try bigCounters(in: context)
        let fired = Flag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            fired.set()
        }
        observer.sortBy = [SortDescriptor(\.value, order: .reverse)]
        #expect(fired.isSet)
        #expect(labels(observer) == ["b", "a"])
        #expect(observer.fetchDescriptor.sortBy.count == 1)
        observer.filterBy = nil
        #expect(labels(observer) == ["b", "a", "c"])
        #expect(observer.sections == nil)
    }

    @Test(arguments: StoreKind.all) func sectionsGroupByTheKeyPath(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let container = try store.makeContainer(User.self)
            let context = ModelContext(container)
            for (name, email) in [("Ann", "b.org"), ("Bob", "a.org"), ("Cid", "b.org"), ("Dee", "a.org")] {
                context.insert(User(name: name, email: email))
            }
            try context.save()
            let observer = try ResultsObserver(
                sortBy: [SortDescriptor(\User.name, order: .reverse)], sectionBy: \User.email, modelContext: context)
            let sections = try #require(observer.sections)
            #expect(sections.sectionTitles == ["a.org", "b.org"])
            #expect(sections[sectionTitle: "b.org"]?.map(\.name) == ["Cid", "Ann"])
            #expect(sections.index(ofSectionTitled: "b.org") == 1)
            #expect(sections[0].id == "a.org")
            #expect(observer.results.map(\.name) == ["Dee", "Bob", "Cid", "Ann"])
            #expect(
                observer.sortBy.count == 1, "sortBy is what was asked; the section sort comes first in the descriptor")
            #expect(observer.fetchDescriptor.sortBy.count == 2)

            let writer = ModelContext(container)
            writer.insert(User(name: "Eve", email: "0.org"))
            try writer.save()
            #expect(observer.sections?.sectionTitles == ["0.org", "a.org", "b.org"])
        }
        #expect(
            log.allSatisfy {
                $0.hasPrefix(
                    "SwiftData warning: sorting User happens in memory: PostgreSQL cannot order strings as Foundation's localizedStandard comparator does"
                )
            }, "\(log)")
        #expect(store == .sqlite ? log.isEmpty : !log.isEmpty, "\(log)")
    }

    @Test func snapshotsStreamEveryChange() async throws {
        let container = try makeMemoryContainer(Counter.self)
        let writer = ModelContext(container)
        let observer = try bigCounters(in: ModelContext(container))
        var snapshots = observer.snapshots().makeAsyncIterator()
        #expect(await snapshots.next() == [], "the first snapshot is the current state")
        let counters = try insert(["a": 10], into: writer)
        #expect(await snapshots.next() == [counters["a"]!.persistentModelID])
        writer.delete(counters["a"]!)
        try writer.save()
        #expect(await snapshots.next() == [])
    }

    @MainActor @Test(arguments: StoreKind.all) func aMainActorObserverSeesAModelActorsSaves(store: StoreKind)
        async throws
    {
        let container = try store.makeContainer(Counter.self)
        let observer = try ResultsObserver(
            filterBy: #Predicate<Counter> { $0.value >= 0 }, sortBy: [SortDescriptor(\.label)],
            modelContext: container.mainContext)
        var snapshots = observer.snapshots().makeAsyncIterator()
        _ = await snapshots.next()
        let ids = try await CounterStore(modelContainer: container).add(["from an actor"])
        #expect(await snapshots.next() == ids)
        #expect(observer.results.map(\.label) == ["from an actor"])
    }

    @Test(arguments: StoreKind.all) func anotherProcessesChangesArriveWithoutFetching(store: StoreKind) async throws {
        let directory = store.location()
        let container = try directory.container(Visit.self)
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\Visit.name)], modelContainer: container)
        let fired = Flag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            fired.set()
        }
        let child = try directory.runChild(["insert-and-save", "elsewhere"])
        try #require(try child.wait() == 0)
        #expect(await fired.wait(), "the store noticed the other process's save")
        #expect(observer.results.map(\.name) == ["elsewhere"])
    }

    @Test func theStreamEndsWithTheObserver() async throws {
        let container = try makeMemoryContainer(Counter.self)
        var observer: ResultsObserver<Counter, Never>? = try bigCounters(in: ModelContext(container))
        var snapshots = observer!.snapshots().makeAsyncIterator()
        _ = await snapshots.next()
        observer = nil
        #expect(await snapshots.next() == nil)
    }

    /// A task waiting for the next snapshot ends when it is cancelled, although the results do not change.
    @Test func theStreamEndsWhenItsTaskIsCancelled() async throws {
        let container = try makeMemoryContainer(Counter.self)
        let observer = try bigCounters(in: ModelContext(container))
        let snapshots = observer.snapshots()
        let first = Flag()
        let ended = Flag()
        let reader = Task {
            var count = 0
            for await _ in snapshots {
                count += 1
                first.set()
            }
            ended.set()
            return count
        }
        #expect(await first.wait(), "the first snapshot arrived")
        reader.cancel()
        // Without its end the reader would never finish: awaiting its value would hang the run, not fail it.
        guard await ended.wait() else {
            Issue.record("the cancelled stream did not end")
            return
        }
        #expect(await reader.value == 1)
        withExtendedLifetime(observer) {}
    }
}
