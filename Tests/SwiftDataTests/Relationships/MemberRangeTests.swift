import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Loading the members of owners whose keys are consecutive reads one range of the foreign key's index on SQLite
/// (where other owners are listed one by one): either way, each owner gets exactly its own members, in order.
@Suite struct MemberRangeTests {
    /// Walks the categories with these names in a fresh context; returns each one's animals' names, and the member
    /// query's SQL on SQLite.
    private func walk(_ names: [String], in container: ModelContainer) throws -> ([[String]], [String]) {
        let context = ModelContext(container)
        let categories = try context.fetch(
            FetchDescriptor<AnimalCategory>(
                predicate: #Predicate { names.contains($0.name) }, sortBy: [SortDescriptor(\.name)]))
        #expect(categories.map(\.name) == names)
        let log = StatementLog(container)
        let members = categories.map { $0.animals.map(\.name) }
        for category in categories { #expect(category.animals.allSatisfy { $0.category === category }) }
        return (members, log.selects)
    }

    private func expected(_ names: [String]) -> [[String]] {
        names.map { name in (0..<3).map { "a\(name.dropFirst())-\($0)" } }
    }

    @Test(arguments: StoreKind.all) func ownersWithConsecutiveKeysGetTheirOwnMembers(store: StoreKind) throws {
        let location = store.location()
        let container = try location.zoo(categories: 6)
        // Every owner, and owners in the middle: members of the owners after the last are not theirs.
        for names in [["c0", "c1", "c2", "c3", "c4", "c5"], ["c1", "c2", "c3"]] {
            let (members, selects) = try walk(names, in: container)
            #expect(members == expected(names))
            if store == .sqlite {
                #expect(selects.count == 1 && selects.allSatisfy { $0.contains(">= ?") }, "\(selects)")
            }
        }
        withExtendedLifetime(location) {}
    }

    @Test(arguments: StoreKind.all) func ownersWithGapsGetTheirOwnMembers(store: StoreKind) throws {
        let location = store.location()
        let container = try location.zoo(categories: 6)
        for names in [["c0", "c2", "c4"], ["c1", "c5"], ["c3"]] {
            let (members, selects) = try walk(names, in: container)
            #expect(members == expected(names))
            if store == .sqlite { #expect(selects.count == 1 && selects.allSatisfy { $0.contains(" IN (") }) }
        }
        withExtendedLifetime(location) {}
    }

    /// The store reports members of the owners asked for only: the range's reading stops after its last owner.
    @Test func theStoreReportsMembersOfTheOwnersAskedForOnly() throws {
        let location = StoreKind.sqlite.location()
        let container = try location.zoo(categories: 6)
        let store = try #require(container.stores.first as? SQLiteStore)
        let categories = try #require(container.schema.entitiesByName["AnimalCategory"])
        let animals = try #require(container.schema.entitiesByName["Animal"])
        let relationship = try #require(categories.relationshipsByName["animals"])
        let keys = try ModelContext(container).fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
            .map { $0._$persistentState.key }
        for owners in [Array(keys[1...3]), [keys[3], keys[1], keys[2]], [keys[0], keys[2]], Array(keys)] {
            var reported: [Int64] = []
            try store.fetchMembers(
                of: relationship, owners: owners, destination: animals, properties: [], subentityProperties: []
            ) { owner, _, _ in reported.append(owner) }
            #expect(Set(reported) == Set(owners), "\(owners)")
            #expect(reported.count == owners.count * 3 && reported == reported.sorted())
        }
        withExtendedLifetime(location) {}
    }

    @Test func consecutiveKeysAreFoundInAnyOrderAndOnlyOnce() {
        #expect(SQLiteStore.consecutive([3, 1, 2]) == 1...3)
        #expect(SQLiteStore.consecutive([7, 8]) == 7...8)
        #expect(SQLiteStore.consecutive([1, 1, 3]) == nil, "a repeated key leaves a gap")
        #expect(SQLiteStore.consecutive([1, 2, 2]) == nil)
        #expect(SQLiteStore.consecutive([1, 3]) == nil)
        #expect(SQLiteStore.consecutive([5]) == nil)
        #expect(SQLiteStore.consecutive([]) == nil)
        #expect(SQLiteStore.consecutive([.min, .max]) == nil)
        let highest = SQLiteStore.consecutive([Int64.max, Int64.max - 1])
        #expect(highest?.lowerBound == Int64.max - 1 && highest?.upperBound == Int64.max)
    }
}
