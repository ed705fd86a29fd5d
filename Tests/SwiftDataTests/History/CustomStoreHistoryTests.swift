import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// A store of one's own that keeps a journal of its saves and provides it through `HistoryProviding`, with a
/// transaction type of its own: what Apple's custom store session shows.
final class JournalingStore: DataStore, HistoryProviding {
    typealias Configuration = JournalingConfiguration
    typealias Snapshot = DefaultSnapshot
    typealias HistoryType = JournalTransaction

    static var historyType: JournalTransaction.Type { JournalTransaction.self }

    let configuration: JournalingConfiguration
    let schema: Schema
    var identifier: String { configuration.name }

    init(_ configuration: JournalingConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot> {
        DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: Array(configuration.box.snapshots.values))
    }

    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot> {
        let box = configuration.box
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            box.lastKey += 1
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: "k\(box.lastKey)")
        }
        for snapshot in request.inserted + request.updated {
            let id = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            box.snapshots[id] = snapshot.copy(persistentIdentifier: id, remappedIdentifiers: remapped)
        }
        for snapshot in request.deleted { box.snapshots[snapshot.persistentIdentifier] = nil }
        box.journal.append(
            JournalTransaction(
                number: (box.journal.last?.number ?? 0) + 1, storeIdentifier: identifier,
                author: request.editingState.author, inserted: request.inserted.count,
                deleted: request.deleted.count))
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }

    func fetchHistory(_ descriptor: HistoryDescriptor<JournalTransaction>) throws -> [JournalTransaction] {
        configuration.box.historyRequests += 1
        var selected = try configuration.box.journal.filter { try descriptor.predicate?.evaluate($0) ?? true }
        if descriptor.fetchLimit > 0 { selected = Array(selected.prefix(Int(descriptor.fetchLimit))) }
        return selected
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<JournalTransaction>) throws {
        let box = configuration.box
        box.journal = try box.journal.filter { try !(descriptor.predicate?.evaluate($0) ?? true) }
    }
}

/// One save of a `JournalingStore`.
struct JournalTransaction: HistoryTransaction {
    var number: Int
    var storeIdentifier: String
    var author: String?
    var inserted: Int
    var deleted: Int
    var timestamp = Date()
    var changes: [HistoryChange] { [] }
    var token: JournalToken { JournalToken(id: number) }
    var transactionIdentifier: Int { number }
    var id: Int { number }
}

struct JournalToken: Codable, Comparable, Hashable, Identifiable, Sendable {
    var id: Int
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.id < rhs.id }
}

/// What a `JournalingStore` keeps: its snapshots and its journal.
final class JournalBox: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time, under the store adapter's lock.
    var snapshots: [PersistentIdentifier: DefaultSnapshot] = [:]
    var lastKey = 0
    var journal: [JournalTransaction] = []
    var historyRequests = 0
}

