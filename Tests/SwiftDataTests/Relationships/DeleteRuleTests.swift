import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Delete rules apply at save, in the store and in memory alike.
@Suite struct DeleteRuleTests {
    @Test(arguments: StoreKind.all) func nullifyClearsTheInverse(store: StoreKind) throws {
        let container = try store.makeContainer(Person.self)
        let context = ModelContext(container)
        let ann = Person(name: "Ann")
        let hello = Message(text: "hello")
        hello.sender = ann
        ann.passport = Passport(number: "P")
        context.insert(ann)
        try context.save()
        let passport = try #require(ann.passport)
        context.delete(ann)
        #expect(hello.sender === ann, "until the save, nothing else changes")
        try context.save()
        #expect(hello.sender == nil)
        #expect(passport.holder == nil)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Message>()).first?.sender == nil)
        #expect(try fresh.fetch(FetchDescriptor<Passport>()).first?.holder == nil)
    }

    @Test(arguments: StoreKind.all) func cascadeDeletesThroughAnyDepth(store: StoreKind) throws {
        let container = try store.makeContainer(Node.self, AnimalCategory.self)
        let context = ModelContext(container)
        let root = Node(name: "root")
        context.insert(root)
        var level = root
        for depth in 1...5 {
            let child = Node(name: "level \(depth)", parent: level)
            _ = Node(name: "sibling \(depth)", parent: level)
            level = child
        }
        let other = Node(name: "other")
        context.insert(other)
        let mammals = AnimalCategory(name: "Mammal")
        mammals.animals = [Animal(name: "Dog", diet: .carnivorous), Animal(name: "Cat", diet: .carnivorous)]
        context.insert(mammals)
        try context.save()
        let deepest = level
        context.delete(root)
        context.delete(mammals)
        try context.save()
        #expect(deepest.modelContext == nil && !deepest.isDeleted)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Node>()).map(\.name) == ["other"])
        #expect(try fresh.fetchCount(FetchDescriptor<Animal>()) == 0)
    }

    @Test(arguments: StoreKind.all) func cascadeStopsAtCycles(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Node.self))
        let a = Node(name: "a")
        let b = Node(name: "b", parent: a)
        context.insert(a)
        try context.save()
        a.parent = b  // a <-> b: each is the other's parent
        try context.save()
        context.delete(a)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Node>()) == 0)
    }

    @Test(arguments: StoreKind.all) func denyRefusesTheSaveAndWritesNothing(store: StoreKind) throws {
        let container = try store.makeContainer(Library.self)
        let context = ModelContext(container)
        let library = Library(name: "Central")
        library.books = [Book(title: "Dune")]
        context.insert(library)
        try context.save()
        let bystander = Book(title: "Bystander")
        context.insert(bystander)
        context.delete(library)
        #expect {
            try context.save()
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .modelValidationFailure && error.modelName == "Library" && error.propertyName == "books"
        }
        #expect(library.isDeleted, "the delete stays pending")
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Library>()) == 1)
        #expect(
            try fresh.fetch(FetchDescriptor<Book>()).map(\.title) == ["Dune"], "nothing of the failed save was written")
        library.books = []
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Library>()) == 0)
    }

    @Test func noActionTouchesNothing() throws {
        let container = try makeMemoryContainer(Library.self)
        let context = ModelContext(container)
        let library = Library(name: "Old")
        let book = Book(title: "Archived")
        book.archive = library
        context.insert(library)
        try context.save()
        context.delete(library)
        try context.save()
        #expect(book.archive === library, "in memory, the reference stays")
        let stored = try sqlite(container, "SELECT archive FROM Book")
        #expect(stored == "1\n", "in the store too")
    }

    @Test(arguments: StoreKind.all) func requiredToOneCannotBeLeftEmpty(store: StoreKind) throws {
        let container = try store.makeContainer(Owner.self)
        let context = ModelContext(container)
        let owner = Owner(name: "Sam")
        context.insert(owner)
        context.insert(Pet(name: "Rex", owner: owner))
        try context.save()
        context.delete(owner)
        #expect {
            try context.save()
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .modelValidationFailure && error.modelName == "Pet" && error.propertyName == "owner"
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Owner>()) == 1)
    }

    @Test(arguments: StoreKind.all) func countsAreCheckedAtSave(store: StoreKind) throws {
        let container = try store.makeContainer(Library.self)
        let context = ModelContext(container)
        let library = Library(name: "Small")
        library.featured = [Book(title: "1"), Book(title: "2"), Book(title: "3")]
        context.insert(library)
        #expect {
            try context.save()
        } throws: { error in
            (error as? SwiftDataError)?.propertyName == "featured"
                && (error as? SwiftDataError)?.reason?.contains("maximum of 2") == true
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 0)
        library.featured?.removeLast()
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 3)
    }

    @Test(arguments: StoreKind.all) func batchDeleteAppliesRules(store: StoreKind) throws {
        let container = try store.makeContainer(AnimalCategory.self)
        let context = ModelContext(container)
        for name in ["Mammal", "Bird"] {
            let category = AnimalCategory(name: name)
            category.animals = [
                Animal(name: "\(name) 1", diet: .omnivorous), Animal(name: "\(name) 2", diet: .herbivorous),
            ]
            context.insert(category)
        }
        try context.save()
        try context.delete(model: AnimalCategory.self, where: #Predicate { $0.name == "Mammal" })
        try context.save()
        let fresh = ModelContext(container)
        #expect(
            try fresh.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Bird 1", "Bird 2",
            ])
    }

    /// Runs SQL on an in-memory container's store through its own connection.
    func sqlite(_ container: ModelContainer, _ sql: String) throws -> String {
        let store = try #require(container.stores.first as? SwiftDataSQLite.SQLiteStore)
        return try store.withDatabase { database in
            try database.rows(sql).map { row in row.map { "\($0)" }.joined(separator: "|") + "\n" }.joined()
        }
    }
}
