import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Predicates through relationships run in SQL (one `SELECT`, nothing left to memory) and select exactly what
/// `Predicate.evaluate` selects: to-one chains with `nil` on the way, to-many tests with empty relationships,
/// identifiers and models compared, in every way the store keeps relationships.
@Suite struct RelationshipPredicateTests {
    let context: ModelContext
    let mammal: AnimalCategory
    let dog: Animal

    /// Mammal (Dog, Cat, Cow), Bird (Sparrow), Fish (no animals), and Newt without a category; a tree of nodes;
    /// students and courses; people with passports and messages; libraries with books and tags; owners and pets.
    init() throws {
        context = ModelContext(
            try makeMemoryContainer(
                AnimalCategory.self, Node.self, Student.self, Person.self, Library.self, Owner.self))
        mammal = AnimalCategory(name: "Mammal")
        dog = Animal(name: "Dog", diet: .carnivorous)
        mammal.animals = [dog, Animal(name: "Cat", diet: .carnivorous), Animal(name: "Cow", diet: .herbivorous)]
        let bird = AnimalCategory(name: "Bird")
        bird.animals = [Animal(name: "Sparrow", diet: .omnivorous)]
        [mammal, bird, AnimalCategory(name: "Fish")].forEach(context.insert)
        context.insert(Animal(name: "Newt", diet: .carnivorous))

        let root = Node(name: "root")
        let child = Node(name: "child", parent: root)
        _ = Node(name: "grandchild", parent: child)
        _ = Node(name: "other child", parent: root)
        context.insert(root)

        let (ann, bob, cy) = (Student(name: "Ann"), Student(name: "Bob"), Student(name: "Cy"))
        let (math, art) = (Course(title: "Math"), Course(title: "Art"))
        ann.courses = [math, art]
        bob.courses = [math]
        [ann, bob, cy].forEach(context.insert)
        context.insert(Course(title: "Empty"))

        let (alice, ben) = (Person(name: "Alice"), Person(name: "Ben"))
        alice.passport = Passport(number: "P1")
        let hello = Message(text: "hello")
        hello.sender = alice
        hello.recipient = ben
        let note = Message(text: "note")
        note.sender = ben
        [alice, ben, Person(name: "Cleo")].forEach(context.insert)
        [hello, note, Message(text: "orphan")].forEach(context.insert)
        context.insert(Passport(number: "P2"))

        let library = Library(name: "City")
        let (dune, emma) = (Book(title: "Dune"), Book(title: "Emma"))
        library.books = [dune, emma]
        library.featured = [dune]
        library.tags = [Tag(label: "public")]
        dune.favoriteTag = library.tags.first
        [library, Library(name: "Empty")].forEach(context.insert)

        let owner = Owner(name: "Olga")
        [Pet(name: "Rex", owner: owner), Pet(name: "Tom", owner: owner)].forEach(context.insert)
        context.insert(Owner(name: "Nobody"))
        try context.save()
    }

    func names(_ predicate: Predicate<Animal>) throws -> [String] { try fetchInSQL(predicate, context).map(\.name) }
    func names(_ predicate: Predicate<AnimalCategory>) throws -> [String] {
        try fetchInSQL(predicate, context).map(\.name)
    }

