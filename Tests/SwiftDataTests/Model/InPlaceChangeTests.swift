import Foundation
import Observation
import SwiftData
import Testing

/// A change made in place (`+=`, `append`) goes through the property's `_modify` accessor: it must load the value,
/// tell observers, record the change and its undo, and keep inverses, as an assignment does.
@Suite struct InPlaceChangeTests {
    /// A context with one saved counter, and that counter fetched in a new context, not read yet.
    private func fetchedCounter(value: Int = 1) throws -> (ModelContext, Counter) {
        let container = try makeMemoryContainer(Counter.self)
        let writer = ModelContext(container)
        let counter = Counter(label: "c")
        counter.value = value
        writer.insert(counter)
        try writer.save()
        let context = ModelContext(container)
        let fetched = try #require(try context.fetch(FetchDescriptor<Counter>()).first)
        return (context, fetched)
    }

    /// Runs `body` under observation tracking; the flag is set when a change it tracked happens.
    private func tracking(_ body: () -> Void) -> Flag {
        let fired = Flag()
        withObservationTracking(body) { fired.set() }
        return fired
    }

    @Test func inPlaceChangeOfAReadPropertyTellsItsObserver() throws {
        let (_, counter) = try fetchedCounter()
        let fired = tracking { _ = counter.value }
        counter.value += 1
        #expect(fired.isSet)
        #expect(counter.value == 2)
    }

    @Test func inPlaceChangeOfAnotherPropertyDoesNotTellTheObserver() throws {
        let (_, counter) = try fetchedCounter()
        let fired = tracking { _ = counter.value }
        counter.label += "!"
        #expect(!fired.isSet, "only the properties read while tracking are observed")
        #expect(counter.label == "c!")
    }

    @Test func inPlaceChangeAsTheFirstReadWhileTrackingObservesLaterChanges() throws {
        let (_, counter) = try fetchedCounter()
        let fired = tracking { counter.value += 1 }
        #expect(!fired.isSet, "a change made while tracking is not one the observer sees")
        counter.value += 1
        #expect(fired.isSet, "the in-place change read the property, so the observer watches it")
        #expect(counter.value == 3)
    }

    @Test func inPlaceChangeOfAnUnreadModelIsSavedAndListed() throws {
        let (context, counter) = try fetchedCounter(value: 41)
        counter.value += 1
        #expect(counter.hasChanges)
        #expect(context.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        try context.save()
        #expect(!context.hasChanges)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Counter>()).map(\.value)
        #expect(stored == [42])
    }

    @Test func inPlaceChangeOfAnUnloadedPropertyLoadsItFirst() throws {
        let (context, _) = try fetchedCounter(value: 7)
        let other = ModelContext(context.container)
        var descriptor = FetchDescriptor<Counter>()
        descriptor.propertiesToFetch = [\.label]
        let counter = try #require(try other.fetch(descriptor).first)
        counter.value += 1
        #expect(counter.value == 8)
        try other.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Counter>()).map(\.value) == [8])
    }

    @Test func inPlaceChangeIsUndone() throws {
        let (context, counter) = try fetchedCounter(value: 5)
        let undoManager = UndoManager()
        context.undoManager = undoManager
        counter.value += 1
        #expect(counter.value == 6)
        context.processPendingChanges()
        undoManager.undo()
        #expect(counter.value == 5)
        #expect(!counter.hasChanges)
    }

    @Test func inPlaceAppendToAnUnloadedRelationshipSetsTheInverse() throws {
        let container = try makeMemoryContainer(Library.self, Book.self, Tag.self)
        let writer = ModelContext(container)
        let library = Library(name: "central")
        library.books = [Book(title: "first")]
        writer.insert(library)
        writer.insert(Book(title: "second"))
        try writer.save()

        let context = ModelContext(container)
        let fetchedLibrary = try #require(try context.fetch(FetchDescriptor<Library>()).first)
        let second = try #require(
            try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "second" })).first)
        fetchedLibrary.books.append(second)
        #expect(second.library === fetchedLibrary)
        #expect(Set(fetchedLibrary.books.map(\.title)) == ["first", "second"])
        try context.save()

        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Library>()).first)
        #expect(Set(stored.books.map(\.title)) == ["first", "second"])
    }
}
