import Foundation
import Observation
import SwiftData
import Testing

@testable import ExampleModels

/// Models loaded by walking relationships, many owners at once, are the context's models: one per row, the same
/// objects a fetch returns, related to their owners, and observable.
@Suite struct WalkIdentityTests {
    /// The members of a many-to-many relationship come once per owner in the query that loads them for every owner:
    /// a course two students take is one model, in both students' courses.
    @Test(arguments: StoreKind.all) func sharedMembersOfManyOwnersAreOneModel(store: StoreKind) throws {
        let container = try store.makeContainer(Student.self)
        do {
            let context = ModelContext(container)
            let (ann, bob) = (Student(name: "Ann"), Student(name: "Bob"))
            let (math, art) = (Course(title: "Math"), Course(title: "Art"))
            context.insert(ann)
            context.insert(bob)
            ann.courses = [math, art]
            bob.courses = [art, math]
            try context.save()
        }
        let context = ModelContext(container)
        let students = try context.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))
        #expect(students.map(\.name) == ["Ann", "Bob"])
        // The first walk loads both students' courses in one query, each course row once per student.
        let annCourses = students[0].courses
        let bobCourses = students[1].courses
        let annByTitle = Dictionary(uniqueKeysWithValues: annCourses.map { ($0.title, $0) })
        #expect(annCourses.count == 2 && bobCourses.count == 2)
        for course in bobCourses { #expect(annByTitle[course.title] === course, "\(course.title)") }
        let fetched = try context.fetch(FetchDescriptor<Course>())
        #expect(fetched.count == 2)
        for course in fetched {
            #expect(annByTitle[course.title] === course, "\(course.title)")
            #expect(Set(course.students.map(ObjectIdentifier.init)) == Set(students.map(ObjectIdentifier.init)))
        }
    }

    /// Members walked for every owner at once are the models a later fetch returns, and each one's to-one inverse
    /// is its owner.
    @Test(arguments: StoreKind.all) func walkedMembersAreTheFetchedModels(store: StoreKind) throws {
        let container = try store.makeContainer(AnimalCategory.self)
        do {
            let context = ModelContext(container)
            for index in 0..<4 {
                let category = AnimalCategory(name: "category \(index)")
                context.insert(category)
                category.animals = (0..<5).map { Animal(name: "animal \(index)-\($0)", diet: .herbivorous) }
            }
            try context.save()
        }
        let context = ModelContext(container)
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>())
        var walked: [String: Animal] = [:]
        for category in categories {
            for animal in category.animals {
                #expect(walked[animal.name] == nil, "\(animal.name) is a member of one category")
                walked[animal.name] = animal
                #expect(animal.category === category)
            }
        }
        #expect(walked.count == 20)
        let fetched = try context.fetch(FetchDescriptor<Animal>())
        #expect(fetched.count == 20)
        for animal in fetched { #expect(walked[animal.name] === animal, "\(animal.name)") }
        // Walking again finds the same models.
        for category in categories {
            for animal in category.animals { #expect(walked[animal.name] === animal) }
        }
    }

    /// A fetch of a type whose rows refer to models of the same type (a tree) resolves those references to the
    /// models the same fetch returns.
    @Test func selfReferencesOfAFirstFetchAreTheFetchedModels() throws {
        let container = try makeMemoryContainer(Node.self)
        do {
            let context = ModelContext(container)
            let root = Node(name: "root")
            context.insert(root)
            for index in 0..<3 { _ = Node(name: "child \(index)", parent: root) }
            try context.save()
        }
        let context = ModelContext(container)
        let nodes = try context.fetch(FetchDescriptor<Node>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
        #expect(nodes.count == 4)
        #expect(Set(nodes.map(ObjectIdentifier.init)).count == 4)
        let root = try #require(nodes.first { $0.name == "root" })
        for node in nodes where node !== root { #expect(node.parent === root, "\(node.name)") }
        #expect(
            Set(root.children.map(ObjectIdentifier.init))
                == Set(nodes.filter { $0 !== root }.map(ObjectIdentifier.init)))
    }

    /// A model loaded by a walk is observable: a change of a property read while tracking is reported.
    @Test func walkedMembersAreObservable() throws {
        let container = try makeMemoryContainer(AnimalCategory.self)
        do {
            let context = ModelContext(container)
            let category = AnimalCategory(name: "birds")
            context.insert(category)
            category.animals = [Animal(name: "Robin", diet: .omnivorous)]
            try context.save()
        }
        let context = ModelContext(container)
        let category = try #require(try context.fetch(FetchDescriptor<AnimalCategory>()).first)
        let animal = try #require(category.animals.first)
        let fired = Flag()
        withObservationTracking {
            _ = animal.name
        } onChange: {
            fired.set()
        }
        animal.name = "European robin"
        #expect(fired.isSet)
    }
}