    @Test func toOneChains() throws {
        let mammalName: String? = "Mammal"
        #expect(try names(#Predicate<Animal> { $0.category?.name == mammalName }) == ["Dog", "Cat", "Cow"])
        let noName: String? = nil
        #expect(try names(#Predicate<Animal> { $0.category?.name == noName }) == ["Newt"], "nil chain equals nil")
        #expect(try names(#Predicate<Animal> { $0.category?.name != "Mammal" }) == ["Sparrow", "Newt"])
        #expect(
            try names(#Predicate<Animal> { $0.category.flatMap { $0.name.starts(with: "B") } == true }) == ["Sparrow"])
        #expect(try names(#Predicate<Animal> { ($0.category?.name ?? "none") < "C" }) == ["Sparrow"])
        #expect(try names(#Predicate<Animal> { $0.category != nil && $0.category!.name == "Bird" }) == ["Sparrow"])
        #expect(try names(#Predicate<Animal> { $0.category?.animals.count == 1 }) == ["Sparrow"])
        let nodes = try fetchInSQL(#Predicate<Node> { $0.parent?.parent?.name == "root" }, context)
        #expect(nodes.map(\.name) == ["grandchild"])
        #expect(try fetchInSQL(#Predicate<Node> { $0.parent == nil }, context).map(\.name) == ["root"])
        let olga = try fetchInSQL(#Predicate<Pet> { $0.owner.name == "Olga" }, context)
        #expect(olga.map(\.name) == ["Rex", "Tom"], "a required to-one needs no optional chaining")
    }

    @Test func toManyTests() throws {
        let (carnivorous, omnivorous) = (Animal.Diet.carnivorous, Animal.Diet.omnivorous)
        #expect(try names(#Predicate<AnimalCategory> { $0.animals.contains { $0.diet == carnivorous } }) == ["Mammal"])
        #expect(
            try names(#Predicate<AnimalCategory> { $0.animals.allSatisfy { $0.diet == omnivorous } })
                == ["Bird", "Fish"], "allSatisfy holds for no animals")
        #expect(try names(#Predicate<AnimalCategory> { $0.animals.count >= 1 }) == ["Mammal", "Bird"])
        #expect(try names(#Predicate<AnimalCategory> { $0.animals.isEmpty }) == ["Fish"])
        #expect(try names(#Predicate<AnimalCategory> { $0.animals.isEmpty == false }) == ["Mammal", "Bird"])
        #expect(try names(#Predicate<AnimalCategory> { !$0.animals.isEmpty }) == ["Mammal", "Bird"])
        #expect(
            try names(#Predicate<AnimalCategory> { $0.animals.filter { $0.diet == carnivorous }.count == 2 })
                == ["Mammal"])
        #expect(
            try names(#Predicate<AnimalCategory> { category in category.animals.contains { $0.name < category.name } })
                == ["Mammal"], "a closure reads the outer model")
        #expect(
            try names(
                #Predicate<AnimalCategory> { category in
                    category.animals.contains { $0.category.flatMap { $0 == category } == true }
                })
                == ["Mammal", "Bird"], "a member's inverse is its owner")
    }

    @Test func manyToManyOneToOneAndJoinTables() throws {
        let students = #Predicate<Student> { $0.courses.contains { $0.title == "Art" } }
        #expect(try fetchInSQL(students, context).map(\.name) == ["Ann"])
        let courses = #Predicate<Course> { $0.students.count == 0 }
        #expect(try fetchInSQL(courses, context).map(\.title) == ["Empty"])
        #expect(try fetchInSQL(#Predicate<Person> { $0.passport?.number == "P1" }, context).map(\.name) == ["Alice"])
        #expect(try fetchInSQL(#Predicate<Person> { $0.passport == nil }, context).map(\.name) == ["Ben", "Cleo"])
        #expect(try fetchInSQL(#Predicate<Passport> { $0.holder?.name == nil }, context).map(\.number) == ["P2"])
        let received = #Predicate<Person> { $0.received.contains { $0.sender?.name == "Alice" } }
        #expect(try fetchInSQL(received, context).map(\.name) == ["Ben"])
        #expect(try fetchInSQL(#Predicate<Message> { $0.sender?.passport != nil }, context).map(\.text) == ["hello"])
        #expect(try fetchInSQL(#Predicate<Library> { $0.tags.isEmpty }, context).map(\.name) == ["Empty"])
        let featured = #Predicate<Library> { $0.featured?.isEmpty == false }
        #expect(try fetchInSQL(featured, context).map(\.name) == ["City"], "an optional to-many")
        let tagged = #Predicate<Book> { $0.favoriteTag?.label == "public" }
        #expect(try fetchInSQL(tagged, context).map(\.title) == ["Dune"], "a to-one without an inverse")
    }

    @Test func identifiersAndModels() throws {
        let id = dog.persistentModelID
        #expect(try names(#Predicate<Animal> { $0.persistentModelID == id }) == ["Dog"])
        let optionalID: PersistentIdentifier? = id
        #expect(try names(#Predicate<Animal> { optionalID == nil || $0.persistentModelID == id }) == ["Dog"])
        #expect(
            try names(#Predicate<Animal> { $0.persistentModelID != id && $0.category != nil }) == [
                "Cat", "Cow", "Sparrow",
            ])
        let mammalID = mammal.persistentModelID
        #expect(try names(#Predicate<Animal> { $0.category?.persistentModelID == mammalID }) == ["Dog", "Cat", "Cow"])
        #expect(try names(#Predicate<Animal> { $0.persistentModelID == mammalID }).isEmpty, "another entity's id")
        let ids = [id, mammalID]
        #expect(try names(#Predicate<Animal> { ids.contains($0.persistentModelID) }) == ["Dog"])
        let categories: [PersistentIdentifier?] = [mammalID, nil]
        #expect(
            try names(#Predicate<Animal> { categories.contains($0.category.flatMap { $0.persistentModelID }) })
                == ["Dog", "Cat", "Cow", "Newt"])
        let unsaved = AnimalCategory(name: "Unsaved").persistentModelID
        #expect(try names(#Predicate<Animal> { $0.category?.persistentModelID == unsaved }).isEmpty)
        #expect(try names(#Predicate<Animal> { $0.category?.persistentModelID != unsaved }).count == 5)
    }

