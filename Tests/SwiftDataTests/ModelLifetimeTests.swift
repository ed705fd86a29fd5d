import SwiftData
import Testing

/// A school, as the model of a course-planning app.
@Model final class Pupil {
    var name: String
    @Relationship(inverse: \Lesson.pupils) var lessons: [Lesson] = []
    var tutor: Tutor?
    init(name: String) { self.name = name }
}

@Model final class Lesson {
    var title: String
    var pupils: [Pupil] = []
    init(title: String) { self.title = title }
}

@Model final class Tutor {
    var name: String
    @Relationship(inverse: \Pupil.tutor) var pupils: [Pupil] = []
    init(name: String) { self.name = name }
}

/// Holds an object weakly, to tell whether anything else still holds it.
private final class WeakBox<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

/// Models outlive the variable that held their context, and a context keeps only what the program still uses and
/// its unsaved changes.
@Suite struct ModelLifetimeTests {
    let container: ModelContainer

    init() throws {
        container = try ModelContainer(for: Pupil.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let ann = Pupil(name: "Ann")
        ann.lessons = [Lesson(title: "Maths"), Lesson(title: "Art")]
        ann.tutor = Tutor(name: "Mr Lee")
        context.insert(ann)
        context.insert(Pupil(name: "Bob"))
        try context.save()
    }

    /// Fetches through a context of its own, as helpers in real programs do, and returns the models.
    private func pupils() throws -> [Pupil] {
        try ModelContext(container).fetch(FetchDescriptor<Pupil>(sortBy: [SortDescriptor(\.name)]))
    }

    @Test func aModelFetchedThroughATemporaryContextStaysUsable() throws {
        let lessons = try ModelContext(container).fetch(
            FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Ann" })
        )
        .first?.lessons
        #expect(lessons?.map(\.title).sorted() == ["Art", "Maths"])
        #expect(lessons?.first?.pupils.map(\.name) == ["Ann"])
    }

    @Test func modelsReturnedByAHelperCanBeReadChangedAndSaved() throws {
        let all = try pupils()
        let ann = all[0]
        #expect(ann.name == "Ann")
        #expect(ann.tutor?.name == "Mr Lee")
        #expect(ann.tutor?.pupils.map(\.name) == ["Ann"])
        let context = try #require(ann.modelContext)
        #expect(all[1].modelContext == context, "models fetched together share their context")
        ann.name = "Anne"
        ann.lessons.append(Lesson(title: "Music"))
        all[1].tutor = ann.tutor
        try ann.modelContext?.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<Pupil>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["Anne", "Bob"])
        #expect(stored[0].lessons.map(\.title).sorted() == ["Art", "Maths", "Music"])
        #expect(stored[1].tutor?.pupils.map(\.name).sorted() == ["Anne", "Bob"])
    }

    @Test func theContextDoesNotKeepModelsWithoutChanges() throws {
        let context = ModelContext(container)
        var fetched = WeakBox<Pupil>(nil)
        do {
            let pupils = try context.fetch(FetchDescriptor<Pupil>())
            fetched = WeakBox(pupils.first)
            #expect(pupils.first?.tutor?.name != nil || pupils.first?.lessons.isEmpty == false)
        }
        #expect(fetched.object == nil, "nothing but the program held the fetched models")
        #expect(try context.fetchCount(FetchDescriptor<Pupil>()) == 2, "the context still works")
    }

