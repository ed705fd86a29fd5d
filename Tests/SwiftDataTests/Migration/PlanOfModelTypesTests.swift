import Foundation
import SwiftData
import Testing

// Apple's documented way to open a versioned store ("Model your schema with SwiftData", WWDC23):
// `ModelContainer(for: CurrentTrip.self, migrationPlan: RoadTripsMigrationPlan.self)`, with model types rather than
// `Schema(versionedSchema:)`, and the plan's first version numbered 1.0.0, as most apps number it.

enum RoadTripsV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        var destination: String
        init(name: String, destination: String) {
            self.name = name
            self.destination = destination
        }
    }
}

enum RoadTripsV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        @Attribute(originalName: "destination") var place: String
        init(name: String, place: String) {
            self.name = name
            self.place = place
        }
    }
}

enum RoadTripsV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        var place: String
        var nameLength = 0
        init(name: String, place: String) {
            self.name = name
            self.place = place
        }
    }
}

enum RoadTripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [RoadTripsV1.self, RoadTripsV2.self, RoadTripsV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: RoadTripsV1.self, toVersion: RoadTripsV2.self)
    static let migrateV2toV3 = MigrationStage.custom(
        fromVersion: RoadTripsV2.self, toVersion: RoadTripsV3.self, willMigrate: nil,
        didMigrate: { context in
            for trip in try context.fetch(FetchDescriptor<RoadTripsV3.Trip>()) { trip.nameLength = trip.name.count }
            try context.save()
        })
}

/// The app's current model, as an app names it.
typealias CurrentTrip = RoadTripsV3.Trip

@Suite struct PlanOfModelTypesTests {
    /// A store written by version 1 of the app, which had no plan yet.
    static func versionOneStore(at url: URL) throws {
        let container = try ModelContainer(for: RoadTripsV1.Trip.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(RoadTripsV1.Trip(name: "Honeymoon", destination: "Kyoto"))
        context.insert(RoadTripsV1.Trip(name: "Ski", destination: "Zermatt"))
        try context.save()
    }

    @Test func modelTypesOpenAVersionOneStoreAtTheLatestVersion() throws {
        let directory = TemporaryDirectory()
        let url = directory.store()
        try Self.versionOneStore(at: url)

        let container = try ModelContainer(
            for: CurrentTrip.self, migrationPlan: RoadTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(container.schema.version == Schema.Version(3, 0, 0))
        let trips = try ModelContext(container).fetch(FetchDescriptor<CurrentTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.place) == ["Kyoto", "Zermatt"], "the rename of stage 1 ran")
        #expect(trips.map(\.nameLength) == [9, 3], "stage 2's didMigrate ran")

        // Opening it again runs nothing more.
        let again = try ModelContainer(
            for: CurrentTrip.self, migrationPlan: RoadTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(again).fetchCount(FetchDescriptor<CurrentTrip>()) == 2)
    }

    @Test func modelTypesOfAMiddleVersionMigrateOnlyThatFar() throws {
        let directory = TemporaryDirectory()
        let url = directory.store()
        try Self.versionOneStore(at: url)
        let container = try ModelContainer(
            for: RoadTripsV2.Trip.self, migrationPlan: RoadTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(container.schema.version == Schema.Version(2, 0, 0))
        let places = try ModelContext(container).fetch(FetchDescriptor<RoadTripsV2.Trip>()).map(\.place).sorted()
        #expect(places == ["Kyoto", "Zermatt"])
    }

    /// The same through a schema of model types, on each store.
    @Test(arguments: StoreKind.all) func aSchemaOfModelTypesMigratesOnEachStore(store: StoreKind) throws {
        let location = store.location()
        do {
            let container = try location.container(Schema(versionedSchema: RoadTripsV1.self), migrationPlan: nil)
            let context = ModelContext(container)
            context.insert(RoadTripsV1.Trip(name: "Honeymoon", destination: "Kyoto"))
            try context.save()
        }
        let container = try location.container(Schema([CurrentTrip.self]), migrationPlan: RoadTripsMigrationPlan.self)
        let trip = try #require(try ModelContext(container).fetch(FetchDescriptor<CurrentTrip>()).first)
        #expect(trip.place == "Kyoto" && trip.nameLength == 9)
    }

    /// Models that match no version of the plan keep their own version.
    @Test func modelsOfNoVersionKeepTheirVersion() throws {
        let container = try ModelContainer(
            for: UnversionedTrip.self, migrationPlan: RoadTripsMigrationPlan.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(container.schema.version == Schema.Version(1, 0, 0))
    }
}

@Model final class UnversionedTrip {
    var name: String
    init(name: String) { self.name = name }
}
