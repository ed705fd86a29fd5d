import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// Opening a store whose recorded schema differs from the models migrates it, when the change is lightweight.
@Suite struct LightweightMigrationTests {
    /// A store of `Shop.Item` with three items, one of them without a note.
    func shopStore(_ directory: StoreLocation) throws {
        let context = ModelContext(try makeContainer(Shop.Item.self, in: directory))
        context.insert(Shop.Item(name: "apple", price: 3, note: "red"))
        context.insert(Shop.Item(name: "pear", price: 4, note: "green"))
        context.insert(Shop.Item(name: "plum", price: 5))
        try context.save()
    }

    @Test func foodPinRatingBecomesRatingText() throws {
        let directory = StoreKind.sqlite.location()
        do {
            let context = ModelContext(try makeContainer(FoodPinV1.Restaurant.self, in: directory))
            context.insert(FoodPinV1.Restaurant(name: "Cafe Deadend", type: "Coffee & Tea Shop", rating: "awesome"))
            context.insert(FoodPinV1.Restaurant(name: "Homei", type: "Cafe", rating: nil))
            try context.save()
        }
        let context = ModelContext(try makeContainer(Restaurant.self, in: directory))
        let restaurants = try context.fetch(FetchDescriptor<Restaurant>(sortBy: [SortDescriptor(\.name)]))
        #expect(restaurants.map(\.ratingText) == ["awesome", nil])
        #expect(restaurants[0].rating == .awesome)
        #expect(restaurants.map(\.summary) == ["", ""], "added properties take their default value")
        #expect(restaurants.map(\.imageData) == [Data(), Data()])
        let columns = try sqlite(directory.store(), "SELECT name FROM pragma_table_info('Restaurant')")
        #expect(columns.contains("ratingText") && !columns.contains("\nrating\n"))
    }

    @Test(arguments: StoreKind.withPooler) func addedPropertiesTakeTheirDefaultOrNil(store: StoreKind) throws {
        let directory = store.location()
        try shopStore(directory)
        let context = ModelContext(try makeContainer(ShopAdded.Item.self, in: directory))
        let items = try context.fetch(FetchDescriptor<ShopAdded.Item>(sortBy: [SortDescriptor(\.name)]))
        #expect(items.map(\.name) == ["apple", "pear", "plum"])
        #expect(items.map(\.stock) == [7, 7, 7])
        #expect(items.map(\.barcode) == [nil, nil, nil])
        #expect(items.map(\.note) == ["red", "green", nil])
    }

