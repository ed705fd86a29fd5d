import Foundation
import SwiftData
import Testing

/// `DefaultStore` provides its history through Apple's `HistoryProviding`: the transactions the container's contexts
/// fetch, decoded with the store's own schema.
@Suite struct DefaultStoreHistoryTests {
    @Test func theDefaultStoreFetchesAndDeletesItsHistory() throws {
        let directory = TemporaryDirectory()
        let configuration = ModelConfiguration(
            schema: Schema([HistoryTrip.self, HistoryBucketItem.self, HistoryAccommodation.self]),
            url: directory.store())
        let container = try ModelContainer(
            for: HistoryTrip.self, HistoryBucketItem.self, HistoryAccommodation.self, configurations: configuration)
        let context = ModelContext(container)
        context.author = "planner"
        let trip = HistoryTrip(name: "Lisbon", destination: "Portugal")
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()

        let store = try DefaultStore(configuration, migrationPlan: nil)
        #expect(DefaultStore.historyType == DefaultHistoryTransaction.self)
        let transactions = try store.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions == (try history(container)))
        #expect(transactions.map(\.author) == ["planner", "planner"])
        guard case .delete(let delete as DefaultHistoryDelete<HistoryTrip>)? = transactions.last?.changes.first else {
            Issue.record("the second transaction is not the trip's delete")
            return
        }
        #expect(delete.tombstone[\.name] as? String == "Lisbon")

        let first = transactions[0].token
        try store.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= first }))
        #expect(try history(container).map(\.transactionIdentifier) == [transactions[1].transactionIdentifier])
    }
}
