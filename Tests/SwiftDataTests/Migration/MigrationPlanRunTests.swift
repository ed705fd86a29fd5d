import Foundation
import SwiftData
import SwiftDataCore
import Synchronization
import Testing

/// Core's part of running a migration plan, on a store that only records what it is asked: which version it is at,
/// which stages run in which order, and the contexts the custom stages get. A store of any kind reuses all of it.
@Suite struct MigrationPlanRunTests {
    enum V1: VersionedSchema {
        static var models: [any PersistentModel.Type] { [Counter.self] }
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    }
    enum V2: VersionedSchema {
        static var models: [any PersistentModel.Type] { [Counter.self] }
        static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    }
    enum V3: VersionedSchema {
        static var models: [any PersistentModel.Type] { [Counter.self] }
        static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    }

    /// What the stages' closures saw.
    static let seen = Mutex<[String]>([])

    enum Plan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
        static var stages: [MigrationStage] {
            [
                .lightweight(fromVersion: V1.self, toVersion: V2.self),
                .custom(
                    fromVersion: V2.self, toVersion: V3.self,
                    willMigrate: { context in
                        let version = context.container.schema.version
                        seen.withLock { $0.append("will \(version)") }
                        context.insert(Counter(label: "from the stage"))
                    },
                    didMigrate: { context in
                        let counters = try context.fetch(FetchDescriptor<Counter>()).map(\.label)
                        let version = context.container.schema.version
                        seen.withLock { $0.append("did \(version): \(counters)") }
                    }),
                .lightweight(fromVersion: V3.self, toVersion: V1.self),
            ]
        }
    }

    /// A store that records the versions its tables were migrated to, and gives stages a store of snapshots.
    struct RecordingStore: SchemaMigrationTarget {
        var matches: [Schema.Version: RecordedTablesMatch]
        var migrated: [Schema.Version] = []
        let box = SnapshotBox()

        func recordedTables(match schema: Schema) -> RecordedTablesMatch { matches[schema.version] ?? .different }

        mutating func migrateTables(to schema: Schema) throws { migrated.append(schema.version) }

        // Core's lightweight rules (tested in SchemaDiffTests) are not asked for: migrateTables above replaces them.
        var recorded = StoredSchema(entities: [])
        func storage(of attribute: Schema.Attribute) -> String { "value" }
        func acceptsNoValue(storage: String) -> Bool { false }
        func rowCount(of table: String) throws -> Int64 { 0 }
        func nilCount(of table: String, column: String) throws -> Int64 { 0 }
        func columnNames(of table: String) throws -> [String] { [] }
        func hasTable(_ table: String) throws -> Bool { false }
        func duplicates(in table: String, columns: [String]) throws -> [String] { [] }
        mutating func createTable(for entity: Schema.Entity) throws {}
        mutating func migrateTable(_ migration: EntityMigration) throws {}
        mutating func createIndexes(of entity: Schema.Entity) throws {}

        func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
            var configuration = MemorySnapshotConfiguration(box: box)
            configuration.schema = schema
            let store = try MemorySnapshotStore(configuration, migrationPlan: nil)
            configuration.schema = nil
            return (configuration, try SnapshotStoreAdapter(store, configurationName: "stage"))
        }
    }

    @Test func aStoresVersionIsThePlanVersionItsTablesMatch() {
        let v1 = Schema.Version(1, 0, 0)
        let v2 = Schema.Version(2, 0, 0)
        let v3 = Schema.Version(3, 0, 0)
        func version(_ matches: [Schema.Version: RecordedTablesMatch], recorded: Schema.Version?) -> Schema.Version? {
            MigrationPlanRun.storeVersion(recorded: recorded, in: Plan.self, target: RecordingStore(matches: matches))
        }
        #expect(version([v1: .exact, v2: .exact], recorded: nil) == v1, "the earliest of the exact matches")
        #expect(version([v1: .exact, v2: .exact], recorded: v2) == v2, "the recorded version among them")
        #expect(version([v2: .contained(entities: 1), v3: .exact], recorded: v1) == v3, "an exact match first")
        #expect(version([v1: .contained(entities: 1), v2: .contained(entities: 2)], recorded: nil) == v2)
        #expect(version([:], recorded: v2) == v2, "no match: the recorded version, which the plan lists")
        #expect(version([:], recorded: Schema.Version(9, 0, 0)) == nil)
    }

    @Test func theFewestStagesRunInOrderWithContextsOnTheirModels() throws {
        Self.seen.withLock { $0 = [] }
        var store = RecordingStore(matches: [:])
        try MigrationPlanRun.run(Plan.self, from: Schema.Version(1, 0, 0), to: Schema.Version(3, 0, 0), on: &store)
        #expect(store.migrated == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(Self.seen.withLock { $0 } == ["will 2.0.0", "did 3.0.0: [\"from the stage\"]"])

        // A downgrade through the plan's own stage; no chain is an error that says which way.
        var back = RecordingStore(matches: [:])
        try MigrationPlanRun.run(Plan.self, from: Schema.Version(3, 0, 0), to: Schema.Version(1, 0, 0), on: &back)
        #expect(back.migrated == [Schema.Version(1, 0, 0)])
        #expect(
            MigrationPlanRun.chain(of: Plan.stages, from: Schema.Version(2, 0, 0), to: Schema.Version(1, 0, 0)) == [
                1, 2,
            ])
        #expect(throws: SwiftDataError.unknownSchema) {
            var unknown = RecordingStore(matches: [:])
            try MigrationPlanRun.run(
                Plan.self, from: Schema.Version(7, 0, 0), to: Schema.Version(1, 0, 0), on: &unknown)
        }
    }
}
