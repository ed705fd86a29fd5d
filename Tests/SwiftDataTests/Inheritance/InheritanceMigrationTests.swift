import Foundation
import SwiftData
import Testing

/// Lightweight migrations of a hierarchy's table: adding a subclass, adding properties to one level; on every
/// store (`StoreKind`).
@Suite("Model inheritance: migrations")
struct InheritanceMigrationTests {
    /// A version 1 store with two trips.
    private func version1(_ directory: StoreLocation) throws {
        let context = ModelContext(try makeContainer(TripsV1.Trip.self, in: directory))
        context.insert(TripsV1.Trip(name: "Rome"))
        context.insert(TripsV1.Trip(name: "Oslo"))
        try context.save()
    }

    /// The columns of a table of the store in `directory`.
    private func columns(_ table: String, _ directory: StoreLocation) throws -> [String] {
        let container = try makeContainer(TripsV3.Trip.self, TripsV3.BusinessTrip.self, in: directory)
        return try directory.columnNames(of: table, container: container)
    }

    @Test(arguments: StoreKind.all) func addingASubclassKeepsTheStoredModels(store: StoreKind) throws {
        let directory = store.location()
        try version1(directory)
        let context = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
        let trips = try context.fetch(FetchDescriptor<TripsV2.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Rome"])
        #expect(trips.allSatisfy { type(of: $0) == TripsV2.Trip.self }, "stored rows are of the class they were")
        context.insert(TripsV2.BusinessTrip(name: "Berlin", company: "Acme"))
        try context.save()
        let fresh = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
        #expect(try fresh.fetchCount(FetchDescriptor<TripsV2.Trip>()) == 3)
        #expect(try fresh.fetch(FetchDescriptor<TripsV2.BusinessTrip>()).map(\.company) == ["Acme"])
    }

    @Test(arguments: StoreKind.all) func addingPropertiesToEachLevel(store: StoreKind) throws {
        let directory = store.location()
        try version1(directory)
        do {
            let context = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
            context.insert(TripsV2.BusinessTrip(name: "Berlin", company: "Acme"))
            try context.save()
        }
        let context = ModelContext(try makeContainer(TripsV3.Trip.self, TripsV3.BusinessTrip.self, in: directory))
        let trips = try context.fetch(FetchDescriptor<TripsV3.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Berlin", "Oslo", "Rome"])
        #expect(trips.map(\.notes) == [nil, nil, nil])
        let business = try #require(trips.first as? TripsV3.BusinessTrip)
        #expect(business.company == "Acme" && business.perDiem == 50, "the added property takes its default")
        #expect(Set(try columns("Trip", directory)).isSuperset(of: ["_entity", "name", "notes", "company", "perDiem"]))
        #expect(try !columns("BusinessTrip", directory).contains("company"), "no table of its own")
    }

    @Test(arguments: StoreKind.all) func aRequiredSubclassPropertyNeedsNoValueWithoutModelsOfIt(store: StoreKind) throws
    {
        let directory = store.location()
        try version1(directory)
        // The store has trips but no business trips: the new required properties cannot be missing anywhere.
        let context = ModelContext(
            try makeContainer(TripsV3Required.Trip.self, TripsV3Required.BusinessTrip.self, in: directory))
        #expect(try context.fetchCount(FetchDescriptor<TripsV3Required.Trip>()) == 2)
    }

    @Test(arguments: StoreKind.all) func aRequiredSubclassPropertyIsRefusedWhenModelsOfItAreStored(store: StoreKind)
        throws
    {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
            context.insert(TripsV2.BusinessTrip(name: "Berlin", company: "Acme"))
            try context.save()
        }
        #expect {
            _ = try makeContainer(TripsV3Required.Trip.self, TripsV3Required.BusinessTrip.self, in: directory)
        } throws: { error in
            let error = error as? SwiftDataError
            return error?.modelName == "BusinessTrip" && error?.propertyName == "approver"
        }
        // Nothing changed: the old models still open the store.
        let context = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
        #expect(try context.fetch(FetchDescriptor<TripsV2.BusinessTrip>()).map(\.company) == ["Acme"])
    }

    @Test(arguments: StoreKind.all) func aStoreWithModelsOfASubclassTheContainerLacksIsRefused(store: StoreKind) throws
    {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(TripsV2.Trip.self, TripsV2.BusinessTrip.self, in: directory))
            context.insert(TripsV2.BusinessTrip(name: "Berlin", company: "Acme"))
            try context.save()
        }
        #expect {
            _ = try makeContainer(TripsV2.Trip.self, in: directory)
        } throws: { error in
            (error as? SwiftDataError)?.modelName == "BusinessTrip"
        }
    }
}
