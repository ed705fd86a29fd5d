import Foundation
import SwiftData
import Synchronization
import Testing

/// A store's history position, as a store of one's own counts it.
struct CountingToken: HistoryToken {
    var tokenValue: Int?
    var storeIdentifier: String
    var id: Int { tokenValue ?? 0 }
    static func < (lhs: CountingToken, rhs: CountingToken) -> Bool { (lhs.tokenValue ?? 0) < (rhs.tokenValue ?? 0) }
}

/// A store of one's own that numbers its saves and returns the number as the save's history token (Apple's
/// `DataStoreSaveChangesResult(for:remappedIdentifiers:snapshotsToReregister:historyToken:)`).
final class CountingStore: DataStore {
    typealias Configuration = CountingConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: CountingConfiguration
    let schema: Schema
    let identifier = "counting"
    private var snapshots: [PersistentIdentifier: DefaultSnapshot] = [:]
    private var saves = 0
    private var lastKey = 0

    init(_ configuration: CountingConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema ?? Schema()
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot> {
        let name = Schema.entityName(for: T.self)
        return DataStoreFetchResult(
            descriptor: request.descriptor,
            fetchedSnapshots: snapshots.values.filter { $0.persistentIdentifier.entityName == name })
    }

    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot> {
        saves += 1
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            lastKey += 1
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: "k\(lastKey)")
        }
        for snapshot in request.inserted + request.updated {
            let id = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            snapshots[id] = snapshot.copy(persistentIdentifier: id, remappedIdentifiers: remapped)
        }
        for snapshot in request.deleted { snapshots[snapshot.persistentIdentifier] = nil }
        return DataStoreSaveChangesResult(
            for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: [:],
            historyToken: CountingToken(tokenValue: saves, storeIdentifier: identifier))
    }
}

struct CountingConfiguration: DataStoreConfiguration {
    typealias Store = CountingStore
    var name = "counting"
    var schema: Schema?
}

@Model final class CountedNote {
    var text: String
    init(text: String) { self.text = text }
}

/// The token a store of one's own returns for a save reaches the context's `didSave` notification, as the default
/// store's does.
@Suite struct SavedHistoryTokenTests {
    @Test func aCustomStoresTokenIsInDidSave() throws {
        let container = try ModelContainer(for: CountedNote.self, configurations: CountingConfiguration())
        let context = ModelContext(container)
        let tokens = Mutex<[Int]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { notification in
            let key = ModelContext.NotificationKey.historyTokens.rawValue
            if let token = notification.userInfo?[key] as? CountingToken {
                tokens.withLock { $0.append(token.tokenValue ?? -1) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(CountedNote(text: "one"))
        try context.save()
        context.insert(CountedNote(text: "two"))
        try context.save()
        #expect(tokens.withLock { $0 } == [1, 2])
    }
}
