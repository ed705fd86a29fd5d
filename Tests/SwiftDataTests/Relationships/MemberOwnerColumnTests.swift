import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Loading the members of a relationship whose inverse is a foreign key in the members' rows reads that key once: the
/// SQLite store takes each row's owner from the members' own column rather than selecting it a second time, and the
/// members link to their owner by the key the store reported.
@Suite struct MemberOwnerColumnTests {
    /// The result columns of a `SELECT` (between `SELECT` and `FROM`).
    private func resultColumns(_ sql: String) -> [String] {
        guard let from = sql.range(of: " FROM ") else { return [] }
        return sql[sql.index(sql.startIndex, offsetBy: 7)..<from.lowerBound].components(separatedBy: ", ")
    }

    @Test func theMemberQuerySelectsTheOwnersForeignKeyOnce() throws {
        let location = StoreKind.sqlite.location()
        let container = try location.zoo(categories: 4)
        // All the owners (one range of keys), and owners with a gap (a list of keys).
        for names in [["c0", "c1", "c2", "c3"], ["c0", "c2"]] {
            let context = ModelContext(container)
            let categories = try context.fetch(
                FetchDescriptor<AnimalCategory>(
                    predicate: #Predicate { names.contains($0.name) }, sortBy: [SortDescriptor(\.name)]))
            let log = StatementLog(container)
            let members = categories.map { $0.animals.map(\.name).sorted() }
            #expect(members == names.map { name in (0..<3).map { "a\(name.dropFirst())-\($0)" } })
            for category in categories { #expect(category.animals.allSatisfy { $0.category === category }) }
            let select = try #require(log.selects.first { $0.contains(" AS d WHERE ") }, "\(log.selects)")
            let columns = resultColumns(select)
            #expect(columns.filter { $0.hasSuffix("\"category\"") }.count == 1, "\(select)")
        }
        withExtendedLifetime(location) {}
    }

    /// With the members' properties read, the store reports each row's owner from the members' foreign key column,
    /// whose value the reader still holds where the properties' layout puts it.
    @Test func theStoreReportsOwnersFromTheMembersColumn() throws {
        let location = StoreKind.sqlite.location()
        let container = try location.zoo(categories: 4)
        let store = try #require(container.stores.first as? SQLiteStore)
        let binding = try #require(container.binding(for: Animal.self))
        let categories = try #require(container.schema.entitiesByName["AnimalCategory"])
        let relationship = try #require(categories.relationshipsByName["animals"])
        let inverse = try #require(relationship.inverse)
        let column = try #require(binding.fetchedProperties.firstIndex(of: inverse.index))
        let keys = try ModelContext(container).fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
            .map { $0._$persistentState.key }
        for owners in [keys, Array(keys[1...2]), [keys[0], keys[3]], [keys[2]]] {
            var reported: [Int64] = []
            try store.fetchMembers(
                of: relationship, owners: owners, destination: binding.entity, properties: binding.fetchedProperties,
                subentityProperties: []
            ) { owner, _, reader in
                let stored = try reader.relatedKey(2 + Int32(column))
                #expect(stored == owner)
                reported.append(owner)
            }
            #expect(Set(reported) == Set(owners), "\(owners)")
            #expect(reported.count == owners.count * 3 && reported == reported.sorted())
        }
        withExtendedLifetime(location) {}
    }
}