    /// A force unwrap of a `nil` relationship throws in SQL as `evaluate` throws, even when the related table is
    /// empty.
    @Test func forceUnwrappingANilRelationshipThrows() throws {
        let context = ModelContext(try makeMemoryContainer(Library.self, AnimalCategory.self))
        context.insert(Book(title: "Dune"))
        context.insert(Animal(name: "Newt", diet: .carnivorous))
        try context.save()
        let predicates: [Predicate<Book>] = [
            #Predicate { $0.library!.name == "City" }, #Predicate { $0.library!.tags.isEmpty },
            #Predicate { $0.library!.books.count == 1 }, #Predicate { $0.favoriteTag!.label == "x" },
        ]
        let book = try #require(try context.fetch(FetchDescriptor<Book>()).first)
        for predicate in predicates {
            #expect(throws: PredicateError.forceUnwrapFailure) { try predicate.evaluate(book) }
            #expect(throws: PredicateError.forceUnwrapFailure) {
                try context.fetch(FetchDescriptor(predicate: predicate))
            }
        }
        let newt = #Predicate<Animal> { $0.category!.animals.count == 0 }
        #expect(throws: PredicateError.forceUnwrapFailure) { try context.fetch(FetchDescriptor(predicate: newt)) }
    }

    /// Foundation's `#Predicate` cannot capture a model (a captured value must be `Codable` and `Sendable`, on
    /// Apple's platforms too), but models in scope compare: the fetched one, a related one, a closure's parameter.
    @Test func modelsCompare() throws {
        #expect(try names(#Predicate<Animal> { $0.category == nil }) == ["Newt"])
        #expect(try names(#Predicate<Animal> { $0.category != nil }) == ["Dog", "Cat", "Cow", "Sparrow"])
        let siblings = #Predicate<Animal> { animal in
            animal.category?.animals.contains { $0 != animal && $0.diet == animal.diet } == true
        }
        #expect(try names(siblings) == ["Dog", "Cat"])
        let selfParent = #Predicate<Node> { node in node.children.contains { $0.parent.flatMap { $0 == node } == true }
        }
        #expect(try fetchInSQL(selfParent, context).map(\.name) == ["root", "child"])
    }
}

/// The SQL that representative relationship predicates and sorts become.
@Suite struct RelationshipGoldenSQLTests {
    let context: ModelContext

    init() throws {
        context = ModelContext(try makeMemoryContainer(AnimalCategory.self, Student.self, Person.self))
    }

    /// The clauses after `FROM` of the fetch's `SELECT`.
    func clauses<T: PersistentModel>(_ predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) throws
        -> String
    {
        let log = StatementLog(context.container)
        _ = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
        let select = try #require(log.selects.first)
        let from = try #require(select.range(of: #"FROM "\#(T.self)" "#))
        return String(select[from.upperBound...])
    }

