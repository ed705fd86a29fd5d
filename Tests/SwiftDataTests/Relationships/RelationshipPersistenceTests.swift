import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// Relationships survive a save and a fresh container, in order.
@Suite struct RelationshipPersistenceTests {
    @Test(arguments: StoreKind.withPooler) func animalsSampleRoundTrips(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
            let mammals = AnimalCategory(name: "Mammal")
            let birds = AnimalCategory(name: "Bird")
            context.insert(mammals)
            context.insert(birds)
            for (name, diet) in [("Dog", Animal.Diet.carnivorous), ("Cow", .herbivorous), ("Bear", .omnivorous)] {
                Animal(name: name, diet: diet).category = mammals
            }
            birds.animals.append(Animal(name: "Robin", diet: .omnivorous))
            context.insert(Animal(name: "Stray", diet: .carnivorous))
            try context.save()
        }
        let context = ModelContext(try makeContainer(AnimalCategory.self, in: directory))
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
        #expect(categories.map(\.name) == ["Bird", "Mammal"])
        #expect(categories[1].animals.map(\.name) == ["Dog", "Cow", "Bear"], "to-many arrays keep their order")
        #expect(categories[1].animals.map(\.diet) == [.carnivorous, .herbivorous, .omnivorous])
        #expect(categories[0].animals.first?.category === categories[0])
        let stray = try #require(
            try context.fetch(FetchDescriptor<Animal>(predicate: #Predicate { $0.name == "Stray" })).first)
        #expect(stray.category == nil)
    }

    @Test(arguments: StoreKind.withPooler) func reorderingAndMovingPersist(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Node.self, in: directory))
            let root = Node(name: "root")
            context.insert(root)
            for name in ["a", "b", "c", "d"] { _ = Node(name: name, parent: root) }
            try context.save()
            root.children.swapAt(0, 3)
            root.children.remove(at: 1)
            try context.save()
        }
        do {
            let context = ModelContext(try makeContainer(Node.self, in: directory))
            let root = try #require(
                try context.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "root" })).first)
            #expect(root.children.map(\.name) == ["d", "c", "a"])
            let orphan = try #require(
                try context.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "b" })).first)
            #expect(orphan.parent == nil)
            orphan.parent = root
            root.children.first?.parent = orphan
            try context.save()
        }
        let context = ModelContext(try makeContainer(Node.self, in: directory))
        let root = try #require(
            try context.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "root" })).first)
        #expect(root.children.map(\.name) == ["c", "a", "b"], "a model that joins an unloaded array goes to its end")
        #expect(root.children.last?.children.map(\.name) == ["d"])
    }

    @Test(arguments: StoreKind.withPooler) func manyToManyRoundTrips(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Student.self, in: directory))
            let ann = Student(name: "Ann")
            let bob = Student(name: "Bob")
            let math = Course(title: "Math")
            let art = Course(title: "Art")
            context.insert(ann)
            context.insert(bob)
            ann.courses = [math, art]
            bob.courses = [art]
            try context.save()
            art.students = [bob, ann]
            try context.save()
        }
        let context = ModelContext(try makeContainer(Student.self, in: directory))
        let students = try context.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))
        #expect(students[0].courses.map(\.title) == ["Math", "Art"])
        #expect(students[1].courses.map(\.title) == ["Art"])
        let art = try #require(students[1].courses.first)
        #expect(art.students.map(\.name) == ["Bob", "Ann"], "each side keeps its own order")
    }

    @Test(arguments: StoreKind.withPooler) func optionalToManyIsEmptyNotNilAfterAFetch(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Library.self, in: directory))
            context.insert(Library(name: "Central"))
            try context.save()
        }
        let context = ModelContext(try makeContainer(Library.self, in: directory))
        let library = try #require(try context.fetch(FetchDescriptor<Library>()).first)
        #expect(library.featured != nil)
        #expect(library.featured?.isEmpty == true)
    }

    @Test(arguments: StoreKind.withPooler) func oneToOneAndRelationshipsWithoutInverse(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Person.self, Library.self, in: directory))
            let ann = Person(name: "Ann")
            ann.passport = Passport(number: "P-1")
            context.insert(ann)
            let library = Library(name: "Central")
            let fiction = Tag(label: "fiction")
            library.tags = [Tag(label: "old"), fiction]
            let book = Book(title: "Dune")
            book.favoriteTag = fiction
            library.books = [book]
            context.insert(library)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Person.self, Library.self, in: directory))
        let passport = try #require(try context.fetch(FetchDescriptor<Passport>()).first)
        #expect(passport.holder?.name == "Ann")
        #expect(passport.holder?.passport === passport)
        let library = try #require(try context.fetch(FetchDescriptor<Library>()).first)
        #expect(library.tags.map(\.label) == ["old", "fiction"])
        #expect(library.books.first?.favoriteTag === library.tags[1])
    }

    @Test(arguments: StoreKind.withPooler) func unsavedChangesAreReflectedWhenARelationshipLoads(store: StoreKind)
        throws
    {
        let container = try store.makeContainer(Node.self)
        do {
            let context = ModelContext(container)
            let root = Node(name: "root")
            context.insert(root)
            _ = Node(name: "kept", parent: root)
            _ = Node(name: "leaving", parent: root)
            context.insert(Node(name: "joining"))
            try context.save()
        }
        let context = ModelContext(container)
        let nodes = try context.fetch(FetchDescriptor<Node>(sortBy: [SortDescriptor(\.name)]))
        let byName = Dictionary(uniqueKeysWithValues: nodes.map { ($0.name, $0) })
        // The root's children are not loaded yet when these change.
        byName["leaving"]?.parent = nil
        byName["joining"]?.parent = byName["root"]
        let fresh = Node(name: "fresh")
        context.insert(fresh)
        fresh.parent = byName["root"]
        // Models that joined while the array was not loaded come last: inserted ones, then changed ones, the order
        // the save gives them.
        #expect(byName["root"]?.children.map(\.name) == ["kept", "fresh", "joining"])
        try context.save()
        let reloaded = ModelContext(container)
        let root = try #require(
            try reloaded.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "root" })).first)
        #expect(root.children.map(\.name) == ["kept", "fresh", "joining"])
    }

    @Test(arguments: StoreKind.withPooler) func rollbackRestoresRelationships(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Node.self))
        let root = Node(name: "root")
        context.insert(root)
        _ = Node(name: "a", parent: root)
        try context.save()
        let b = Node(name: "b", parent: root)
        root.children.first?.parent = nil
        context.rollback()
        #expect(root.children.map(\.name) == ["a"])
        #expect(b.modelContext == nil)
    }
}
