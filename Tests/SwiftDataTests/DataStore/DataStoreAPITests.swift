import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// A store that keeps its snapshots in memory and runs no predicate or sort itself, but says nothing about it: it
/// returns every snapshot of every type, as a naive store of one's own may.
final class MemorySnapshotStore: DataStore {
    typealias Configuration = MemorySnapshotConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: MemorySnapshotConfiguration
    let schema: Schema
    let identifier = "memory"
    /// The requests the store received.
    var fetched: [String] = []
    var saves = 0

    init(_ configuration: MemorySnapshotConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema ?? Schema()
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot> {
        fetched.append(String(describing: T.self))
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: Array(configuration.box.snapshots.values))
    }

    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot> {
        saves += 1
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            configuration.box.lastKey += 1
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName,
                primaryKey: "k\(configuration.box.lastKey)")
        }
        for snapshot in request.inserted + request.updated {
            let id = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            configuration.box.snapshots[id] = snapshot.copy(persistentIdentifier: id, remappedIdentifiers: remapped)
        }
        for snapshot in request.deleted { configuration.box.snapshots[snapshot.persistentIdentifier] = nil }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }
}

/// Where a `MemorySnapshotStore` keeps its snapshots, shared by the stores of one configuration.
final class SnapshotBox: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time, on one thread.
    var snapshots: [PersistentIdentifier: DefaultSnapshot] = [:]
    var lastKey = 0
}

struct MemorySnapshotConfiguration: DataStoreConfiguration {
    typealias Store = MemorySnapshotStore
    var name = "memory"
    var schema: Schema?
    let box: SnapshotBox

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A snapshot type of its own, which the framework cannot read.
struct OpaqueSnapshot: DataStoreSnapshot {
    let persistentIdentifier: PersistentIdentifier
    init(from: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        persistentIdentifier = from.persistentModelID!
    }
    func copy(
        persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> OpaqueSnapshot { self }
}

final class OpaqueStore: DataStore {
    typealias Configuration = OpaqueConfiguration
    typealias Snapshot = OpaqueSnapshot
    let configuration: OpaqueConfiguration
    let schema = Schema()
    let identifier = "opaque"
    init(_ configuration: OpaqueConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
    }
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot> {
        throw DataStoreError.unsupportedFeature
    }
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot> {
        throw DataStoreError.unsupportedFeature
    }
}

struct OpaqueConfiguration: DataStoreConfiguration {
    typealias Store = OpaqueStore
    var name = "opaque"
    var schema: Schema?
}

@Suite struct DataStoreAPITests {
    @Test func aStoreThatReturnsEverythingIsFilteredSortedAndWindowedByTheContext() throws {
        let box = SnapshotBox()
        let container = try ModelContainer(
            for: Counter.self, User.self, configurations: MemorySnapshotConfiguration(box: box))
        let context = ModelContext(container)
        for (index, label) in ["c", "a", "d", "b"].enumerated() {
            let counter = Counter(label: label)
            counter.value = index
            context.insert(counter)
        }
        context.insert(User(name: "Taylor", email: "t@example.com"))
        try context.save()
        #expect(box.snapshots.count == 5)

        let fresh = ModelContext(container)
        var descriptor = FetchDescriptor<Counter>(
            predicate: #Predicate { $0.value > 0 }, sortBy: [SortDescriptor(\.label)])
        descriptor.fetchLimit = 2
        #expect(try fresh.fetch(descriptor).map(\.label) == ["a", "b"])
        #expect(try fresh.fetchCount(FetchDescriptor<Counter>()) == 4, "the user's snapshot is not a counter")
        #expect(try fresh.fetch(FetchDescriptor<User>()).map(\.name) == ["Taylor"])
        // Without a predicate or a sort, the models come in the order they were inserted, windowed.
        var window = FetchDescriptor<Counter>()
        window.fetchOffset = 1
        window.fetchLimit = 2
        #expect(try fresh.fetch(window).map(\.label) == ["a", "d"])
    }

    @Test func deletingByPredicateGoesThroughTheStore() throws {
        let box = SnapshotBox()
        let container = try ModelContainer(for: Counter.self, configurations: MemorySnapshotConfiguration(box: box))
        let context = ModelContext(container)
        for label in ["a", "b", "c"] { context.insert(Counter(label: label)) }
        try context.save()
        try context.delete(model: Counter.self, where: #Predicate { $0.label != "b" })
        try context.save()
        #expect(box.snapshots.values.map { $0.persistentIdentifier.entityName } == ["Counter"])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label) == ["b"])
    }

    @Test func aSnapshotTypeOfItsOwnIsRefusedWithAClearError() throws {
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try ModelContainer(for: Counter.self, configurations: OpaqueConfiguration())
        }
        do {
            _ = try ModelContainer(for: Counter.self, configurations: OpaqueConfiguration())
        } catch let error as SwiftDataError {
            #expect(error.reason?.contains("OpaqueSnapshot") == true)
            #expect(error.suggestion?.contains("DefaultSnapshot") == true)
        }
    }

    @Test func theProtocolsDefaultsAreApples() throws {
        let store = try OpaqueStore(OpaqueConfiguration(), migrationPlan: nil)
        #expect(throws: DataStoreError.unsupportedFeature) { try store.erase() }
        #expect(try store.cachedSnapshots(for: [], editingState: EditingState()).isEmpty)
        #expect(throws: DataStoreError.unsupportedFeature) {
            try store.fetchCount(DataStoreFetchRequestProbe.request(Counter.self))
        }
    }

