import Foundation
import SwiftData

// Versions of a model with every kind of index: a unique attribute, a compound `#Unique` and two `#Index`es. Each
// later version makes a store rebuild or change its table, which must keep (or change) the indexes as declared.

/// The first version: products with a note.
enum CatalogV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Product.self] }

    @Model final class Product {
        #Unique<Product>([\.maker, \.model])
        #Index<Product>([\.price], [\.maker, \.price])
        @Attribute(.unique) var sku: String
        var maker: String
        var model: String
        var price: Int
        var note: String?
        init(sku: String, maker: String, model: String, price: Int, note: String? = nil) {
            self.sku = sku
            self.maker = maker
            self.model = model
            self.price = price
            self.note = note
        }
    }
}

/// The note removed: a store rebuilds the table (SQLite) or drops the column (PostgreSQL).
enum CatalogV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Product.self] }

    @Model final class Product {
        #Unique<Product>([\.maker, \.model])
        #Index<Product>([\.price], [\.maker, \.price])
        @Attribute(.unique) var sku: String
        var maker: String
        var model: String
        var price: Int
        init(sku: String, maker: String, model: String, price: Int) {
            self.sku = sku
            self.maker = maker
            self.model = model
            self.price = price
        }
    }
}

/// The price renamed to cost, and the unique attribute renamed, each through `originalName`; the indexes follow.
enum CatalogV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Product.self] }

    @Model final class Product {
        #Unique<Product>([\.maker, \.model])
        #Index<Product>([\.cost], [\.maker, \.cost])
        @Attribute(.unique, originalName: "sku") var code: String
        var maker: String
        var model: String
        @Attribute(originalName: "price") var cost: Int
        var stock: Int = 0
        init(code: String, maker: String, model: String, cost: Int) {
            self.code = code
            self.maker = maker
            self.model = model
            self.cost = cost
        }
    }
}

/// The indexes changed: the compound `#Unique` becomes a plain `#Index`, the index on the price a unique
/// constraint, and the note is removed in the same version.
enum CatalogV4: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(4, 0, 0) }
    static var models: [any PersistentModel.Type] { [Product.self] }

    @Model final class Product {
        #Unique<Product>([\.price])
        #Index<Product>([\.maker, \.model])
        @Attribute(.unique) var sku: String
        var maker: String
        var model: String
        var price: Int
        init(sku: String, maker: String, model: String, price: Int) {
            self.sku = sku
            self.maker = maker
            self.model = model
            self.price = price
        }
    }
}

/// Version 1 to 3 in two stages: lightweight, then custom with code on both sides.
enum CatalogPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CatalogV1.self, CatalogV2.self, CatalogV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: CatalogV1.self, toVersion: CatalogV2.self),
            .custom(
                fromVersion: CatalogV2.self, toVersion: CatalogV3.self,
                willMigrate: { context in
                    for product in try context.fetch(FetchDescriptor<CatalogV2.Product>()) { product.price *= 10 }
                    try context.save()
                },
                didMigrate: { context in
                    for product in try context.fetch(FetchDescriptor<CatalogV3.Product>()) { product.stock = 1 }
                    try context.save()
                }),
        ]
    }
}

/// `CatalogPlan` whose custom stage saves a change in `willMigrate`, then throws.
enum CatalogPlanFailingBefore: SchemaMigrationPlan {
    struct StageFailure: Error {}
    static var schemas: [any VersionedSchema.Type] { CatalogPlan.schemas }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: CatalogV1.self, toVersion: CatalogV2.self),
            .custom(
                fromVersion: CatalogV2.self, toVersion: CatalogV3.self,
                willMigrate: { context in
                    for product in try context.fetch(FetchDescriptor<CatalogV2.Product>()) { product.price = -1 }
                    context.insert(CatalogV2.Product(sku: "C-1", maker: "Cheap", model: "One", price: 1))
                    try context.save()
                    throw StageFailure()
                }, didMigrate: nil),
        ]
    }
}

/// `CatalogPlan` whose custom stage saves a change in `didMigrate`, after the tables changed, then throws.
enum CatalogPlanFailingAfter: SchemaMigrationPlan {
    struct StageFailure: Error {}
    static var schemas: [any VersionedSchema.Type] { CatalogPlan.schemas }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: CatalogV1.self, toVersion: CatalogV2.self),
            .custom(
                fromVersion: CatalogV2.self, toVersion: CatalogV3.self, willMigrate: nil,
                didMigrate: { context in
                    for product in try context.fetch(FetchDescriptor<CatalogV3.Product>()) { product.stock = 99 }
                    try context.save()
                    throw StageFailure()
                }),
        ]
    }
}
