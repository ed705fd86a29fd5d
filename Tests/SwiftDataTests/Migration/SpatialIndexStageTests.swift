import Foundation
import SwiftData
import Synchronization
import Testing

/// A model with an `.rtree` index of a column whose name holds an `_`, whose index older stores named otherwise.
enum SpatialStageV1: VersionedSchema {
    static var models: [any PersistentModel.Type] { [Pin.self] }
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }

    @Model final class Pin {
        #Index<Pin>(.rtree([\.x_y]))
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // A name with `_`, on purpose: its index had another name in older stores.
        var x_y: Double
        init(x_y: Double) { self.x_y = x_y }
    }
}

/// The same model, beside a new one: the stage leaves the model's table, and its index, as they are.
enum SpatialStageV2: VersionedSchema {
    static var models: [any PersistentModel.Type] { [Pin.self, Tag.self] }
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }

    @Model final class Pin {
        #Index<Pin>(.rtree([\.x_y]))
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // A name with `_`, on purpose: its index had another name in older stores.
        var x_y: Double
        init(x_y: Double) { self.x_y = x_y }
    }

    @Model final class Tag {
        var value: Double
        init(value: Double) { self.value = value }
    }
}

/// A custom stage whose closures fetch with a predicate the `.rtree` index serves, and record what they found.
enum SpatialStagePlan: SchemaMigrationPlan {
    static let found = Mutex<[String]>([])

    static var schemas: [any VersionedSchema.Type] { [SpatialStageV1.self, SpatialStageV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: SpatialStageV1.self, toVersion: SpatialStageV2.self,
                willMigrate: { context in
                    let pins = try context.fetch(
                        FetchDescriptor(
                            predicate: #Predicate<SpatialStageV1.Pin> { $0.x_y > 1.5 }, sortBy: [SortDescriptor(\.x_y)]
                        ))
                    found.withLock { $0.append("will: \(pins.map(\.x_y))") }
                },
                didMigrate: { context in
                    let pins = try context.fetch(
                        FetchDescriptor(
                            predicate: #Predicate<SpatialStageV2.Pin> { $0.x_y > 1.5 }, sortBy: [SortDescriptor(\.x_y)]
                        ))
                    for pin in pins { context.insert(SpatialStageV2.Tag(value: pin.x_y)) }
                    found.withLock { $0.append("did: \(pins.map(\.x_y))") }
                })
        ]
    }
}

/// A migration stage's fetch bounded by an `.rtree` index, on a store that holds the index under the name older
/// stores gave it.
@Suite(.serialized) struct SpatialIndexStageTests {
    /// Before, the stage's fetches failed with "no such table": the stage's store looked for the index under its new
    /// name, which the store gets only once the migration is done. The stage leaves the model's table as it is, so
    /// both `willMigrate` and `didMigrate` meet the index under its old name.
    @Test func aStageFetchesThroughAnIndexUnderItsOldName() throws {
        let location = StoreKind.sqlite.location()
        do {
            let context = ModelContext(try location.container(Schema(versionedSchema: SpatialStageV1.self)))
            for value in [1.0, 2, 3] { context.insert(SpatialStageV1.Pin(x_y: value)) }
            try context.save()
        }
        // The index as older stores made it.
        _ = try sqlite(
            location.store(),
            """
            DROP TRIGGER "3Pin5rtree3x_y_insert"; DROP TRIGGER "3Pin5rtree3x_y_update";
            DROP TRIGGER "3Pin5rtree3x_y_delete"; DROP TABLE "3Pin5rtree3x_y";
            CREATE VIRTUAL TABLE "Pin_rtree_x_y" USING rtree("id", "x_y_min", "x_y_max");
            INSERT INTO "Pin_rtree_x_y" SELECT "_pk", coalesce("x_y", -9e999), coalesce("x_y", 9e999) FROM "Pin";
            CREATE TRIGGER "Pin_rtree_x_y_insert" AFTER INSERT ON "Pin" BEGIN
            INSERT INTO "Pin_rtree_x_y" VALUES (new."_pk", coalesce(new."x_y", -9e999), coalesce(new."x_y", 9e999));
            END;
            """)
        SpatialStagePlan.found.withLock { $0 = [] }
        let container = try location.container(
            Schema(versionedSchema: SpatialStageV2.self), migrationPlan: SpatialStagePlan.self)
        #expect(SpatialStagePlan.found.withLock { $0 } == ["will: [2.0, 3.0]", "did: [2.0, 3.0]"])
        let tags = try ModelContext(container).fetch(
            FetchDescriptor<SpatialStageV2.Tag>(sortBy: [SortDescriptor(\.value)]))
        #expect(tags.map(\.value) == [2, 3])
        let tables = try sqlite(
            location.store(), "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
        #expect(tables == "3Pin5rtree3x_y\n", "the index has its name once the store is migrated")
        let bounded = try ModelContext(container).fetch(
            FetchDescriptor(predicate: #Predicate<SpatialStageV2.Pin> { $0.x_y < 2.5 }))
        #expect(bounded.count == 2)
    }
}