    @Test func aModelConfigurationOpensTheDefaultStore() throws {
        let directory = TemporaryDirectory()
        var configuration = ModelConfiguration(url: directory.store())
        configuration.schema = Schema([Counter.self])
        let store = try DefaultStore(configuration, migrationPlan: nil)
        #expect(store.name == "test" && store.schema.entities.map(\.name) == ["Counter"])
        #expect(!store.identifier.isEmpty)
        #expect(throws: DataStoreError.unsupportedFeature) {
            try store.fetch(DataStoreFetchRequestProbe.request(Counter.self))
        }
        let _: DefaultStore.Type = ModelConfiguration.Store.self
    }

    /// Every initializer form compiles and opens the store it names.
    @Test func everyContainerInitializerOpensItsStore() throws {
        let directory = TemporaryDirectory()
        let file = ModelConfiguration(url: directory.store())
        let memory = ModelConfiguration(isStoredInMemoryOnly: true)
        let containers = [
            try ModelContainer(for: Counter.self, configurations: file),
            try ModelContainer(for: Counter.self, migrationPlan: nil, configurations: file),
            try ModelContainer(for: Schema([Counter.self]), configurations: file),
            try ModelContainer(for: Schema([Counter.self]), configurations: [file]),
            try ModelContainer(for: Schema([Counter.self]), migrationPlan: nil, configurations: [file]),
            try ModelContainer(for: Schema([Counter.self]), configurations: [file] as [any DataStoreConfiguration]),
            try ModelContainer(for: Counter.self, configurations: memory),
        ]
        for container in containers.dropLast() {
            #expect(container.configurations.map(\.url) == [directory.store()])
        }
        #expect(containers.last?.configurations.first?.isStoredInMemoryOnly == true)
        let first = ModelContext(containers[0])
        first.insert(Counter(label: "saved"))
        try first.save()
        #expect(try ModelContext(containers[3]).fetch(FetchDescriptor<Counter>()).map(\.label) == ["saved"])
    }
}

/// Requests as a context makes them (their initializers are the framework's).
enum DataStoreFetchRequestProbe {
    static func request<T: PersistentModel>(_ type: T.Type) -> DataStoreFetchRequest<T> {
        DataStoreFetchRequest(descriptor: FetchDescriptor<T>(), editingState: EditingState())
    }
}
