import Foundation
import SwiftData
import Testing

/// A band and its musicians: many-to-many, with an inverse.
@Model final class CycleBand {
    var name: String
    @Relationship(inverse: \CycleMusician.bands) var musicians: [CycleMusician] = []
    init(name: String) { self.name = name }
}

@Model final class CycleMusician {
    var name: String
    var bands: [CycleBand] = []
    init(name: String) { self.name = name }
}

/// A garden, its beds and their plants, and each plant's favourite garden: a cycle through three models and three
/// different relationships (one-to-many with an inverse, then two to-one relationships without one).
@Model final class CycleGarden {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \CycleBed.garden) var beds: [CycleBed] = []
    init(name: String) { self.name = name }
}

@Model final class CycleBed {
    var name: String
    var garden: CycleGarden?
    var plant: CyclePlant?
    init(name: String) { self.name = name }
}

@Model final class CyclePlant {
    var name: String
    var favourite: CycleGarden?
    init(name: String) { self.name = name }
}

/// A ring of three models, each holding the next through a to-one relationship with no inverse.
@Model final class CycleFirst {
    var name: String
    var next: CycleSecond?
    init(name: String) { self.name = name }
}

@Model final class CycleSecond {
    var name: String
    var next: CycleThird?
    init(name: String) { self.name = name }
}

@Model final class CycleThird {
    var name: String
    var next: CycleFirst?
    init(name: String) { self.name = name }
}

/// A folder and its files: the plain one-to-many case, with an inverse.
@Model final class CycleFolder {
    var name: String
    @Relationship(inverse: \CycleFile.folder) var files: [CycleFile] = []
    init(name: String) { self.name = name }
}

@Model final class CycleFile {
    var name: String
    var folder: CycleFolder?
    init(name: String) { self.name = name }
}

/// Weak references to the objects of a graph, to tell whether anything still holds them.
private struct WeakObjects {
    private var boxes: [() -> AnyObject?] = []

    mutating func add(_ objects: AnyObject...) {
        for object in objects { boxes.append { [weak object] in object } }
    }

    /// How many of the objects are still alive.
    var alive: Int { boxes.count { $0() != nil } }
}

