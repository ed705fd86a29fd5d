import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// A migration that fails, in a stage's code or in the store, leaves nothing half-migrated: the store opens at its
/// old version with its data, indexes and recorded version intact, and migrates once the cause is gone.
@Suite struct MigrationFailureTests {
    let indexTests = MigrationIndexTests()

    /// The schema version the store records.
    func recordedVersion(_ location: StoreLocation, _ container: ModelContainer) throws -> String? {
        try location.rows("SELECT value FROM _swiftdata_metadata WHERE key = 'schema_version'", container: container)
            .first?.first
    }

    /// Checks that the store still holds the version 1 catalog, exactly as `catalogStore` wrote it.
    func expectVersionOne(_ location: StoreLocation, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let container = try location.container(Schema(versionedSchema: CatalogV1.self))
        #expect(try recordedVersion(location, container) == "1.0.0", sourceLocation: sourceLocation)
        let products = try ModelContext(container).fetch(FetchDescriptor<CatalogV1.Product>(sortBy: [.init(\.sku)]))
        #expect(
            products.map { "\($0.sku) \($0.price) \($0.note ?? "-")" } == ["A-1 10 first", "A-2 20 -", "B-1 30 -"],
            sourceLocation: sourceLocation)
        try indexTests.expectIndexes(
            [
                "Product_unique_sku": true, "Product_unique_maker_model": true, "Product_index_price": false,
                "Product_index_maker_price": false,
            ], absent: ["Product_unique_code", "Product_index_cost"], location, container,
            sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.all, [false, true]) func aThrowingStageLeavesTheStoreAtItsOldVersion(
        store: StoreKind, afterTheTablesChanged: Bool
    ) throws {
        let location = store.location()
        try indexTests.catalogStore(location)
        let plan: any SchemaMigrationPlan.Type =
            afterTheTablesChanged ? CatalogPlanFailingAfter.self : CatalogPlanFailingBefore.self
        #expect {
            try location.container(Schema(versionedSchema: CatalogV3.self), migrationPlan: plan)
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .loadIssueModelContainer
                && (error.reason ?? "").contains("migration stage 2 (2.0.0 to 3.0.0) failed")
                && (error.reason ?? "").contains("StageFailure")
        }
        try expectVersionOne(location)
        // Once the stage is fixed, the same store migrates.
        let container = try location.container(Schema(versionedSchema: CatalogV3.self), migrationPlan: CatalogPlan.self)
        #expect(try recordedVersion(location, container) == "3.0.0")
        let products = try ModelContext(container).fetch(FetchDescriptor<CatalogV3.Product>(sortBy: [.init(\.code)]))
        #expect(products.map { "\($0.code) \($0.cost) \($0.stock)" } == ["A-1 100 1", "A-2 200 1", "B-1 300 1"])
    }
}

extension MigrationFailureTests {
    @Test(arguments: StoreKind.all) func aFailingStageKeepsTheFilesOfExternallyStoredValues(store: StoreKind) throws {
        let location = store.location()
        let (a, b) = (Data(repeating: 1, count: 100_000), Data(repeating: 2, count: 100_000))
        do {
            let context = ModelContext(try location.container(Schema(versionedSchema: FilesV1.self)))
            context.insert(FilesV1.Document(name: "a", content: a))
            context.insert(FilesV1.Document(name: "b", content: b))
            try context.save()
        }
        let files = {
            try? FileManager.default.contentsOfDirectory(atPath: location.store().path + ".external").sorted()
        }
        let before = files()
        #expect {
            try location.container(Schema(versionedSchema: FilesV2.self), migrationPlan: FailingFilesPlan.self)
        } throws: { error in
            ((error as? SwiftDataError)?.reason ?? "").contains("StageFailure")
        }
        #expect(files() == before, "the files of the stored values stay, and the stage's new file is gone")
        let context = ModelContext(try location.container(Schema(versionedSchema: FilesV1.self)))
        let documents = try context.fetch(FetchDescriptor<FilesV1.Document>(sortBy: [.init(\.name)]))
        #expect(documents.map(\.name) == ["a", "b"])
        #expect(documents.map(\.content) == [a, b])
    }
}

extension MigrationFailureTests {
    /// A stage's save that fails and that the stage catches leaves no files of its own (it removes those it wrote
    /// at once) and removes none that the store's rows name (the old value of a model it changed stays). PostgreSQL
    /// keeps the values in a table, which the failed save's savepoint rolls back.
    @Test(arguments: StoreKind.all) func aFailedSaveThatAStageCaughtRemovesItsFilesAndKeepsTheRows(store: StoreKind)
        throws
    {
        let location = store.location()
        let (a, b) = (Data(repeating: 1, count: 100_000), Data(repeating: 2, count: 100_000))
        do {
            let context = ModelContext(try location.container(Schema(versionedSchema: UniqueFilesV1.self)))
            context.insert(UniqueFilesV1.Sheet(name: "a", content: a))
            context.insert(UniqueFilesV1.Sheet(name: "b", content: b))
            try context.save()
        }
        let files = {
            try FileManager.default.contentsOfDirectory(atPath: location.store().path + ".external").sorted()
        }
        let before = store == .sqlite ? try files() : []
        let container = try location.container(
            Schema(versionedSchema: UniqueFilesV2.self), migrationPlan: CaughtFailureFilesPlan.self)
        let sheets = try ModelContext(container).fetch(FetchDescriptor<UniqueFilesV2.Sheet>(sortBy: [.init(\.name)]))
        #expect(sheets.map(\.name) == ["a", "b", "d"])
        #expect(sheets.map(\.content) == [a, b, Data(repeating: 4, count: 50_000)])
        if store == .sqlite {
            #expect(before.count == 2)
            #expect(CaughtFailureFilesPlan.seen.withLock { $0 } == before, "the failed save's files went at once")
            let after = try files()
            #expect(after.count == 3 && Set(before).isSubset(of: after), "\(before) \(after)")
        } else {
            #expect(try location.rows("SELECT count(*) FROM _swiftdata_external", container: container) == [["3"]])
        }
    }
}
