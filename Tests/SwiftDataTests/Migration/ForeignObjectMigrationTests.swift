import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// What a program added to the store's tables by itself (its own indexes, views and, on SQLite, triggers) survives a
/// migration that rebuilds or changes a table, unless it needs a removed column (as PostgreSQL drops an index of a
/// dropped column).
@Suite struct ForeignObjectMigrationTests {
    @Test(arguments: StoreKind.all) func ownIndexesViewsAndTriggersSurviveARebuild(store: StoreKind) throws {
        let (_, log) = try capturingLog {
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
        #expect(log.allSatisfy { $0.hasPrefix("SwiftData warning: the migration of Product dropped ") }, "\(log)")
        #expect(
            store == .postgres
                || log.contains { $0.hasPrefix("SwiftData warning: the migration of Product dropped by_note") },
            "\(log)")
    }

    /// A program's own index, view and trigger on a column that a migration renames (`originalName`) follow the
    /// rename, as PostgreSQL's `RENAME COLUMN` keeps them: on SQLite, where the table is rebuilt, too.
    @Test(arguments: StoreKind.all) func ownObjectsOfARenamedColumnFollowTheRename(store: StoreKind) throws {
        let location = store.location()
        try MigrationIndexTests().catalogStore(location)
        do {
            let container = try location.container(Schema(versionedSchema: CatalogV1.self))
            var statements = [
                #"CREATE INDEX "by_price" ON "Product" ("price")"#,
                #"CREATE INDEX "by_maker_and_price" ON "Product" ("maker", "price" DESC)"#,
                #"CREATE VIEW "prices" AS SELECT "sku", "price" FROM "Product""#,
            ]
            if store == .sqlite {
                statements += [
                    #"CREATE TABLE "audit" ("price" INTEGER)"#,
                    #"CREATE TRIGGER "audited" AFTER UPDATE OF "price" ON "Product" BEGIN INSERT INTO "audit" VALUES (new."price"); END"#,
                ]
            }
            for statement in statements { _ = try location.rows(statement, container: container) }
        }
        // Version 3 renames price to cost and sku to code, and removes the note.
        let container = try location.container(Schema(versionedSchema: CatalogV3.self))
        let indexes = try location.indexes(of: "Product", container: container)
        #expect(indexes["by_price"]?.contains("cost") == true, "\(indexes)")
        #expect(indexes["by_maker_and_price"]?.contains("cost") == true, "\(indexes)")
        #expect(
            try location.rows(#"SELECT * FROM "prices" ORDER BY 1"#, container: container) == [
                ["A-1", "10"], ["A-2", "20"], ["B-1", "30"],
            ])
        let context = ModelContext(container)
        for product in try context.fetch(FetchDescriptor<CatalogV3.Product>()) { product.cost += 1 }
        try context.save()
        if store == .sqlite {
            #expect(
                try location.rows(#"SELECT * FROM "audit" ORDER BY 1"#, container: container) == [
                    ["11"], ["21"], ["31"],
                ])
        }
    }

    /// A column renamed to the name of a removed column that differs from it only by case (one column to SQLite):
    /// the values and the program's own index follow the rename.
    @Test(arguments: StoreKind.all) func aRenameToTheNameOfARemovedColumnInAnotherCaseKeepsValuesAndIndexes(
        store: StoreKind
    ) throws {
        let location = store.location()
        do {
            let container = try makeContainer(CaseRenameV1.Memo.self, in: location)
            let context = ModelContext(container)
            context.insert(CaseRenameV1.Memo(text: "first"))
            context.insert(CaseRenameV1.Memo(text: "second"))
            try context.save()
            _ = try location.rows(#"CREATE INDEX "by_text" ON "Memo" ("text")"#, container: container)
        }
        let container = try makeContainer(CaseRenameV2.Memo.self, in: location)
        let memos = try ModelContext(container).fetch(FetchDescriptor<CaseRenameV2.Memo>(sortBy: [.init(\.note)]))
        #expect(memos.map(\.note) == ["first", "second"])
        let indexes = try location.indexes(of: "Memo", container: container)
        #expect(indexes["by_text"]?.contains("note") == true, "\(indexes)")
    }

    /// When SQLite refuses to rename a column in place (here, because a view of the program elsewhere in the store
    /// names a column that no longer exists), the migration still succeeds, as it did before renames were made in
    /// place: the values follow the rename, and the program's own index of the old column is dropped, with a warning.
    @Test func aRenameSQLiteRefusesStillMigrates() throws {
        let (_, log) = try capturingLog {
            let location = StoreKind.sqlite.location()
            try MigrationIndexTests().catalogStore(location)
            do {
                let container = try location.container(Schema(versionedSchema: CatalogV1.self))
                for statement in [
                    #"CREATE INDEX "by_price" ON "Product" ("price")"#, #"CREATE TABLE "other" ("c" TEXT)"#,
                    #"CREATE VIEW "broken" AS SELECT gone FROM "other""#,
                ] {
                    _ = try location.rows(statement, container: container)
                }
            }
            let container = try location.container(Schema(versionedSchema: CatalogV3.self))
            let products = try ModelContext(container).fetch(
                FetchDescriptor<CatalogV3.Product>(sortBy: [.init(\.code)]))
            #expect(products.map { "\($0.code) \($0.cost)" } == ["A-1 10", "A-2 20", "B-1 30"])
            #expect(try location.indexes(of: "Product", container: container)["by_price"] == nil)
        }
        #expect(log.count == 3, "\(log)")
        #expect(
            log.contains {
                $0.hasPrefix("SwiftData warning: the migration of Product could not rename the column sku to ")
            }, "\(log)")
        #expect(
            log.contains {
                $0.hasPrefix("SwiftData warning: the migration of Product could not rename the column price to ")
            }, "\(log)")
        #expect(
            log.contains {
                $0.hasPrefix(
                    "SwiftData warning: the migration of Product dropped by_price, which needs a column it removed")
            }, "\(log)")
    }
}
