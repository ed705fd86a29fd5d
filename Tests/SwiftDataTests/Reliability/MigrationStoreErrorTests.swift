import Foundation
import SwiftData
import Testing

/// A store that cannot be migrated because of the store itself (a damaged file, another process's lock held too
/// long) gives an error that names the store and what to do, and is left exactly as it was.
@Suite struct MigrationStoreErrorTests {
    /// A closed version 1 catalog store whose tables span many pages, with one page overwritten; its bytes.
    func damagedCatalog(_ location: StoreLocation) throws -> Data {
        do {
            let context = ModelContext(try location.container(Schema(versionedSchema: CatalogV1.self)))
            for index in 0..<2000 {
                context.insert(
                    CatalogV1.Product(
                        sku: "S-\(index)", maker: "maker \(index) with a name long enough", model: "M", price: index,
                        note: "note \(index)"))
            }
            try context.save()
        }
        let handle = try FileHandle(forUpdating: location.store())
        try handle.seek(toOffset: 4096 * 6)
        try handle.write(contentsOf: Data(repeating: 0x55, count: 4096))
        try handle.close()
        return try Data(contentsOf: location.store())
    }

    /// Whether `error` says the store at `location` is damaged and to restore it, not to change the models or the
    /// migration plan.
    func saysDamaged(_ error: any Error, _ location: StoreLocation) -> Bool {
        guard let error = error as? SwiftDataError else { return false }
        return "\(error)".contains(location.store().path) && (error.reason ?? "").contains("damaged")
            && error.suggestion?.contains("backup") == true && error.storeCode != nil
    }

    @Test func aDamagedStoreFailsItsMigrationAndIsLeftAsItWas() throws {
        let location = StoreKind.sqlite.location()
        let before = try damagedCatalog(location)
        #expect {
            try location.container(Schema(versionedSchema: CatalogV2.self))
        } throws: { error in
            saysDamaged(error, location)
        }
        #expect(try Data(contentsOf: location.store()) == before)
    }

    @Test func aDamagedStoreFailingInAMigrationStageIsNamedAsDamaged() throws {
        let location = StoreKind.sqlite.location()
        let before = try damagedCatalog(location)
        #expect {
            try location.container(Schema(versionedSchema: CatalogV3.self), migrationPlan: CatalogPlan.self)
        } throws: { error in
            // The stage is named, but the fix is the store's, not the stage's.
            saysDamaged(error, location) && ((error as? SwiftDataError)?.reason ?? "").contains("migration stage 1")
                && (error as? SwiftDataError)?.suggestion?.contains("Fix the stage") == false
        }
        #expect(try Data(contentsOf: location.store()) == before)
    }

    @Test func aStoreLockedPastTheWaitIsNamedAndLeftToTheProcessHoldingIt() throws {
        let races = ProcessRaceTests()
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(try ProcessRaceTests.Child(["tally-v1", store.path, "-", "100"]).finish().status == 0)
        // The first process migrates the store and holds its write lock inside the migration until released.
        let holder = try ProcessRaceTests.Child(["tally-v2", store.path, "paused"])
        try races.waitForPause(store)
        // The second waits a second for the lock, then gives up.
        let impatient = try ProcessRaceTests.Child(["tally-v2", store.path, "impatient"]).finish()
        races.release(store)
        let held = try holder.finish()
        #expect(impatient.status != 0)
        #expect(impatient.errors.contains(store.path), "\(impatient.errors)")
        #expect(impatient.errors.contains("held the write lock"), "\(impatient.errors)")
        #expect(impatient.errors.contains("then open the store again"), "\(impatient.errors)")
        #expect(held.status == 0, "\(held.errors)")
        #expect(held.output == "100 700 100 labels\n", "the holder migrated the store whole")
        let again = try ProcessRaceTests.Child(["tally-v2", store.path, "free"]).finish()
        #expect(again.output == "100 700 100 labels\n", "\(again.errors)")
    }
}
