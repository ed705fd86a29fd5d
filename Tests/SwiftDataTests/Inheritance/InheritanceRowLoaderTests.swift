import Foundation
import SwiftData
import Testing

/// A subclass's row of plain attributes loads its root class's properties in one call of the row loader it inherits,
/// then its own: every value of every class is the stored one, whether the subclass's columns follow its root's
/// (the first subclass) or not (the others), and a value of the wrong type still names its property.
@Suite struct InheritanceRowLoaderTests {
    private func makeStore(_ location: StoreLocation) throws -> ModelContainer {
        let container = try location.container(Schema(accountModels))
        let context = ModelContext(container)
        context.insert(Account(handle: "plain", region: "north"))
        context.insert(Business(handle: "acme", taxID: "T-1"))
        let team = Team(handle: "reds", region: "south")
        team.members = 11
        context.insert(team)
        let personal = Personal(handle: "sam", region: "east")
        personal.nickname = "Sammy"
        context.insert(personal)
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func everyClassLoadsEveryValue(store: StoreKind) throws {
        let location = store.location()
        let container = try makeStore(location)
        let context = ModelContext(container)
        let accounts = try context.fetch(FetchDescriptor<Account>(sortBy: [SortDescriptor(\.handle)]))
        #expect(accounts.map(\.handle) == ["acme", "plain", "reds", "sam"])
        #expect(accounts.map(\.region) == ["", "north", "south", "east"])
        let business = try #require(accounts[0] as? Business)
        let team = try #require(accounts[2] as? Team)
        let personal = try #require(accounts[3] as? Personal)
        #expect(type(of: accounts[1]) == Account.self)
        #expect(business.taxID == "T-1")
        #expect(team.members == 11)
        #expect(personal.nickname == "Sammy")
        #expect(accounts.allSatisfy { !$0.hasChanges })
        // A fetch of a subclass reads its rows the same way.
        let teams = try ModelContext(container).fetch(FetchDescriptor<Team>())
        #expect(teams.map(\.handle) == ["reds"] && teams.map(\.region) == ["south"] && teams.map(\.members) == [11])
    }

    /// A wrong value in a subclass's row, in an inherited column or in one of its own, with the subclass's columns
    /// after its root's (`Business`) or not (`Team`).
    @Test(arguments: [("reds", "region"), ("reds", "members"), ("acme", "region"), ("acme", "taxID")])
    func aValueOfTheWrongTypeInASubclassRowNamesItsProperty(handle: String, column: String) throws {
        let location = StoreKind.sqlite.location()
        let container = try makeStore(location)
        _ = try location.rows(
            "UPDATE \"Account\" SET \"\(column)\" = x'41' WHERE \"handle\" = '\(handle)'", container: container)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContext(container).fetch(FetchDescriptor<Account>())
        }
        #expect(error.propertyName == column)
    }
}