    @Test func unsavedChangesAreKeptUntilTheSave() throws {
        let context = ModelContext(container)
        var changed = WeakBox<Pupil>(nil)
        var inserted = WeakBox<Pupil>(nil)
        do {
            let bob = try #require(
                try context.fetch(FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Bob" })).first)
            bob.name = "Robert"
            changed = WeakBox(bob)
            let cy = Pupil(name: "Cy")
            context.insert(cy)
            inserted = WeakBox(cy)
        }
        #expect(changed.object != nil && inserted.object != nil, "the context holds what it has to save")
        try context.save()
        #expect(changed.object == nil && inserted.object == nil, "and lets go once they are saved")
        let names = try ModelContext(container).fetch(FetchDescriptor<Pupil>(sortBy: [SortDescriptor(\.name)]))
            .map(\.name)
        #expect(names == ["Ann", "Cy", "Robert"])
    }

    @Test func modelsThatReferToEachOtherAreFreedWithTheirContext() throws {
        var context = WeakBox<ModelContext>(nil)
        var pupil = WeakBox<Pupil>(nil)
        var tutor = WeakBox<Tutor>(nil)
        var lesson = WeakBox<Lesson>(nil)
        do {
            let ann = try #require(try pupils().first)
            #expect(ann.tutor?.pupils.first === ann, "both sides of the relationship are loaded")
            #expect(ann.lessons.first?.title != nil)
            context = WeakBox(ann.modelContext)
            pupil = WeakBox(ann)
            tutor = WeakBox(ann.tutor)
            lesson = WeakBox(ann.lessons.first)
        }
        #expect(pupil.object == nil)
        #expect(tutor.object == nil)
        #expect(lesson.object == nil)
        #expect(context.object == nil)
    }

    @Test func manyToManyLoadedFromBothSides() throws {
        var context = WeakBox<ModelContext>(nil)
        do {
            let ann = try #require(try pupils().first)
            #expect(ann.lessons.first?.pupils.first === ann)
            context = WeakBox(ann.modelContext)
        }
        #expect(context.object == nil, "two arrays that hold each other's models do not keep them")
    }

    @Test func manyToManyModelsSavedTogetherFreeTheirContext() throws {
        var context = WeakBox<ModelContext>(nil)
        var lesson = WeakBox<Lesson>(nil)
        do {
            let saving = ModelContext(container)
            let cy = Pupil(name: "Cy")
            saving.insert(cy)
            cy.lessons = [Lesson(title: "Drama")]
            #expect(cy.lessons.first?.pupils.first === cy, "both sides are loaded")
            try saving.save()
            context = WeakBox(saving)
            lesson = WeakBox(cy.lessons.first)
        }
        #expect(lesson.object == nil)
        #expect(context.object == nil)
    }

    @Test func aModelKeepsItsManyToManyMembersReachableAndIdentical() throws {
        let ann = try #require(try pupils().first)
        var maths = try #require(ann.lessons.first { $0.title == "Maths" })
        #expect(maths.pupils.map(\.name) == ["Ann"], "both sides are loaded")
        #expect(ann.lessons.contains { $0 === maths }, "one object per row while the program holds it")
        var gone = WeakBox<Lesson>(maths)
        maths = Lesson(title: "unrelated")
        #expect(gone.object == nil, "a member nothing else holds is not kept")
        #expect(ann.lessons.map(\.title).sorted() == ["Art", "Maths"], "and loads again when read")
        let again = try #require(ann.lessons.first { $0.title == "Maths" })
        #expect(again.pupils.first === ann)
        gone = WeakBox(again)
        #expect(gone.object === again)
    }

    @Test func aLinkedManyToManyRelationshipChangesAndLosesDeletedMembers() throws {
        let context = ModelContext(container)
        let ann = try #require(
            try context.fetch(FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Ann" })).first)
        let lessons = ann.lessons
        #expect(lessons.allSatisfy { $0.pupils.first === ann }, "both sides are loaded")
        let art = try #require(lessons.first { $0.title == "Art" })
        context.delete(art)
        try context.save()
        #expect(ann.lessons.map(\.title) == ["Maths"])
        ann.lessons.append(Lesson(title: "Music"))
        try context.save()
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Ann" }))
        #expect(stored.first?.lessons.map(\.title).sorted() == ["Maths", "Music"])
        #expect(ann.lessons.map(\.title).sorted() == ["Maths", "Music"])
        #expect(ann.lessons.allSatisfy { $0.pupils.contains { $0 === ann } })
    }

    @Test func aChangeThroughALinkedManyToManySideUndoes() throws {
        let context = ModelContext(container)
        let undoManager = UndoManager()
        context.undoManager = undoManager
        let ann = try #require(
            try context.fetch(FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Ann" })).first)
        let lessons = ann.lessons
        #expect(lessons.allSatisfy { $0.pupils.first === ann }, "both sides are loaded")
        undoManager.removeAllActions()
        ann.lessons.removeAll { $0.title == "Art" }
        #expect(lessons.first { $0.title == "Art" }?.pupils.isEmpty == true, "the inverse follows")
        context.processPendingChanges()
        undoManager.undo()
        #expect(ann.lessons.map(\.title).sorted() == ["Art", "Maths"])
        #expect(lessons.allSatisfy { $0.pupils.first === ann })
        try context.save()
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == "Ann" }))
        #expect(stored.first?.lessons.map(\.title).sorted() == ["Art", "Maths"])
    }

    @Test func aRelationshipOfAModelDeletedElsewhereReadsEmpty() throws {
        let context = ModelContext(container)
        let tutor = try #require(try context.fetch(FetchDescriptor<Tutor>()).first)
        let other = ModelContext(container)
        for tutor in try other.fetch(FetchDescriptor<Tutor>()) { other.delete(tutor) }
        try other.save()
        _ = try context.fetchCount(FetchDescriptor<Tutor>())  // the context learns of the delete
        #expect(tutor.modelContext == nil)
        #expect(tutor.pupils.isEmpty, "no crash: a model that left its context relates to nothing")
    }

    @Test func aLongLivedContextHoldsWhatTheProgramUses() throws {
        let context = ModelContext(container)
        for index in 0..<2_000 { context.insert(Lesson(title: "Lesson \(index)")) }
        try context.save()
        var seen = 0
        var last = WeakBox<Lesson>(nil)
        for _ in 0..<3 {
            try context.enumerate(FetchDescriptor<Lesson>(), batchSize: 100) { lesson in
                seen += lesson.title.isEmpty ? 0 : 1
                last = WeakBox(lesson)
            }
        }
        #expect(seen == 3 * 2_002)
        #expect(last.object == nil, "enumerated models are not kept")
        var kept: [Lesson] = []
        for lesson in try context.fetch(FetchDescriptor<Lesson>()) where lesson.title.hasSuffix("7") {
            kept.append(lesson)
        }
        let again = try context.fetch(FetchDescriptor<Lesson>(predicate: #Predicate { $0.title == "Lesson 7" }))
        #expect(again.first === kept.first, "one object per row, while the program holds it")
    }
}