/// Models that refer to each other, saved and then dropped by the program, go away: after a save the framework
/// breaks the strong cycles between related models (to-one relationships become links, many-to-many arrays find
/// their members through the context), whether the program keeps the context or drops it too. The data stays in
/// the store for a new context.
@Suite struct ReferenceCycleTests {
    /// Runs `build` (which inserts a graph into the context and registers its objects), saves, and drops every
    /// reference; returns how many objects are still alive with the context kept, and then with it dropped too.
    private func survivors(
        in container: ModelContainer, _ build: (ModelContext, inout WeakObjects) throws -> Void
    ) throws -> (contextKept: Int, contextDropped: Int) {
        var objects = WeakObjects()
        var context: ModelContext? = ModelContext(container)
        do {
            let saving = try #require(context)
            try build(saving, &objects)
            try saving.save()
        }
        let kept = objects.alive
        objects.add(try #require(context))
        context = nil
        return (kept, objects.alive)
    }

    /// Fetches every model of the graph in a new context and walks each relationship both ways, so that every
    /// side is loaded, registering the objects; then drops them.
    private func survivorsOfAWalk(
        in container: ModelContainer, _ walk: (ModelContext, inout WeakObjects) throws -> Void
    ) throws -> Int {
        var objects = WeakObjects()
        do {
            let context = ModelContext(container)
            objects.add(context)
            try walk(context, &objects)
        }
        return objects.alive
    }

    @Test(arguments: StoreKind.all) func manyToManyModelsGoAwayAfterTheSave(store: StoreKind) throws {
        let container = try store.makeContainer(CycleBand.self, CycleMusician.self)
        let left = try survivors(in: container) { context, objects in
            let ann = CycleMusician(name: "Ann")
            let bob = CycleMusician(name: "Bob")
            let quartet = CycleBand(name: "Quartet")
            let duo = CycleBand(name: "Duo")
            context.insert(quartet)
            context.insert(duo)
            quartet.musicians = [ann, bob]
            duo.musicians = [ann]
            #expect(ann.bands.count == 2 && bob.bands.first === quartet, "both sides are loaded")
            objects.add(ann, bob, quartet, duo)
        }
        #expect(left.contextKept == 0, "the context holds no saved model")
        #expect(left.contextDropped == 0)

        let walked = try survivorsOfAWalk(in: container) { context, objects in
            for band in try context.fetch(FetchDescriptor<CycleBand>()) {
                for musician in band.musicians { objects.add(musician, musician.bands.first ?? musician) }
                objects.add(band)
            }
        }
        #expect(walked == 0)
        let bands = try ModelContext(container).fetch(FetchDescriptor<CycleBand>(sortBy: [SortDescriptor(\.name)]))
        #expect(bands.map { $0.musicians.map(\.name).sorted() } == [["Ann"], ["Ann", "Bob"]])
    }

    @Test(arguments: StoreKind.all) func aCycleThroughThreeRelationshipsGoesAwayAfterTheSave(store: StoreKind) throws {
        let container = try store.makeContainer(CycleGarden.self, CycleBed.self, CyclePlant.self)
        let left = try survivors(in: container) { context, objects in
            let garden = CycleGarden(name: "Walled")
            let rose = CyclePlant(name: "Rose")
            let bed = CycleBed(name: "South")
            context.insert(garden)
            garden.beds = [bed]
            bed.plant = rose
            rose.favourite = garden
            #expect(bed.garden === garden)
            objects.add(garden, bed, rose)
        }
        #expect(left.contextKept == 0, "the context holds no saved model")
        #expect(left.contextDropped == 0)

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<CyclePlant>()).first)
        #expect(stored.favourite?.beds.first?.plant?.name == "Rose")
    }

    @Test(arguments: StoreKind.all) func aRingOfToOneRelationshipsGoesAwayAfterTheSave(store: StoreKind) throws {
        let container = try store.makeContainer(CycleFirst.self, CycleSecond.self, CycleThird.self)
        let left = try survivors(in: container) { context, objects in
            let first = CycleFirst(name: "one")
            let second = CycleSecond(name: "two")
            let third = CycleThird(name: "three")
            context.insert(first)
            first.next = second
            second.next = third
            third.next = first
            objects.add(first, second, third)
        }
        #expect(left.contextKept == 0, "the context holds no saved model")
        #expect(left.contextDropped == 0)

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<CycleThird>()).first)
        #expect(stored.next?.next?.next?.name == "three")
    }

    /// A saved to-one relationship without an inverse no longer holds its target, but still answers with it: the
    /// same object while the program holds it, the row loaded again once it went away, and nothing once it is deleted.
    @Test(arguments: StoreKind.all) func aSavedToOneRelationshipWithoutAnInverseStillReadsItsTarget(
        store: StoreKind
    ) throws {
        let container = try store.makeContainer(CycleFirst.self, CycleSecond.self, CycleThird.self)
        let context = ModelContext(container)
        let first = CycleFirst(name: "one")
        var objects = WeakObjects()
        do {
            let second = CycleSecond(name: "two")
            context.insert(first)
            first.next = second
            try context.save()
            #expect(first.next === second, "the target, while the program holds it")
            objects.add(second)
        }
        #expect(objects.alive == 0, "the saved relationship does not hold its target")
        let second = try #require(first.next)
        #expect(second.name == "two", "loaded again when read")
        #expect(first.next === second)

        context.delete(second)
        try context.save()
        #expect(first.next == nil)
        let stored = try ModelContext(container).fetch(FetchDescriptor<CycleFirst>())
        #expect(stored.map(\.name) == ["one"] && stored.first?.next == nil)
    }

    @Test(arguments: StoreKind.all) func oneToManyModelsGoAwayAfterTheSave(store: StoreKind) throws {
        let container = try store.makeContainer(CycleFolder.self, CycleFile.self)
        let left = try survivors(in: container) { context, objects in
            let folder = CycleFolder(name: "Documents")
            context.insert(folder)
            folder.files = [CycleFile(name: "a"), CycleFile(name: "b")]
            #expect(folder.files.allSatisfy { $0.folder === folder })
            objects.add(folder)
            for file in folder.files { objects.add(file) }
        }
        #expect(left.contextKept == 0, "the context holds no saved model")
        #expect(left.contextDropped == 0)

        let walked = try survivorsOfAWalk(in: container) { context, objects in
            let folder = try #require(try context.fetch(FetchDescriptor<CycleFolder>()).first)
            for file in folder.files {
                #expect(file.folder === folder)
                objects.add(file)
            }
            objects.add(folder)
        }
        #expect(walked == 0)
        let stored = try ModelContext(container).fetch(FetchDescriptor<CycleFile>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { "\($0.name) in \($0.folder?.name ?? "-")" } == ["a in Documents", "b in Documents"])
    }
}