    @Test(arguments: StoreKind.withPooler) func removedPropertiesAreDropped(store: StoreKind) throws {
        let directory = store.location()
        try shopStore(directory)
        let context = ModelContext(try makeContainer(ShopRemoved.Item.self, in: directory))
        #expect(
            try context.fetch(FetchDescriptor<ShopRemoved.Item>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "apple", "pear", "plum",
            ])
        let item = ShopRemoved.Item()
        item.name = "quince"
        context.insert(item)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<ShopRemoved.Item>()) == 4)
    }

    @Test(arguments: StoreKind.withPooler) func typeChangeIsRefusedAndTheStoreIsUntouched(store: StoreKind) throws {
        let directory = store.location()
        try shopStore(directory)
        let before = store == .sqlite ? try storeBytes(directory) : nil
        #expect {
            try makeContainer(ShopRetyped.Item.self, in: directory)
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .loadIssueModelContainer && error.modelName == "Item" && error.propertyName == "price"
                && (error.reason ?? "").contains("from Int to Double")
                && error.suggestion?.contains("MigrationStage.custom") == true
        }
        if store == .sqlite { #expect(try storeBytes(directory) == before) }
        #expect(
            try ModelContext(try makeContainer(Shop.Item.self, in: directory)).fetchCount(FetchDescriptor<Shop.Item>())
                == 3)
    }

    @Test(arguments: StoreKind.withPooler) func optionalBecomingRequired(store: StoreKind) throws {
        let directory = store.location()
        try shopStore(directory)
        #expect {
            try makeContainer(ShopRequiredWithoutDefault.Item.self, in: directory)
        } throws: { error in
            (error as? SwiftDataError)?.propertyName == "note"
                && ((error as? SwiftDataError)?.reason ?? "").contains("became required")
        }
        let context = ModelContext(try makeContainer(ShopRequired.Item.self, in: directory))
        #expect(
            try context.fetch(FetchDescriptor<ShopRequired.Item>(sortBy: [SortDescriptor(\.name)])).map(\.note) == [
                "red", "green", "none",
            ])
    }

    @Test func uniquenessAddedToUniqueDataAndToDuplicates() throws {
        let directory = StoreKind.sqlite.location()
        try shopStore(directory)
        _ = try makeContainer(ShopUnique.Item.self, in: directory)
        #expect(
            try sqlite(directory.store(), "SELECT name FROM sqlite_master WHERE type = 'index'").contains(
                "Item_unique_name"))

        let duplicated = StoreKind.sqlite.location()
        try shopStore(duplicated)
        do {
            let context = ModelContext(try makeContainer(Shop.Item.self, in: duplicated))
            context.insert(Shop.Item(name: "apple", price: 9))
            try context.save()
        }
        let before = try storeBytes(duplicated)
        #expect {
            try makeContainer(ShopUnique.Item.self, in: duplicated)
        } throws: { error in
            ((error as? SwiftDataError)?.reason ?? "").contains("name = 'apple' (2 models)")
        }
        #expect(try storeBytes(duplicated) == before)
    }

    @Test func indexesAreAddedAndRemoved() throws {
        let directory = StoreKind.sqlite.location()
        try shopStore(directory)
        _ = try makeContainer(ShopIndexed.Item.self, in: directory)
        let indexes = try sqlite(directory.store(), "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
        #expect(indexes.contains("Item_index_price\n") && indexes.contains("Item_index_name_price\n"))
        let plan = try sqlite(directory.store(), "EXPLAIN QUERY PLAN SELECT _pk FROM Item WHERE price = 4")
        #expect(plan.contains("USING INDEX Item_index_price") || plan.contains("USING COVERING INDEX Item_index_price"))
        _ = try makeContainer(Shop.Item.self, in: directory)
        #expect(
            !(try sqlite(directory.store(), "SELECT name FROM sqlite_master WHERE type = 'index'")).contains(
                "Item_index"))
    }

    @Test(arguments: StoreKind.withPooler) func indexChangesKeepIndexesTheStoreDidNotMake(store: StoreKind) throws {
        let location = store.location()
        try shopStore(location)
        // Names that `LIKE 'Item_index_%'` and `LIKE 'Item_unique_%'` match (`_` is any character).
        let own = ["Item_indexed_by_hand", "Item_uniquely_named"]
        do {
            let container = try makeContainer(Shop.Item.self, in: location)
            for name in own {
                _ = try location.rows("CREATE INDEX \"\(name)\" ON \"Item\" (\"note\")", container: container)
            }
        }
        let container = try makeContainer(ShopIndexed.Item.self, in: location)
        let indexes = try location.indexes(of: "Item", container: container)
        #expect(indexes["Item_index_price"] != nil, "\(indexes.keys)")
        for name in own { #expect(indexes[name] != nil, "\(name) is kept: \(indexes.keys)") }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<ShopIndexed.Item>()) == 3)
    }

    @Test(arguments: StoreKind.withPooler) func relationshipsAddedAndRenamed(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Student.self, in: directory))
            let ann = Student(name: "Ann")
            ann.courses = [Course(title: "Math")]
            context.insert(ann)
            try context.save()
        }
        // Reopening with more models adds their tables and keeps the rest.
        let context = ModelContext(try makeContainer(Student.self, AnimalCategory.self, in: directory))
        #expect(try context.fetch(FetchDescriptor<Student>()).first?.courses.map(\.title) == ["Math"])
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 0)
    }

    @Test(arguments: StoreKind.withPooler) func relationshipRenamesAndDeleteRuleChanges(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(ShelvesV1.Shelf.self, in: directory))
            let shelf = ShelvesV1.Shelf(name: "fiction")
            shelf.volumes = [ShelvesV1.Volume(title: "Dune"), ShelvesV1.Volume(title: "Emma")]
            context.insert(shelf)
            try context.save()
        }
        let container = try makeContainer(ShelvesV2.Shelf.self, in: directory)
        let context = ModelContext(container)
        let shelf = try #require(try context.fetch(FetchDescriptor<ShelvesV2.Shelf>()).first)
        #expect(shelf.books.map(\.title) == ["Dune", "Emma"], "the relationship and its order survive the rename")
        #expect(shelf.books.first?.rack === shelf)
        context.delete(shelf)
        try context.save()
        #expect(
            try ModelContext(container).fetchCount(FetchDescriptor<ShelvesV2.Volume>()) == 0,
            "the new delete rule applies")
    }

    func storeBytes(_ directory: StoreLocation) throws -> Data {
        try Data(contentsOf: directory.store())
    }
}
