import Foundation
import PostgresTestSupport
import SharedTestModels
import SwiftData
import TestProcessSupport
import Testing

@testable import SwiftDataPostgres

/// A PostgreSQL store whose lock another session holds past the wait: opening it fails with an error that names the
/// store and what to do, instead of waiting without end, and leaves it untouched.
@Suite struct PostgresMigrationLockTests {
    @Test(arguments: StoreKind.all.filter { $0 == .postgres })
    func aStoreLockedPastTheWaitIsNamed(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Schema([Visit.self]))
        // Another session holds the lock a creating or migrating instance holds.
        let holder = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        _ = try holder.execute("SELECT pg_advisory_lock(hashtext('swiftdata:\(location.postgresSchema)'))")
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess")
        child.arguments = ["open-impatient", try PostgresTestServer.shared().url]
        child.environment = RunningChild.environment().merging(
            ["SWIFTDATA_POSTGRES_SCHEMA": location.postgresSchema], uniquingKeysWith: { $1 })
        let result = try RunningChild(child).finish(timeout: 120)
        _ = try holder.execute("SELECT pg_advisory_unlock_all()")
        #expect(result.status != 0)
        #expect(
            result.errors.contains("held a lock on the store in the PostgreSQL schema '\(location.postgresSchema)'"))
        #expect(result.errors.contains("then open the store again"), "\(result.errors)")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Visit>()) == 0)
    }

    /// A custom stage waits for rows that another session holds locked (here, a session left in a transaction that
    /// selected them `FOR UPDATE`; one that wrote them holds the table, which the migration waits for before any
    /// stage); past the wait, the error names the store and the lock, not the stage, and the store stays at its old
    /// version.
    @Test(arguments: StoreKind.all.filter { $0 == .postgres })
    func aLockHeldPastTheWaitInsideAMigrationStageIsNamed(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(Schema(versionedSchema: TallySchemaV1.self)))
            for index in 0..<3 { context.insert(TallyV1.Tally(name: "t\(index)")) }
            try context.save()
        }
        let holder = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        _ = try holder.execute(
            "BEGIN; SELECT 1 FROM \"\(location.postgresSchema)\".\"Tally\" WHERE \"name\" = 't1' FOR UPDATE")
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess")
        child.arguments = ["migrate-tallies-impatient", try PostgresTestServer.shared().url]
        child.environment = RunningChild.environment().merging(
            ["SWIFTDATA_POSTGRES_SCHEMA": location.postgresSchema], uniquingKeysWith: { $1 })
        let result = try RunningChild(child).finish(timeout: 120)
        _ = try holder.execute("ROLLBACK")
        #expect(result.status != 0)
        #expect(
            result.errors.contains("held a lock on the store in the PostgreSQL schema '\(location.postgresSchema)'"),
            "\(result.errors)")
        #expect(result.errors.contains("migration stage 1 (1.0.0 to 2.0.0)"), "\(result.errors)")
        #expect(result.errors.contains("then open the store again"), "\(result.errors)")
        #expect(!result.errors.contains("Fix the stage"), "\(result.errors)")
        let context = ModelContext(try location.container(Schema(versionedSchema: TallySchemaV1.self)))
        #expect(try context.fetch(FetchDescriptor<TallyV1.Tally>()).map(\.name).sorted() == ["t0", "t1", "t2"])
    }
}
