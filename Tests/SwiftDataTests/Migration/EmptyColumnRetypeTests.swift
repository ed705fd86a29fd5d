import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// A property whose type changed migrates when its column holds no values (an empty table, or `nil` in every row):
/// the column is made anew, as there is nothing to convert. What a store copied by `swiftdata copy` needs when it
/// could not tell an empty column's type from its values.
@Suite struct EmptyColumnRetypeTests {
    @Test func aColumnWithoutValuesIsMadeAnew() throws {
        var empty = SchemaDiffTests.AnsweringStore(recording: [Shop.Item.self])
        try LightweightMigration.migrate(&empty, to: Schema([ShopRetyped.Item.self]))
        let columns = try #require(empty.migrations.first?.columns)
        #expect(columns.map(\.name) == ["name", "price", "note"])
        #expect(columns.map(\.source) == ["name", nil, "note"])

        var allNil = SchemaDiffTests.AnsweringStore(recording: [Shop.Item.self])
        (allNil.rows, allNil.nils) = (2, 2)
        try LightweightMigration.migrate(&allNil, to: Schema([ShopRetyped.Item.self]))
        #expect(allNil.migrations.count == 1)

        var someValues = SchemaDiffTests.AnsweringStore(recording: [Shop.Item.self])
        (someValues.rows, someValues.nils) = (2, 1)
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try LightweightMigration.migrate(&someValues, to: Schema([ShopRetyped.Item.self]))
        }
    }

    @Test(arguments: StoreKind.all) func anEmptyTableTakesTheNewType(_ kind: StoreKind) throws {
        let location = kind.location()
        _ = try location.container(Shop.Item.self)
        let context = ModelContext(try location.container(ShopRetyped.Item.self))
        let item = ShopRetyped.Item()
        item.price = 2.5
        context.insert(item)
        try context.save()
        let again = ModelContext(try location.container(ShopRetyped.Item.self))
        #expect(try again.fetch(FetchDescriptor<ShopRetyped.Item>()).map(\.price) == [2.5])
    }
}
