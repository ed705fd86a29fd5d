import Foundation
import SwiftData
import Testing

/// Identities of stores, contexts and models: `storeIdentifier(forConfigurationNamed:)`,
/// `PersistentIdentifier.isTemporary`, `ModelContext.editingState`, the settable `configurations`, and
/// `Schema.Relationship.inverseName`.
@Suite struct ContainerIdentityTests {
    @Test func identifiersAreTemporaryUntilSaved() throws {
        let context = ModelContext(try makeMemoryContainer(User.self))
        let user = User(name: "Ada", email: "ada@example.com")
        #expect(user.persistentModelID.isTemporary)
        context.insert(user)
        #expect(user.persistentModelID.isTemporary)
        try context.save()
        #expect(!user.persistentModelID.isTemporary)
        #expect(try context.fetch(FetchDescriptor<User>()).allSatisfy { !$0.persistentModelID.isTemporary })
        let decoded = try JSONDecoder().decode(
            PersistentIdentifier.self, from: try JSONEncoder().encode(user.persistentModelID))
        #expect(!decoded.isTemporary)
    }

    @Test func storeIdentifiersAreWhatTheStoresRecord() throws {
        let directory = TemporaryDirectory()
        let people = ModelConfiguration("People", schema: Schema([User.self]), url: directory.store("people"))
        let notes = ModelConfiguration("Notes", schema: Schema([Counter.self]), url: directory.store("notes"))
        var identifiers: [String?] = []
        for _ in 0..<2 {
            let container = try ModelContainer(
                for: Schema([User.self, Counter.self]), configurations: [people, notes])
            let context = ModelContext(container)
            let user = User(name: "Ada", email: "ada@example.com")
            context.insert(user)
            try context.save()
            let identifier = container.storeIdentifier(forConfigurationNamed: "People")
            #expect(identifier != nil)
            #expect(identifier == user.persistentModelID.storeIdentifier)
            #expect(identifier != container.storeIdentifier(forConfigurationNamed: "Notes"))
            #expect(container.storeIdentifier(forConfigurationNamed: "Nothing") == nil)
            #expect(container.configurationName(forStoreIdentifier: identifier ?? "") == "People")
            identifiers.append(identifier)
        }
        #expect(identifiers[0] == identifiers[1], "stable across openings")
        let recorded = try sqlite(
            directory.store("people"), "SELECT value FROM _swiftdata_metadata WHERE key = 'store_identifier'")
        #expect(recorded.trimmingCharacters(in: .whitespacesAndNewlines) == identifiers[0])
    }

    @Test func configurationsCanBeSet() throws {
        let container = try makeMemoryContainer(User.self)
        let configuration = ModelConfiguration("Other", isStoredInMemoryOnly: true)
        container.configurations.insert(configuration)
        #expect(container.configurations.contains(configuration))
        #expect(container.configurations.count == 2)
        let context = ModelContext(container)
        context.insert(User(name: "Ada", email: "ada@example.com"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 1)
    }

    @Test func eachContextHasItsOwnEditingState() throws {
        let container = try makeMemoryContainer(User.self)
        let context = ModelContext(container)
        let other = ModelContext(container)
        #expect(context.editingState.id != other.editingState.id)
        #expect(context.editingState.author == nil)
        context.author = "importer"
        #expect(context.editingState.author == "importer")
        context.editingState.author = "sync"
        #expect(context.author == "sync")
        let id = context.editingState.id
        context.insert(User(name: "Ada", email: "ada@example.com"))
        try context.save()
        #expect(context.editingState.id == id)
    }

    @Test func relationshipsNameTheirInverses() throws {
        let schema = Schema([Person.self, Message.self, Student.self, Library.self])
        let message = try #require(schema.entitiesByName["Message"])
        let person = try #require(schema.entitiesByName["Person"])
        #expect(message.relationshipsByName["sender"]?.inverseName == "sent")
        #expect(person.relationshipsByName["received"]?.inverseName == "recipient")
        #expect(person.relationshipsByName["passport"]?.inverseName == "holder", "inferred")
        #expect(schema.entitiesByName["Course"]?.relationshipsByName["students"]?.inverseName == "courses")
        #expect(schema.entitiesByName["Library"]?.relationshipsByName["tags"]?.inverseName == nil)
    }
}
