import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// After any migration, every unique constraint and index the models declare exists in the store, and none it no
/// longer declares: a duplicate of a unique value is refused with `modelValidationFailure`, as before the migration.
@Suite struct MigrationIndexTests {
    /// A version 1 store with three products.
    func catalogStore(_ location: StoreLocation) throws {
        let context = ModelContext(try location.container(Schema(versionedSchema: CatalogV1.self)))
        context.insert(CatalogV1.Product(sku: "A-1", maker: "Acme", model: "One", price: 10, note: "first"))
        context.insert(CatalogV1.Product(sku: "A-2", maker: "Acme", model: "Two", price: 20))
        context.insert(CatalogV1.Product(sku: "B-1", maker: "Best", model: "One", price: 30))
        try context.save()
    }

    /// Checks that the product table has the indexes `expected` names (each unique or not), and none of `absent`.
    func expectIndexes(
        _ expected: [String: Bool], absent: [String], _ location: StoreLocation, _ container: ModelContainer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let indexes = try location.indexes(of: "Product", container: container)
        for (name, unique) in expected {
            let definition = indexes[name]
            #expect(definition != nil, "\(name) exists: \(indexes.keys.sorted())", sourceLocation: sourceLocation)
            #expect(
                definition.map { $0.contains("UNIQUE") == unique } ?? true,
                "\(name) is \(unique ? "" : "not ")unique: \(definition ?? "")", sourceLocation: sourceLocation)
        }
        for name in absent {
            #expect(
                indexes[name] == nil, "\(name) is dropped: \(indexes.keys.sorted())", sourceLocation: sourceLocation)
        }
    }

    /// Gives the second model (by `order`) the first one's unique values (`copy`) and checks that the save is
    /// refused with a clear error and writes nothing: `key` still tells the stored models apart.
    func expectDuplicateRefused<T: PersistentModel>(
        _ order: SortDescriptor<T>, in container: ModelContainer, copy: (_ from: T, _ to: T) -> Void,
        key: (T) -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let context = ModelContext(container)
        let models = try context.fetch(FetchDescriptor<T>(sortBy: [order]))
        try #require(models.count >= 2, sourceLocation: sourceLocation)
        copy(models[0], models[1])
        #expect(sourceLocation: sourceLocation) {
            try context.save()
        } throws: { error in
            (error as? SwiftDataError) == .modelValidationFailure
        }
        let stored = try ModelContext(container).fetch(FetchDescriptor<T>(sortBy: [order])).map(key)
        #expect(
            Set(stored).count == stored.count, "no duplicate was written: \(stored)", sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.all) func aRemovedPropertyKeepsEveryIndex(store: StoreKind) throws {
        let location = store.location()
        try catalogStore(location)
        let container = try location.container(Schema(versionedSchema: CatalogV2.self))
        try expectIndexes(
            [
                "Product_unique_sku": true, "Product_unique_maker_model": true, "Product_index_price": false,
                "Product_index_maker_price": false,
            ], absent: [], location, container)
        let products = try ModelContext(container).fetch(FetchDescriptor<CatalogV2.Product>(sortBy: [.init(\.sku)]))
        #expect(
            products.map { "\($0.sku) \($0.maker) \($0.model) \($0.price)" } == [
                "A-1 Acme One 10", "A-2 Acme Two 20", "B-1 Best One 30",
            ])
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV2.Product.sku), in: container, copy: { $1.sku = $0.sku }, key: { $0.sku })
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV2.Product.sku), in: container,
            copy: {
                $1.maker = $0.maker
                $1.model = $0.model
            }, key: { "\($0.maker) \($0.model)" })
    }

    @Test(arguments: StoreKind.all) func renamedPropertiesCarryTheirIndexes(store: StoreKind) throws {
        let location = store.location()
        try catalogStore(location)
        let container = try location.container(Schema(versionedSchema: CatalogV3.self))
        try expectIndexes(
            [
                "Product_unique_code": true, "Product_unique_maker_model": true, "Product_index_cost": false,
                "Product_index_maker_cost": false,
            ], absent: ["Product_unique_sku", "Product_index_price", "Product_index_maker_price"], location, container)
        let products = try ModelContext(container).fetch(FetchDescriptor<CatalogV3.Product>(sortBy: [.init(\.code)]))
        #expect(products.map { "\($0.code) \($0.cost)" } == ["A-1 10", "A-2 20", "B-1 30"])
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV3.Product.code), in: container, copy: { $1.code = $0.code }, key: { $0.code })
    }

    @Test(arguments: StoreKind.all) func changedIndexesApplyWithARemovedProperty(store: StoreKind) throws {
        let location = store.location()
        try catalogStore(location)
        let container = try location.container(Schema(versionedSchema: CatalogV4.self))
        try expectIndexes(
            ["Product_unique_sku": true, "Product_unique_price": true, "Product_index_maker_model": false],
            absent: ["Product_unique_maker_model", "Product_index_price", "Product_index_maker_price"], location,
            container)
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV4.Product.sku), in: container, copy: { $1.price = $0.price }, key: { "\($0.price)" }
        )
        // Maker and model are no longer unique together.
        let context = ModelContext(container)
        let second = try #require(
            try context.fetch(FetchDescriptor<CatalogV4.Product>(predicate: #Predicate { $0.sku == "A-2" })).first)
        second.model = "One"
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CatalogV4.Product>()) == 3)
    }

    @Test(arguments: StoreKind.all) func aPlanOfLightweightAndCustomStagesKeepsEveryIndex(store: StoreKind) throws {
        let location = store.location()
        try catalogStore(location)
        let container = try location.container(
            Schema(versionedSchema: CatalogV3.self), migrationPlan: CatalogPlan.self)
        try expectIndexes(
            [
                "Product_unique_code": true, "Product_unique_maker_model": true, "Product_index_cost": false,
                "Product_index_maker_cost": false,
            ], absent: ["Product_unique_sku", "Product_index_price", "Product_index_maker_price"], location, container)
        let products = try ModelContext(container).fetch(FetchDescriptor<CatalogV3.Product>(sortBy: [.init(\.code)]))
        #expect(products.map { "\($0.code) \($0.cost) \($0.stock)" } == ["A-1 100 1", "A-2 200 1", "B-1 300 1"])
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV3.Product.code), in: container, copy: { $1.code = $0.code }, key: { $0.code })
        try expectDuplicateRefused(
            SortDescriptor(\CatalogV3.Product.code), in: container,
            copy: {
                $1.maker = $0.maker
                $1.model = $0.model
            }, key: { "\($0.maker) \($0.model)" })
    }
}
