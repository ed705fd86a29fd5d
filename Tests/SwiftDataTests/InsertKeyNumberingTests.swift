import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// A save allocates its new rows' keys; SQLite numbers a row itself when its key is the one SQLite would give (the
/// table's highest plus one), instead of looking the key up first. Every row still ends under its allocated key.
@Suite struct InsertKeyNumberingTests {
    /// Inserts users with these keys in one write transaction.
    private func insert(_ keys: [Int64], into store: SQLiteStore, entity: Schema.Entity) throws {
        let attributes = entity.orderedAttributes.map(\.index)
        let rows = keys.map {
            RowWrite(model: User(name: "n\($0)", email: "e\($0)"), key: $0, attributes: attributes, references: [])
        }
        try store.write(for: EditingState()) { try $0.insert(rows, entity: entity) }
    }

    private func stored(_ store: SQLiteStore) throws -> [[SQLiteValue]] {
        try store.withReader { try $0.rows("SELECT _pk, name FROM \"User\" ORDER BY _pk") }
    }

    @Test func rowsKeepTheirKeysAlsoBelowAHigherRow() throws {
        let location = StoreKind.sqlite.location()
        let container = try location.container(User.self)
        let store = try #require(container.stores.first as? SQLiteStore)
        let entity = try #require(container.schema.entitiesByName["User"])
        try insert([10], into: store, entity: entity)
        // 6 follows 5, but SQLite would number it 11 (after 10): it is moved to 6, and 7 and 8 are bound again; 20
        // and 21 follow after a gap.
        try insert([5, 6, 7, 8, 20, 21, 22], into: store, entity: entity)
        let keys: [Int64] = [5, 6, 7, 8, 10, 20, 21, 22]
        #expect(try stored(store) == keys.map { [.integer($0), .text("n\($0)")] })
        // The store's allocation goes on after the highest key.
        let context = ModelContext(container)
        context.insert(User(name: "new", email: "new@"))
        try context.save()
        let found = try ModelContext(container).fetch(FetchDescriptor<User>(predicate: #Predicate { $0.name == "new" }))
        #expect(found.map(\.email) == ["new@"])
        #expect(try stored(store).last == [.integer(23), .text("new")])
    }

    /// Models saved through a context, several entities and saves, with deletes between them: each is found by its
    /// identifier with its own values.
    @Test func savedModelsAreFoundByTheirIdentifiers() throws {
        let location = StoreKind.sqlite.location()
        let container = try location.container(User.self, Counter.self)
        let context = ModelContext(container)
        var saved: [(PersistentIdentifier, String)] = []
        for round in 0..<3 {
            var users: [User] = []
            for index in 0..<5 {
                let user = User(name: "u\(round)-\(index)", email: "")
                users.append(user)
                context.insert(user)
                context.insert(Counter(label: "c\(round)-\(index)"))
            }
            try context.save()
            saved += users.map { ($0.persistentModelID, $0.name) }
            // The newest rows go: the next save's keys are above them all the same.
            context.delete(users[4])
            try context.save()
            saved.removeLast()
        }
        let fresh = ModelContext(container)
        for (identifier, name) in saved {
            let user: User? = fresh.registeredModel(for: identifier) ?? (fresh.model(for: identifier) as? User)
            #expect(user?.name == name)
        }
        #expect(try fresh.fetchCount(FetchDescriptor<User>()) == saved.count)
        #expect(try fresh.fetchCount(FetchDescriptor<Counter>()) == 15)
    }
}
