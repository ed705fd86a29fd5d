import Foundation
import SwiftData
import TestProcessSupport
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// How relationships are declared, paired with their inverses and stored.
@Suite struct RelationshipDeclarationTests {
    @Test func animalsSampleCompilesAndPairsItsInverse() throws {
        let container = try ModelContainer(
            for: AnimalCategory.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(
            container.schema.entities.map(\.name) == ["AnimalCategory", "Animal"],
            "a relationship brings its destination")
        let category = try #require(container.schema.entitiesByName["AnimalCategory"])
        let animals = try #require(category.relationshipsByName["animals"])
        #expect(animals.deleteRule == .cascade)
        #expect(!animals.isToOneRelationship)
        #expect(animals.inverse?.name == "category")
        #expect(animals.storage == .inverseColumn)
        let animal = try #require(container.schema.entitiesByName["Animal"])
        #expect(animal.relationshipsByName["category"]?.storage == .column)
        #expect(animal.relationshipsByName["category"]?.inverse === animals)
        #expect(animal.attributesByName["diet"]?.layout == .rawValue(.native(.string)))
    }

    @Test func inversesAreInferredWhenUnambiguous() throws {
        let schema = Schema([Node.self, Student.self, Person.self, Library.self])
        let node = try #require(schema.entitiesByName["Node"])
        #expect(node.relationshipsByName["children"]?.inverse?.name == "parent", "self-referential")
        #expect(schema.entitiesByName["Student"]?.relationshipsByName["courses"]?.inverse?.name == "students")
        let person = try #require(schema.entitiesByName["Person"])
        #expect(person.relationshipsByName["sent"]?.inverse?.name == "sender")
        #expect(person.relationshipsByName["received"]?.inverse?.name == "recipient")
        #expect(person.relationshipsByName["passport"]?.inverse?.name == "holder", "one-to-one")
        let library = try #require(schema.entitiesByName["Library"])
        #expect(library.relationshipsByName["tags"]?.inverse == nil, "no relationship back: no inverse")
        #expect(schema.entities.allSatisfy { $0.problems.isEmpty })
    }

    @Test func storageFollowsTheShape() throws {
        let schema = Schema([Student.self, Person.self, Library.self])
        let courses = try #require(schema.entitiesByName["Course"]?.relationshipsByName["students"])
        let students = try #require(schema.entitiesByName["Student"]?.relationshipsByName["courses"])
        #expect(courses.storage == .joinTable(name: "Course_students", isOwner: true))
        #expect(students.storage == .joinTable(name: "Course_students", isOwner: false))
        let passport = try #require(schema.entitiesByName["Person"]?.relationshipsByName["passport"])
        #expect(passport.storage == .inverseColumn)
        #expect(schema.entitiesByName["Passport"]?.relationshipsByName["holder"]?.storage == .column)
        #expect(
            schema.entitiesByName["Library"]?.relationshipsByName["tags"]?.storage
                == .joinTable(name: "Library_tags", isOwner: true))
        #expect(schema.entitiesByName["Book"]?.relationshipsByName["favoriteTag"]?.storage == .column)
    }

    @Test func ambiguousInversesAreAClearError() {
        #expect {
            try ModelContainer(
                for: Ambiguous.Customer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        } throws: { error in
            let reason = (error as? SwiftDataError)?.reason ?? ""
            return (error as? SwiftDataError) == .loadIssueModelContainer
                && reason.contains("Customer.home") && reason.contains("Customer.work")
                && reason.contains("Address.customer")
        }
    }

    @Test func contradictoryInversesAreAClearError() {
        #expect {
            try ModelContainer(
                for: Contradictory.Left.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        } throws: { error in
            let reason = (error as? SwiftDataError)?.reason ?? ""
            return reason.contains("Left.second") && reason.contains("Left.first") && reason.contains("Right.owner")
        }
    }

    @Test func tablesHaveIndexedForeignKeysAndJoinTables() throws {
        let directory = TemporaryDirectory()
        _ = try makeContainer(AnimalCategory.self, Student.self, in: directory)
        let schema = try sqlite(directory.store(), ".schema")
        #expect(schema.contains(#""category" INTEGER, "_category_position" INTEGER"#))
        #expect(schema.contains(#"CREATE INDEX "Animal_category" ON "Animal" ("category", "_category_position")"#))
        #expect(schema.contains(#""Course_students" ("owner" INTEGER NOT NULL, "member" INTEGER NOT NULL"#))
    }
}

/// Runs the sqlite3 command-line tool on a store and returns what it prints.
func sqlite(_ store: URL, _ command: String) throws -> String {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", store.path, command]
    return try RunningChild(process).finish().output
}
