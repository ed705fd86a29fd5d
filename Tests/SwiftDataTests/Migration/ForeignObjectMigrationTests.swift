import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// What a program added to the store's tables by itself (its own indexes, views and, on SQLite, triggers) survives a
/// migration that rebuilds or changes a table, unless it needs a removed column (as PostgreSQL drops an index of a
/// dropped column).
@Suite struct ForeignObjectMigrationTests {
    @Test(arguments: StoreKind.all) func ownIndexesViewsAndTriggersSurviveARebuild(store: StoreKind) throws {
        let location = store.location()
        try MigrationIndexTests().catalogStore(location)
        do {
            let container = try location.container(Schema(versionedSchema: CatalogV1.self))
            var statements = [
                #"CREATE INDEX "by_maker" ON "Product" ("maker")"#,
                #"CREATE INDEX "by_note" ON "Product" ("note")"#,
                #"CREATE VIEW "skus" AS SELECT "sku" FROM "Product""#,
            ]
            if store == .sqlite {
                statements += [
                    #"CREATE TABLE "audit" ("sku" TEXT)"#,
                    #"CREATE TRIGGER "audited" AFTER UPDATE ON "Product" BEGIN INSERT INTO "audit" VALUES (new."sku"); END"#,
                ]
            }
            for statement in statements { _ = try location.rows(statement, container: container) }
        }
        let container = try location.container(Schema(versionedSchema: CatalogV2.self))
        let indexes = try location.indexes(of: "Product", container: container)
        #expect(indexes["by_maker"] != nil, "\(indexes.keys.sorted())")
        #expect(indexes["by_note"] == nil, "the index of the removed column goes with it")
        #expect(
            try location.rows(#"SELECT "sku" FROM "skus" ORDER BY 1"#, container: container).map { $0[0] } == [
                "A-1", "A-2", "B-1",
            ])
        let context = ModelContext(container)
        for product in try context.fetch(FetchDescriptor<CatalogV2.Product>()) { product.price += 1 }
        try context.save()
        if store == .sqlite {
            #expect(try location.rows(#"SELECT count(*) FROM "audit""#, container: container) == [["3"]])
        }
    }
}
