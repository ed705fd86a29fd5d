import Foundation
import SwiftData
import Testing

/// Every save records one transaction per store it changed, with what it inserted, updated and deleted.
@Suite struct HistoryRecordingTests {
    @Test(arguments: StoreKind.all) func eachSaveIsOneTransactionWithItsAuthorAndChanges(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self, HistoryNote.self)
        let context = ModelContext(container)
        context.author = "app"
        let paris = HistoryTrip(name: "Paris", destination: "France")
        let note = HistoryNote(text: "pack")
        context.insert(paris)
        context.insert(note)
        try context.save()
        paris.destination = "Île-de-France"
        try context.save()
        context.author = nil
        context.delete(note)
        try context.save()

        let transactions = try history(container)
        #expect(transactions.count == 3)
        #expect(transactions.map(\.author) == ["app", "app", nil])
        #expect(
            transactions.map { $0.changes.map(\.summary) } == [
                ["insert HistoryTrip", "insert HistoryNote"], ["update HistoryTrip"], ["delete HistoryNote"],
            ])
        #expect(
            transactions[0].changes.map(\.changedPersistentIdentifier) == [
                paris.persistentModelID, transactions[2].changes[0].changedPersistentIdentifier,
            ])
        #expect(transactions.map(\.transactionIdentifier) == transactions.map(\.transactionIdentifier).sorted())
        #expect(transactions[0].token < transactions[1].token && transactions[1].token < transactions[2].token)
        #expect(Set(transactions.map(\.storeIdentifier)) == [try unwrap(paris.persistentModelID.storeIdentifier)])
        #expect(transactions.allSatisfy { $0.processIdentifier == String(ProcessInfo.processInfo.processIdentifier) })
        #expect(transactions.allSatisfy { !$0.bundleIdentifier.isEmpty })
        #expect(transactions.map(\.timestamp) == transactions.map(\.timestamp).sorted())
        guard case .update(let update as DefaultHistoryUpdate<HistoryTrip>) = transactions[1].changes.first else {
            Issue.record("the second transaction is not an update of a trip: \(transactions[1].changes)")
            return
        }
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\HistoryTrip.destination])
        #expect(update.containsAttribute(\.destination) && !update.containsAttribute(\.name))
        #expect(update.changedPersistentIdentifier == paris.persistentModelID)
        #expect(update.transactionIdentifier == transactions[1].transactionIdentifier)
    }

    @Test(arguments: StoreKind.all) func nothingIsRecordedForASaveWithoutChanges(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryNote.self)
        let context = ModelContext(container)
        try context.save()
        context.insert(HistoryNote(text: "a"))
        context.rollback()
        try context.save()
        #expect(try history(container).isEmpty)
    }

    @Test(arguments: StoreKind.all) func deletesRecordCascadesBatchDeletesAndPreservedValues(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self)
        let context = ModelContext(container)
        let start = Date(timeIntervalSinceReferenceDate: 1000)
        let rome = HistoryTrip(name: "Rome", destination: "Italy", startDate: start)
        rome.note = "by train"
        rome.bucketList = [HistoryBucketItem(title: "Colosseum"), HistoryBucketItem(title: "Pantheon")]
        let oslo = HistoryTrip(name: "Oslo", destination: "Norway")
        context.insert(rome)
        context.insert(oslo)
        try context.save()
        let romeID = rome.persistentModelID

        context.delete(rome)
        try context.save()
        try context.delete(model: HistoryTrip.self, where: #Predicate { $0.name == "Oslo" })
        try context.save()

        let transactions = try history(container)
        #expect(transactions.count == 3)
        let cascade = transactions[1].changes
        #expect(
            cascade.map(\.summary).sorted() == [
                "delete HistoryBucketItem", "delete HistoryBucketItem", "delete HistoryTrip",
            ])
        let tripDelete = cascade.compactMap { change -> DefaultHistoryDelete<HistoryTrip>? in
            if case .delete(let delete as DefaultHistoryDelete<HistoryTrip>) = change { return delete }
            return nil
        }.first
        #expect(tripDelete?.changedPersistentIdentifier == romeID)
        #expect(tripDelete?.tombstone[\.name] as? String == "Rome")
        #expect(tripDelete?.tombstone[\.startDate] as? Date == start)
        #expect(tripDelete?.tombstone[\.note] as? String == "by train")
        #expect(tripDelete?.tombstone[\.destination] == nil, "not preserved")
        #expect(tripDelete.map { Array($0.tombstone).count } == 3)
        let titles = cascade.compactMap { change -> String? in
            guard case .delete(let delete as DefaultHistoryDelete<HistoryBucketItem>) = change else { return nil }
            return delete.tombstone[\.title] as? String
        }
        #expect(titles.sorted() == ["Colosseum", "Pantheon"])

        let batch = transactions[2].changes
        #expect(batch.map(\.summary) == ["delete HistoryTrip"])
        guard case .delete(let osloDelete as DefaultHistoryDelete<HistoryTrip>) = batch.first else {
            Issue.record("the batch delete is not recorded")
            return
        }
        #expect(osloDelete.tombstone[\.name] as? String == "Oslo")
        #expect(osloDelete.tombstone[\.note] == nil, "a preserved nil reads as nil")
    }

    @Test(arguments: StoreKind.all) func relationshipChangesAreUpdatesOfBothSides(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self)
        let context = ModelContext(container)
        let trip = HistoryTrip(name: "Lima", destination: "Peru")
        let item = HistoryBucketItem(title: "Machu Picchu")
        context.insert(trip)
        context.insert(item)
        try context.save()
        trip.bucketList.append(item)
        try context.save()
        let changes = try history(container)[1].changes
        var updated: [String: [AnyKeyPath]] = [:]
        for change in changes {
            switch change {
            case .update(let update as DefaultHistoryUpdate<HistoryTrip>):
                updated["trip"] = update.updatedAttributes.map { $0 as AnyKeyPath }
            case .update(let update as DefaultHistoryUpdate<HistoryBucketItem>):
                updated["item"] = update.updatedAttributes.map { $0 as AnyKeyPath }
            default: Issue.record("unexpected change \(change.summary)")
            }
        }
        #expect(updated["trip"] == [\HistoryTrip.bucketList])
        #expect(updated["item"] == [\HistoryBucketItem.trip])
        #expect(changes.count == 2, "one change per model")
    }

    @Test(arguments: StoreKind.all) func clearedReferencesOfADeleteAreUpdates(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self)
        let context = ModelContext(container)
        let trip = HistoryTrip(name: "Cairo", destination: "Egypt")
        let hotel = HistoryAccommodation(placeName: "Nile Hotel")
        let boat = HistoryAccommodation(placeName: "Felucca")
        trip.accommodation = hotel
        context.insert(trip)
        context.insert(boat)
        try context.save()
        boat.trip = trip  // the trip's accommodation becomes the boat: the hotel's reference is cleared
        try context.save()
        let hotelID = hotel.persistentModelID
        context.delete(trip)
        try context.save()
        let moved = try history(container)[1].changes
        #expect(
            Set(moved.map(\.changedPersistentIdentifier)) == [trip.persistentModelID, hotelID, boat.persistentModelID])
        #expect(
            moved.map(\.summary).sorted() == [
                "update HistoryAccommodation", "update HistoryAccommodation", "update HistoryTrip",
            ])
        let changes = try history(container)[2].changes
        #expect(changes.map(\.summary).sorted() == ["delete HistoryTrip", "update HistoryAccommodation"])
        let update = changes.compactMap { change -> DefaultHistoryUpdate<HistoryAccommodation>? in
            if case .update(let update as DefaultHistoryUpdate<HistoryAccommodation>) = change { return update }
            return nil
        }.first
        #expect(update?.changedPersistentIdentifier == boat.persistentModelID)
        #expect(update?.containsAttribute(\.trip) == true)
    }

    @Test(arguments: StoreKind.all) func anUpsertIsAnUpdateOfTheStoredRow(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self)
        let context = ModelContext(container)
        context.insert(HistoryTrip(name: "Kyoto", destination: "Japan"))
        try context.save()
        let stored = try context.fetch(FetchDescriptor<HistoryTrip>()).first!.persistentModelID
        context.insert(HistoryTrip(name: "Kyoto", destination: "Kansai"))
        try context.save()
        let changes = try history(container)[1].changes
        #expect(changes.map(\.summary) == ["update HistoryTrip"])
        #expect(changes.first?.changedPersistentIdentifier == stored)
    }

    @Test(arguments: StoreKind.all) func aFailedSaveRecordsNothing(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryTrip.self)
        let context = ModelContext(container)
        context.insert(HistoryTrip(name: "Quito", destination: "Ecuador"))
        try context.save()
        let trip = HistoryTrip(name: "Lagos", destination: "Nigeria")
        context.insert(trip)
        try context.save()
        trip.name = "Quito"  // breaks the unique constraint on (name, startDate)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(try history(container).count == 2)
    }

    /// A save's transaction that rolls back after recording its history leaves no transaction, and no gap in the
    /// numbers: on PostgreSQL a save that takes the save lock with its `COMMIT` draws its number there too (one that
    /// took the lock earlier, and rolls back, leaves a gap); SQLite gives the next save that number.
    @Test(arguments: StoreKind.all) func aRecordRolledBackLeavesNoTransaction(store kind: StoreKind) throws {
        struct Failure: Error {}
        let container = try kind.makeContainer(HistoryNote.self)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "kept"))
        try context.save()
        let store = try unwrap(container.stores.first)
        #expect(throws: Failure.self) {
            try store.write(for: EditingState()) { transaction in
                // Changes in HistoryPayload's format: version 1, no entities, no shapes, no changes.
                _ = try transaction.recordHistory(
                    HistoryEntry(
                        timestamp: Date(), author: "lost", bundleIdentifier: "test", processIdentifier: "0",
                        changes: Data([1, 0, 0, 0])))
                throw Failure()
            }
        }
        context.insert(HistoryNote(text: "next"))
        try context.save()
        let numbers = try history(container).map(\.transactionIdentifier)
        #expect(numbers.count == 2)
        #expect(numbers.last == numbers[0] + 1)
    }

    @Test(arguments: StoreKind.all) func didSaveCarriesTheTokenOfTheSave(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryNote.self)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "a"))
        try context.save()
        nonisolated(unsafe) var token: DefaultHistoryToken?
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { notification in
            token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue] as? DefaultHistoryToken
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(HistoryNote(text: "b"))
        try context.save()
        let transactions = try history(container)
        #expect(token == transactions.last?.token)
        let after = try unwrap(token)
        #expect(try history(container, #Predicate { $0.token > after }).isEmpty)
    }

    @Test func eachStoreOfAContainerHasItsOwnHistory() throws {
        let directory = TemporaryDirectory()
        let container = try ModelContainer(
            for: HistoryTrip.self, HistoryNote.self,
            configurations: ModelConfiguration(
                "trips", schema: Schema([HistoryTrip.self]), url: directory.store("trips")),
            ModelConfiguration("notes", schema: Schema([HistoryNote.self]), url: directory.store("notes")))
        let context = ModelContext(container)
        context.insert(HistoryTrip(name: "Bern", destination: "Switzerland"))
        context.insert(HistoryNote(text: "chocolate"))
        try context.save()
        let transactions = try history(container)
        let trips = try #require(container.storeIdentifier(forConfigurationNamed: "trips"))
        let notes = try #require(container.storeIdentifier(forConfigurationNamed: "notes"))
        #expect(Set(transactions.map(\.storeIdentifier)) == [trips, notes])
        #expect(transactions.allSatisfy { $0.changes.count == 1 })
        let tripToken = try #require(transactions.first { $0.storeIdentifier == trips }?.token)
        #expect(try history(container, #Predicate { $0.token >= tripToken }).map(\.storeIdentifier) == [trips])
        #expect(try history(container, #Predicate { $0.storeIdentifier == notes }).map(\.storeIdentifier) == [notes])
    }
}

func unwrap<T>(_ value: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    try #require(value, sourceLocation: sourceLocation)
}