    @Test func toOneChains() throws {
        let name: String? = "Mammal"
        #expect(
            try clauses(#Predicate<Animal> { animal in animal.category?.name == name })
                == #"WHERE ((SELECT "_r1"."name" FROM "AnimalCategory" AS "_r1" "#
                + #"WHERE ("_r1"."_pk" = "Animal"."category")) COLLATE SWIFTDATA_STRING IS ?) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate<Person> { $0.passport?.number == "P1" })
                == #"WHERE ((SELECT "_r1"."number" FROM "Passport" AS "_r1" WHERE ("_r1"."holder" = "Person"."_pk") "#
                + #"ORDER BY "_r1"."_pk" LIMIT 1) COLLATE SWIFTDATA_STRING IS ?) ORDER BY "_pk""#)
    }

    @Test func toManyTests() throws {
        #expect(
            try clauses(#Predicate<AnimalCategory> { $0.animals.contains { $0.name == "Dog" } })
                == #"WHERE EXISTS (SELECT 1 FROM "Animal" AS "_r1" WHERE (("_r1"."category" = "AnimalCategory"."_pk") "#
                + #"AND ("_r1"."name" COLLATE SWIFTDATA_STRING = ?))) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate<AnimalCategory> { $0.animals.isEmpty == false })
                == #"WHERE ((NOT (EXISTS (SELECT 1 FROM "Animal" AS "_r1" "#
                + #"WHERE ("_r1"."category" = "AnimalCategory"."_pk")))) = 0) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate<AnimalCategory> { $0.animals.filter { $0.name > "C" }.count == 2 })
                == #"WHERE ((SELECT count(*) FROM "Animal" AS "_r1" "#
                + #"WHERE (("_r1"."category" = "AnimalCategory"."_pk") "#
                + #"AND ("_r1"."name" COLLATE SWIFTDATA_STRING > ?))) = ?) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate<Student> { $0.courses.allSatisfy { $0.title != "Art" } })
                == #"WHERE NOT (EXISTS (SELECT 1 FROM "Course" AS "_r1" JOIN "Course_students" AS "_r2" "#
                + #"ON ("_r2"."owner" = "_r1"."_pk") WHERE (("_r2"."member" = "Student"."_pk") "#
                + #"AND NOT (("_r1"."title" COLLATE SWIFTDATA_STRING <> ?))))) ORDER BY "_pk""#)
    }

    @Test func sortingByRelatedAttributes() throws {
        let sortBy = [SortDescriptor(\Animal.category?.name, order: .reverse), SortDescriptor(\Animal.name)]
        #expect(
            try clauses(sortBy: sortBy)
                == #"ORDER BY (SELECT "_r1"."name" FROM "AnimalCategory" AS "_r1" "#
                + #"WHERE ("_r1"."_pk" = "Animal"."category")) COLLATE SWIFTDATA_STRING DESC, "#
                + #""name" COLLATE SWIFTDATA_STRING, "_pk""#)
    }
}

/// Sorting by attributes of related models runs in SQL, in the order `sorted(using:)` gives: models without a
/// related model first in forward order, last in reverse; ties in insertion order.
@Suite struct RelationshipSortTests {
    let context: ModelContext

    /// Animals in categories B, a, C (and none), and a tree of nodes.
    init() throws {
        context = ModelContext(try makeMemoryContainer(AnimalCategory.self, Node.self, Owner.self))
        for (name, animals) in [("B", ["b1", "b2"]), ("a", ["a1"]), ("C", ["c1", "c2"])] {
            let category = AnimalCategory(name: name)
            category.animals = animals.map { Animal(name: $0, diet: .omnivorous) }
            context.insert(category)
        }
        ["x1", "x2"].forEach { context.insert(Animal(name: $0, diet: .herbivorous)) }
        let root = Node(name: "r")
        let (left, right) = (Node(name: "z", parent: root), Node(name: "m", parent: root))
        [Node(name: "z1", parent: left), Node(name: "m1", parent: right)].forEach(context.insert)
        context.insert(root)
        let (olga, ann) = (Owner(name: "Olga"), Owner(name: "Ann"))
        let pets = [Pet(name: "Rex", owner: olga), Pet(name: "Tom", owner: ann), Pet(name: "Bo", owner: olga)]
        pets.forEach(context.insert)
        try context.save()
    }

    /// The fetch's models in order, after checking that SQL sorted them and that the order is `sorted(using:)`'s.
    func sorted<T: PersistentModel>(
        _ sortBy: [SortDescriptor<T>], limit: Int? = nil, offset: Int? = nil, _ name: (T) -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        var request = FetchRequest<T>(entity: try context.binding(for: T.self).entity, properties: [])
        request.sortBy = sortBy
        #expect(try sqliteStore(context.container).plan(request).coverage.sort, sourceLocation: sourceLocation)
        var descriptor = FetchDescriptor<T>(sortBy: sortBy)
        (descriptor.fetchLimit, descriptor.fetchOffset) = (limit, offset)
        let models = try context.fetch(descriptor).map(name)
        let all = try context.fetch(FetchDescriptor<T>())
        let expected = Array(all.sorted(using: sortBy).map(name).dropFirst(offset ?? 0).prefix(limit ?? .max))
        #expect(models == expected, sourceLocation: sourceLocation)
        return models
    }

    @Test func toOneChains() throws {
        let byCategory = [SortDescriptor(\Animal.category?.name), SortDescriptor(\Animal.name, order: .reverse)]
        #expect(try sorted(byCategory, \.name) == ["x2", "x1", "b2", "b1", "c2", "c1", "a1"])
        let reverse = [SortDescriptor(\Animal.category?.name, order: .reverse)]
        #expect(try sorted(reverse, \.name) == ["a1", "c1", "c2", "b1", "b2", "x1", "x2"])
        #expect(try sorted(byCategory, limit: 3, offset: 1, \.name) == ["x1", "b2", "b1"])
        let localized = [SortDescriptor(\Animal.category?.name, comparator: .localizedStandard)]
        #expect(try sorted(localized, \.name) == ["x1", "x2", "a1", "b1", "b2", "c1", "c2"])
        let lexical = [SortDescriptor(\Animal.category?.name, comparator: .lexical, order: .reverse)]
        #expect(try sorted(lexical, \.name) == ["a1", "c1", "c2", "b1", "b2", "x1", "x2"])
        let grandparents = [SortDescriptor(\Node.parent?.parent?.name), SortDescriptor(\Node.parent?.name)]
        #expect(try sorted(grandparents, \.name) == ["r", "z", "m", "m1", "z1"])
        let byOwner = [SortDescriptor(\Pet.owner.name, order: .reverse), SortDescriptor(\Pet.name)]
        #expect(try sorted(byOwner, \.name) == ["Bo", "Rex", "Tom"], "a required to-one")
    }
}
