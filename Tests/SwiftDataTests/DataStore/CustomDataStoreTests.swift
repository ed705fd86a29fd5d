import Foundation
import SwiftData
import Testing

@testable import ExampleModels

/// A store written against Apple's custom store API (the `jsonstore` example's `JSONStore`, which keeps every model
/// in a JSON file and leaves predicates and sorts to the context), used as an app uses SwiftData.
@Suite struct CustomDataStoreTests {
    let directory = TemporaryDirectory()
    var file: URL { directory.url.appendingPathComponent("trips.json") }

    func container(_ types: any PersistentModel.Type...) throws -> ModelContainer {
        let types = types.isEmpty ? [Trip.self, BucketListItem.self] : types
        return try ModelContainer(
            for: Schema(types), configurations: [JSONStoreConfiguration(name: "Trips", fileURL: file)])
    }

    func day(_ day: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(day) * 86_400) }

    /// Three trips, two with bucket lists, saved in one save.
    func insertTrips(_ context: ModelContext) throws {
        let tokyo = Trip(name: "Tokyo", destination: "Japan", startDate: day(30), endDate: day(40))
        let lisbon = Trip(name: "Lisbon", destination: "Portugal", startDate: day(10), endDate: day(12))
        let oslo = Trip(name: "Oslo", destination: "Norway", startDate: day(20), endDate: day(25))
        context.insert(tokyo)
        context.insert(lisbon)
        context.insert(oslo)
        tokyo.bucketList = [BucketListItem(title: "Climb Mount Fuji"), BucketListItem(title: "Eat sushi")]
        lisbon.bucketList.append(BucketListItem(title: "Ride tram 28"))
        try context.save()
    }

    @Test func createReadUpdateDeleteAcrossContextsAndReopening() throws {
        do {
            let context = ModelContext(try container())
            try insertTrips(context)
        }
        #expect(FileManager.default.fileExists(atPath: file.path))
        let container = try container()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Lisbon", "Oslo", "Tokyo"])
        #expect(trips[2].bucketList.map(\.title) == ["Climb Mount Fuji", "Eat sushi"], "to-many order is kept")
        #expect(trips[2].bucketList.allSatisfy { $0.trip === trips[2] }, "inverses resolve to the same objects")
        #expect(trips[1].bucketList.isEmpty)

        trips[0].destination = "Portugal (Lisboa)"
        trips[2].bucketList[1].isDone = true
        context.delete(trips[1])
        try context.save()

        let reopened = ModelContext(try self.container())
        let again = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(again.map(\.name) == ["Lisbon", "Tokyo"])
        #expect(again[0].destination == "Portugal (Lisboa)")
        #expect(again[1].bucketList.map(\.isDone) == [false, true])
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 3)
    }

    @Test func relationshipsChangeOnBothSidesAndCascade() throws {
        let context = ModelContext(try container())
        try insertTrips(context)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let (lisbon, oslo, tokyo) = (trips[0], trips[1], trips[2])
        // An item moves from Tokyo to Oslo through its to-one side; a new one joins Lisbon through the array.
        let fuji = tokyo.bucketList[0]
        fuji.trip = oslo
        lisbon.bucketList.insert(BucketListItem(title: "Eat pastéis"), at: 0)
        try context.save()

        let fresh = ModelContext(try container())
        let byName = Dictionary(
            uniqueKeysWithValues: try fresh.fetch(FetchDescriptor<Trip>()).map { ($0.name, $0) })
        #expect(byName["Tokyo"]?.bucketList.map(\.title) == ["Eat sushi"])
        #expect(byName["Oslo"]?.bucketList.map(\.title) == ["Climb Mount Fuji"])
        #expect(byName["Lisbon"]?.bucketList.map(\.title) == ["Eat pastéis", "Ride tram 28"])
        let items = try fresh.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map { $0.trip?.name } == ["Oslo", "Lisbon", "Tokyo", "Lisbon"])

        // Deleting a trip deletes its bucket list (.cascade).
        fresh.delete(byName["Lisbon"]!)
        try fresh.save()
        let last = ModelContext(try container())
        #expect(
            try last.fetch(FetchDescriptor<BucketListItem>()).map(\.title).sorted() == [
                "Climb Mount Fuji", "Eat sushi",
            ])
        #expect(try last.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func predicatesSortsAndWindowsRunInMemory() throws {
        let context = ModelContext(try container())
        try insertTrips(context)
        let fresh = ModelContext(try container())
        let after = day(15)
        let upcoming = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.endDate > after }, sortBy: [SortDescriptor(\.endDate, order: .reverse)])
        #expect(try fresh.fetch(upcoming).map(\.name) == ["Tokyo", "Oslo"])
        #expect(try fresh.fetchCount(upcoming) == 2)

        var page = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        page.fetchOffset = 1
        page.fetchLimit = 1
        #expect(try fresh.fetch(page).map(\.name) == ["Oslo"])

        // A predicate through a relationship, and one over a to-many relationship.
        let inTokyo = try fresh.fetch(
            FetchDescriptor<BucketListItem>(
                predicate: #Predicate { $0.trip?.name == "Tokyo" }, sortBy: [SortDescriptor(\.title)]))
        #expect(inTokyo.map(\.title) == ["Climb Mount Fuji", "Eat sushi"])
        let planned = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { !$0.bucketList.isEmpty }))
        #expect(Set(planned.map(\.name)) == ["Tokyo", "Lisbon"])
        #expect(
            try fresh.fetchIdentifiers(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" })).count == 1)

        // Unsaved changes take part.
        fresh.insert(Trip(name: "Rome", destination: "Italy", startDate: day(50), endDate: day(55)))
        #expect(try fresh.fetch(upcoming).map(\.name) == ["Rome", "Tokyo", "Oslo"])
    }

    @Test func newModelsTakeTheStoresPermanentIdentifiers() throws {
        let container = try container()
        let context = ModelContext(container)
        let trip = Trip(name: "Tokyo", destination: "Japan", startDate: day(1), endDate: day(2))
        context.insert(trip)
        let item = BucketListItem(title: "Eat sushi", trip: trip)
        #expect(trip.persistentModelID.isTemporary && item.persistentModelID.isTemporary)
        try context.save()

        let id = trip.persistentModelID
        #expect(!id.isTemporary)
        #expect(id.storeIdentifier == "trips.json")
        #expect(id.entityName == "Trip")
        // The identifier is the store's: the one in its file.
        let stored = try JSONStore(JSONStoreConfiguration(name: "Trips", fileURL: file), migrationPlan: nil).read()
        #expect(stored[id]?.persistentIdentifier == id)
        #expect(stored[item.persistentModelID] != nil)
        #expect(container.storeIdentifier(forConfigurationNamed: "Trips") == "trips.json")

        // Another context finds the models by their identifiers, and related ones refer to each other.
        let other = ModelContext(container)
        let found = try #require(other.model(for: id) as? Trip)
        #expect(found.name == "Tokyo")
        #expect(found.bucketList.first?.persistentModelID == item.persistentModelID)
        #expect(other.registeredModel(for: item.persistentModelID) as BucketListItem? != nil)
        let fetched = try other.fetchIdentifiers(FetchDescriptor<Trip>())
        #expect(fetched == [id])
        let byIdentifier = try other.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == id }))
        #expect(byIdentifier.map(\.name) == ["Tokyo"])
    }

    @Test func eraseEmptiesTheStore() throws {
        let container = try container()
        try insertTrips(ModelContext(container))
        try container.erase()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).isEmpty)
        #expect(try ModelContext(try self.container()).fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }

    @Test func everyAttributeTypeRoundTripsThroughSnapshots() throws {
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)
        do {
            let context = ModelContext(try container(Sample.self))
            let sample = Sample()
            sample.bool = true
            sample.int = .min
            sample.uint64 = .max
            sample.double = -0.0
            sample.float = 3.25
            sample.decimal = Decimal(string: "12345678901234567890.123456789")!
            sample.string = "Grüße, 世界 🌍"
            sample.date = date
            sample.data = Data([0, 1, 2, 255])
            sample.uuid = uuid
            sample.url = URL(string: "https://example.com/a?b=c#d")!
            sample.mood = .grumpy
            sample.level = .high
            sample.address = Address(street: "1 Main St", city: "Springfield")
            sample.shape = .rectangle(width: 2, height: 3)
            sample.tags = ["a", "b"]
            sample.optionalDouble = .nan
            sample.optionalFloat = -.infinity
            sample.optionalDecimal = 1.5
            sample.optionalMood = .happy
            context.insert(sample)
            try context.save()
        }
        let sample = try #require(try ModelContext(try container(Sample.self)).fetch(FetchDescriptor<Sample>()).first)
        #expect(sample.bool && sample.int == .min && sample.uint64 == .max)
        #expect(sample.double == 0 && sample.double.sign == .minus, "-0.0 keeps its sign")
        #expect(sample.float == 3.25)
        #expect(sample.decimal == Decimal(string: "12345678901234567890.123456789")!)
        #expect(sample.string == "Grüße, 世界 🌍" && sample.date == date && sample.data == Data([0, 1, 2, 255]))
        #expect(sample.uuid == uuid && sample.url == URL(string: "https://example.com/a?b=c#d")!)
        #expect(sample.mood == .grumpy && sample.level == .high)
        #expect(sample.address == Address(street: "1 Main St", city: "Springfield"))
        #expect(sample.shape == .rectangle(width: 2, height: 3) && sample.tags == ["a", "b"])
        #expect(sample.optionalDouble?.isNaN == true && sample.optionalFloat == -.infinity)
        #expect(sample.optionalDecimal == 1.5 && sample.optionalMood == .happy)
        #expect(sample.optionalInt == nil && sample.optionalString == nil && sample.optionalAddress == nil)
    }

    @Test func aContainerMixesTheDefaultStoreAndAStoreOfYourOwn() throws {
        let container = try ModelContainer(
            for: Trip.self, BucketListItem.self, User.self,
            configurations: ModelConfiguration(schema: Schema([User.self]), url: directory.store("users")),
            JSONStoreConfiguration(name: "Trips", schema: Schema([Trip.self, BucketListItem.self]), fileURL: file))
        let context = ModelContext(container)
        context.insert(User(name: "Taylor", email: "taylor@example.com"))
        try insertTrips(context)
        #expect(container.configurations.map(\.name) == ["users"], "Apple's configurations lists ModelConfigurations")
        let reopened = ModelContext(
            try ModelContainer(for: User.self, configurations: ModelConfiguration(url: directory.store("users"))))
        #expect(try reopened.fetch(FetchDescriptor<User>()).map(\.name) == ["Taylor"])
        #expect(try ModelContext(try self.container()).fetchCount(FetchDescriptor<Trip>()) == 3)
    }

    @Test func aModelHierarchyIsRefusedWithAClearError() throws {
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema([Media.self, Movie.self]),
                configurations: [JSONStoreConfiguration(name: "Media", fileURL: file)])
        }
        #expect(error == SwiftDataError.loadIssueModelContainer)
        #expect(String(describing: error).contains("model hierarchy of Media"), "\(String(describing: error))")
    }
}
