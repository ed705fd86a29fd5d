import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Unique constraints turn inserts of existing values into updates (upserts), as Apple's do.
@Suite struct UniquenessTests {
    @Test(arguments: StoreKind.withPooler) func insertingAnExistingValueUpdatesTheStoredModel(store: StoreKind) throws {
        let container = try store.makeContainer(Country.self)
        let context = ModelContext(container)
        let france = Country(code: "FR", name: "France")
        context.insert(france)
        try context.save()
        let storedID = france.persistentModelID

        let renamed = Country(code: "FR", name: "République française")
        context.insert(renamed)
        try context.save()
        #expect(renamed.persistentModelID == storedID, "the new model takes the stored row's identity")
        #expect(renamed.modelContext === context)
        #expect(france.modelContext == nil, "the context's older object for the row is replaced")
        let stored = try ModelContext(container).fetch(FetchDescriptor<Country>())
        #expect(stored.map(\.name) == ["République française"], "last write wins")
    }

    @Test(arguments: StoreKind.withPooler) func aStoredModelCanReferToANewModelThatUpserts(store: StoreKind) throws {
        let container = try store.makeContainer(Country.self)
        let context = ModelContext(container)
        let paris = City(name: "Paris")
        context.insert(Country(code: "FR", name: "France"))
        context.insert(paris)
        try context.save()

        let renamed = Country(code: "FR", name: "République française")
        context.insert(renamed)
        paris.country = renamed
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Country>()).map(\.name) == ["République française"])
        let city = try #require(try fresh.fetch(FetchDescriptor<City>()).first)
        #expect(city.country?.name == "République française", "the stored city refers to the surviving row")
        #expect(city.country?.persistentModelID == renamed.persistentModelID)
    }

    @Test(arguments: StoreKind.withPooler) func duplicatesInOneSaveBecomeOneModel(store: StoreKind) throws {
        let container = try store.makeContainer(Country.self)
        let context = ModelContext(container)
        let first = Country(code: "DE", name: "Germany")
        let second = Country(code: "DE", name: "Deutschland")
        first.cities = [City(name: "Berlin")]
        second.cities = [City(name: "Hamburg")]
        context.insert(first)
        context.insert(second)
        try context.save()
        #expect(first.modelContext == nil && second.modelContext === context)
        let fresh = ModelContext(container)
        let countries = try fresh.fetch(FetchDescriptor<Country>())
        #expect(countries.map(\.name) == ["Deutschland"])
        #expect(
            countries.first?.cities.map(\.name).sorted() == ["Berlin", "Hamburg"],
            "members of the duplicate's one-to-many relationships join the surviving model")
    }

    @Test(arguments: StoreKind.withPooler) func compoundAndRelationshipConstraints(store: StoreKind) throws {
        let container = try store.makeContainer(Seat.self)
        let context = ModelContext(container)
        context.insert(Seat(row: "A", number: 1, price: 10))
        context.insert(Seat(row: "A", number: 2, price: 10))
        try context.save()
        context.insert(Seat(row: "A", number: 1, price: 25))
        try context.save()
        let seats = try ModelContext(container).fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.number)]))
        #expect(seats.map(\.price) == [25, 10])

        let ticket = Ticket(code: "T1")
        let held = Seat(row: "B", number: 1)
        held.holder = ticket
        context.insert(held)
        try context.save()
        let moved = Seat(row: "B", number: 1, price: 99)
        moved.holder = ticket
        context.insert(moved)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Seat>()) == 3)
        let constraints = try #require(container.schema.entitiesByName["Seat"]?.uniquenessConstraints)
        #expect(constraints == [["row", "number"], ["holder"]])
    }

    @Test(arguments: StoreKind.withPooler) func changingAValueToAnExistingOneIsAnError(store: StoreKind) throws {
        let container = try store.makeContainer(Country.self)
        let context = ModelContext(container)
        let spain = Country(code: "ES", name: "Spain")
        let italy = Country(code: "IT", name: "Italy")
        context.insert(spain)
        context.insert(italy)
        try context.save()
        italy.code = "ES"
        #expect {
            try context.save()
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .modelValidationFailure
                && (error.storeMessage ?? "").contains(
                    store == .sqlite
                        ? "UNIQUE constraint failed: Country.code"
                        : #"violates unique constraint "Country_unique_code""#)
        }
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<Country>(sortBy: [SortDescriptor(\.code)])).map(\.code)
                == ["ES", "IT"])
    }

    @Test(arguments: StoreKind.withPooler) func nilValuesNeverCollide(store: StoreKind) throws {
        let container = try store.makeContainer(Seat.self)
        let context = ModelContext(container)
        context.insert(Seat(row: "C", number: 1))
        context.insert(Seat(row: "C", number: 2))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Seat>()) == 2, "two seats without a holder")
    }

    @Test(arguments: StoreKind.withPooler) func aSaveOfManyModelsUpsertsByEitherConstraintInOneLookupEach(
        store: StoreKind
    )
        throws
    {
        let container = try store.makeContainer(Seat.self, Ticket.self)
        let context = ModelContext(container)
        for number in 1...5 { context.insert(Seat(row: "A", number: number, price: 1)) }
        let (first, second) = (Ticket(code: "T1"), Ticket(code: "T2"))
        let held = Seat(row: "B", number: 1, price: 2)
        held.holder = first
        context.insert(held)
        let alsoHeld = Seat(row: "B", number: 2, price: 2)
        alsoHeld.holder = second
        context.insert(alsoHeld)
        try context.save()
        let heldID = held.persistentModelID

        let log = StatementLog(container)
        // Two match by row and number, two by holder, two are new, and one duplicates a new one in the same save.
        let byHolder = Seat(row: "Z", number: 1, price: 50)
        byHolder.holder = first
        let alsoByHolder = Seat(row: "Z", number: 2, price: 60)
        alsoByHolder.holder = second
        for seat in [
            Seat(row: "A", number: 1, price: 10), Seat(row: "A", number: 3, price: 30), byHolder, alsoByHolder,
            Seat(row: "C", number: 1, price: 70), Seat(row: "C", number: 2), Seat(row: "C", number: 1, price: 71),
        ] {
            context.insert(seat)
        }
        try context.save()
        #expect(byHolder.persistentModelID == heldID, "the model matching by holder takes that row's identity")
        let seats = try ModelContext(container).fetch(
            FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.row), SortDescriptor(\.number)]))
        #expect(
            seats.map { "\($0.row)\($0.number):\($0.price)" } == [
                "A1:10", "A2:1", "A3:30", "A4:1", "A5:1", "C1:71", "C2:0", "Z1:50", "Z2:60",
            ])
        #expect(seats.first { $0.row == "Z" && $0.number == 1 }?.holder?.code == "T1")
        if store == .sqlite {
            let lookups = log.statements.filter { $0.hasPrefix("WITH v(") }
            #expect(lookups.count == 2, "one lookup per unique constraint for the whole save: \(lookups)")
        }
    }

    @Test(arguments: StoreKind.withPooler) func aNewModelMatchingTwoStoredModelsOnDifferentConstraintsIsAnError(
        store: StoreKind
    ) throws {
        let container = try store.makeContainer(Seat.self, Ticket.self)
        let context = ModelContext(container)
        let ticket = Ticket(code: "T1")
        let held = Seat(row: "B", number: 1, price: 2)
        held.holder = ticket
        context.insert(Seat(row: "A", number: 1, price: 1))
        context.insert(held)
        try context.save()

        context.insert(Seat(row: "D", number: 1, price: 5))
        let both = Seat(row: "A", number: 1, price: 9)
        both.holder = ticket
        context.insert(both)
        #expect {
            try context.save()
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .modelValidationFailure
                && (error.reason ?? "").contains("matches two stored models on different unique constraints")
        }
        let seats = try ModelContext(container).fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.row)]))
        #expect(seats.map { "\($0.row)\($0.number):\($0.price)" } == ["A1:1", "B1:2"], "nothing was written")
    }
}