struct JournalingConfiguration: DataStoreConfiguration {
    typealias Store = JournalingStore
    var name = "journal"
    var schema: Schema?
    let box: JournalBox

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `ModelContext.fetchHistory(_:)` and `deleteHistory(_:)` ask a store of one's own that conforms to
/// `HistoryProviding` for transactions of its type; a store of one's own without it has no history.
@Suite struct CustomStoreHistoryTests {
    @Test func theContextAsksAStoreThatProvidesHistory() throws {
        let box = JournalBox()
        let container = try ModelContainer(
            for: HistoryNote.self, configurations: JournalingConfiguration(box: box))
        let context = ModelContext(container)
        context.author = "importer"
        context.insert(HistoryNote(text: "a"))
        context.insert(HistoryNote(text: "b"))
        try context.save()
        context.author = nil
        let note = try context.fetch(FetchDescriptor<HistoryNote>()).first!
        context.delete(note)
        try context.save()

        let all = try context.fetchHistory(HistoryDescriptor<JournalTransaction>())
        #expect(box.historyRequests == 1)
        #expect(all.map(\.number) == [1, 2])
        #expect(all.map(\.author) == ["importer", nil])
        #expect(all.map(\.inserted) == [2, 0] && all.map(\.deleted) == [0, 1])
        let first = all[0].token
        let later = try context.fetchHistory(
            HistoryDescriptor<JournalTransaction>(predicate: #Predicate { $0.token > first }))
        #expect(later.map(\.number) == [2], "the store evaluates the predicate")

        try context.deleteHistory(HistoryDescriptor<JournalTransaction>(predicate: #Predicate { $0.token <= first }))
        #expect(box.journal.map(\.number) == [2], "the store deletes what the descriptor selects")
        #expect(
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty,
            "the store keeps no DefaultHistoryTransactions")
    }

    @Test func aHistoryObserverCountsTheStoresTransactions() async throws {
        let box = JournalBox()
        let container = try ModelContainer(for: HistoryNote.self, configurations: JournalingConfiguration(box: box))
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "before"))
        try context.save()
        let waiting = HistoryObserverTests()
        let observer = try HistoryObserver(modelContainer: container)
        let byWidget = try HistoryObserver(authors: ["widget"], modelContainer: container)
        let ofNotes = try HistoryObserver(observedModels: [HistoryNote.self], modelContainer: container)
        let fromTheStart = try HistoryObserver(historyTokens: [:], modelContainer: container)
        #expect(try await waiting.waitFor(1, fromTheStart) == 1, "without a token, the first transaction is new")
        #expect(observer.eventCounter == 0, "earlier transactions are not events")
        context.insert(HistoryNote(text: "after"))
        try context.save()
        #expect(try await waiting.waitFor(1, observer) == 1)
        // Transactions found together count once: each observer has seen this one before the next save.
        #expect(try await waiting.waitFor(2, fromTheStart) == 2)
        context.author = "widget"
        context.insert(HistoryNote(text: "by the widget"))
        try context.save()
        // Transactions are handled in order: once the widget's has arrived, a count above 1 would mean the other
        // author's transaction before it was counted too.
        #expect(try await waiting.waitFor(1, byWidget) == 1, "another author's transaction is not an event")
        #expect(try await waiting.waitFor(2, observer) == 2)
        #expect(try await waiting.waitFor(3, fromTheStart) == 3)
        #expect(ofNotes.eventCounter == 0, "the journal's transactions list no changes")
        #expect {
            try HistoryObserver(
                historyTokens: ["journal": DefaultHistoryToken(storeIdentifier: "journal", number: 1)],
                modelContainer: container)
        } throws: { error in
            "\(error)".contains("not a token of its transactions")
        }
    }

    @Test func transactionsOfSeveralStoresComeTogetherInTimeOrder() throws {
        let trips = JournalBox()
        let notes = JournalBox()
        let container = try ModelContainer(
            for: HistoryNote.self, HistoryTrip.self,
            configurations: JournalingConfiguration(name: "trips", schema: Schema([HistoryTrip.self]), box: trips),
            JournalingConfiguration(name: "notes", schema: Schema([HistoryNote.self]), box: notes))
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "first"))
        try context.save()
        context.insert(HistoryTrip(name: "Oslo", destination: "Norway"))
        try context.save()
        context.insert(HistoryNote(text: "third"))
        try context.save()
        let all = try context.fetchHistory(HistoryDescriptor<JournalTransaction>())
        #expect(all.map(\.storeIdentifier) == ["notes", "trips", "notes"])
        var limited = HistoryDescriptor<JournalTransaction>(sortBy: [SortDescriptor(\.timestamp, order: .reverse)])
        limited.fetchLimit = 2
        #expect(try context.fetchHistory(limited).map(\.storeIdentifier) == ["notes", "trips"])
    }

    /// A store of one's own that does not provide history has none: a fetch of `DefaultHistoryTransaction`s
    /// returns no transactions of it, and one of a type no store keeps is refused.
    @Test func aStoreWithoutHistoryHasNone() throws {
        let box = SnapshotBox()
        let container = try ModelContainer(for: Counter.self, configurations: MemorySnapshotConfiguration(box: box))
        let context = ModelContext(container)
        context.insert(Counter(label: "a"))
        try context.save()
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.fetchHistory(HistoryDescriptor<JournalTransaction>())
        }
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.deleteHistory(HistoryDescriptor<JournalTransaction>())
        }
    }
}
