import Foundation

/// A store of your own (Apple's `DataStore`) seen as a `RowStore`, so that contexts use it as they use this
/// package's stores: models become snapshots on save, snapshots become rows on fetch.
///
/// - **Keys.** A context keys models by integers; the adapter gives each identifier the store hands out one, for
///   as long as the container lives, and models' `persistentModelID`s are the store's identifiers.
/// - **Fetches.** The store gets the descriptor's predicate and sort, without its window. When it throws
///   `DataStoreError.preferInMemoryFilter` or `.preferInMemorySort` it is asked again without them; in every case
///   the context evaluates the predicate, sorts and windows what it returns (so a store may return every model).
///   Snapshots the store returns, related ones included, stay at hand: loading a relationship or a model by key
///   uses them, and fetches all of an entity's snapshots only when one is missing.
/// - **Saves.** A save is one `save(_:)` call. The context's changes arrive as a row store's writes (rows,
///   foreign keys, join rows, deletes); the adapter applies them to snapshots, keeping both sides of each
///   relationship, and sends the snapshots of new, changed and deleted models. Then the models of the save take
///   the permanent identifiers the store returns. A store remaps the identifiers of related new models in the
///   snapshots it keeps with `copy(persistentIdentifier:remappedIdentifiers:)`, as Apple's API intends.
///
/// `@unchecked Sendable` because the store, which need not be `Sendable`, and every mutable property are used only
/// while holding `lock` (recursive, so that a fetch's row callback may fetch again).
package final class SnapshotStoreAdapter<Store: DataStore>: RowStore, @unchecked Sendable {
    let store: Store
    let lock = NSRecursiveLock()
    let schema: Schema
    package let identifier: String
    package let configurationName: String
    package var allowsSave: Bool { true }
    package var mapsIdentifiers: Bool { true }

    /// The key of each identifier, and the identifier of each key.
    private var keys: [PersistentIdentifier: Int64] = [:]
    private var identifiers: [Int64: PersistentIdentifier] = [:]
    private var lastKey: Int64 = 0
    /// The latest snapshot of each model the adapter saw, by entity name and key.
    var snapshots: [String: [Int64: DefaultSnapshot]] = [:]
    /// Entities whose every snapshot is in `snapshots`.
    var completeEntities: Set<String> = []
    /// The editing state of requests made without a context's.
    private let ownEditingState = EditingState()

    /// Wraps an opened store. Its snapshots must be `DefaultSnapshot`s: the adapter reads their values.
    package init(_ store: Store, configurationName: String) throws {
        guard Store.Snapshot.self == DefaultSnapshot.self else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "\(Store.self) keeps \(Store.Snapshot.self) snapshots, whose values SwiftData cannot read",
                suggestion: "Declare typealias Snapshot = DefaultSnapshot in the store")
        }
        if let root = store.schema.entities.first(where: { !$0.subentities.isEmpty }) {
            // A fetch of a superclass reads each row's class, which snapshots do not carry in the adapter's rows.
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "\(Store.self) would hold the model hierarchy of \(root.name), which stores of your own cannot yet",
                model: root.name, suggestion: "Keep model hierarchies in the default store")
        }
        self.store = store
        self.schema = store.schema
        self.identifier = store.identifier
        self.configurationName = configurationName
    }

    // MARK: Identifiers

    package func persistentIdentifier(forKey key: Int64, entity: Schema.Entity) -> PersistentIdentifier {
        lock.withLock {
            identifiers[key]
                ?? PersistentIdentifier(storeIdentifier: identifier, entityName: entity.name, key: .permanent(key))
        }
    }

    package func key(for identifier: PersistentIdentifier) -> Int64? {
        lock.withLock { keys[identifier] }
    }

    /// The key of an identifier, given one if it has none yet.
    func keyOrNew(for identifier: PersistentIdentifier) -> Int64 {
        if let key = keys[identifier] { return key }
        let key = newKey()
        keys[identifier] = key
        identifiers[key] = identifier
        return key
    }

    /// A key no identifier has.
    func newKey() -> Int64 {
        lastKey += 1
        return lastKey
    }

    /// The identifier of a key, if it has one.
    func identifierOfKey(_ key: Int64) -> PersistentIdentifier? { identifiers[key] }

    /// Records that `key`'s model now has a permanent identifier.
    func assign(_ identifier: PersistentIdentifier, to key: Int64) {
        if let old = identifiers[key] { keys[old] = nil }
        identifiers[key] = identifier
        keys[identifier] = key
    }

    // MARK: Fetching

    package func prepare<T: PersistentModel>(_ request: FetchRequest<T>) -> FetchPlan {
        // The store may ignore a predicate or a sort it does not prefer to run: the context runs them again.
        FetchPlan(coverage: FetchCoverage(predicate: request.predicate == nil, sort: request.sortBy.isEmpty))
    }

    package func fetch<T: PersistentModel>(
        _ request: FetchRequest<T>, plan: FetchPlan, row: (Int64, any _RowReader) throws -> Void
    ) throws {
        try lock.withLock {
            let reader = SnapshotRowReader(entity: request.entity)
            for (key, snapshot) in try rows(request) {
                reader.load(snapshot, properties: request.properties, first: 1, key: keyOrNew)
                try row(key, reader)
            }
        }
    }

    package func fetchCount<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan) throws -> Int {
        try lock.withLock { try rows(request).count }
    }

    /// The snapshots a request selects, by key in key order (the order models were first seen or inserted): those
    /// of its keys, or those the store returns; windowed when the request has neither predicate nor sort.
    private func rows<T: PersistentModel>(_ request: FetchRequest<T>) throws -> [(Int64, DefaultSnapshot)] {
        let editingState = request.editingState ?? ownEditingState
        var found: [(Int64, DefaultSnapshot)]
        if let keys = request.keys {
            found = try keys.compactMap { key in
                try snapshot(ofKey: key, entity: request.entity.name, editingState: editingState).map { (key, $0) }
            }
        } else {
            var descriptor = FetchDescriptor<T>(predicate: request.predicate, sortBy: request.sortBy)
            descriptor.includePendingChanges = false
            found = try fetchSnapshots(descriptor, entity: request.entity.name, editingState: editingState)
                .map { (keyOrNew(for: $0.persistentIdentifier), $0) }
            found.sort { $0.0 < $1.0 }
        }
        guard request.predicate == nil, request.sortBy.isEmpty, request.keys == nil else { return found }
        let offset = min(max(request.fetchOffset ?? 0, 0), found.count)
        let end = request.fetchLimit.map { min(offset + max($0, 0), found.count) } ?? found.count
        return Array(found[offset..<end])
    }

    /// Asks the store for the snapshots a descriptor selects, again without the predicate or the sort when it
    /// prefers the context to run them; keeps what it returns at hand.
    func fetchSnapshots<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, entity: String, editingState: EditingState
    ) throws -> [DefaultSnapshot] {
        var descriptor = descriptor
        for _ in 0..<3 {
            let result: DataStoreFetchResult<T, Store.Snapshot>
            do {
                result = try store.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
            } catch DataStoreError.preferInMemoryFilter where descriptor.predicate != nil {
                descriptor.predicate = nil
                continue
            } catch DataStoreError.preferInMemorySort where !descriptor.sortBy.isEmpty {
                descriptor.sortBy = []
                continue
            }
            let fetched = result.fetchedSnapshots.compactMap { $0 as? DefaultSnapshot }.filter {
                $0.persistentIdentifier.entityName == entity
            }
            for related in result.relatedSnapshots.values.compactMap({ $0 as? DefaultSnapshot }) { remember(related) }
            if descriptor.predicate == nil {
                snapshots[entity] = [:]
                completeEntities.insert(entity)
            }
            for snapshot in fetched { remember(snapshot) }
            return fetched
        }
        throw SwiftDataError.storeError.with(
            reason: "\(Store.self) refused the fetch of \(entity) without a predicate or a sort",
            model: entity, suggestion: "Return every snapshot when the descriptor has no predicate")
    }

    /// Keeps a snapshot the store returned or saved at hand.
    func remember(_ snapshot: DefaultSnapshot) {
        let entity = snapshot.persistentIdentifier.entityName
        snapshots[entity, default: [:]][keyOrNew(for: snapshot.persistentIdentifier)] = snapshot
    }

    /// The snapshot of the model with `key`: at hand, from the store's cache, or by fetching every model of its
    /// entity; `nil` when the store has none.
    func snapshot(ofKey key: Int64, entity: String, editingState: EditingState) throws -> DefaultSnapshot? {
        if let snapshot = snapshots[entity]?[key] { return snapshot }
        guard !completeEntities.contains(entity), let identifier = identifiers[key] else { return nil }
        if let cached = try store.cachedSnapshots(for: [identifier], editingState: editingState)[identifier]
            as? DefaultSnapshot
        {
            remember(cached)
            return cached
        }
        try fetchAll(entity, editingState: editingState)
        return snapshots[entity]?[key]
    }

    /// Fetches every snapshot of an entity.
    func fetchAll(_ entity: String, editingState: EditingState) throws {
        guard !completeEntities.contains(entity), let type = schema.entitiesByName[entity]?.modelType else { return }
        func fetch<T: PersistentModel>(_ type: T.Type) throws {
            var descriptor = FetchDescriptor<T>()
            descriptor.includePendingChanges = false
            _ = try fetchSnapshots(descriptor, entity: entity, editingState: editingState)
        }
        try fetch(type)
    }

    package func fetchMembers(
        of relationship: Schema.Relationship, owners: [Int64], destination: Schema.Entity, properties: [Int],
        subentityProperties: [SubentityProperties],
        row: (_ owner: Int64, _ member: Int64, any _RowReader) throws -> Void
    ) throws {
        // No hierarchies here (see `init`): `subentityProperties` is empty.
        try lock.withLock {
            let reader = SnapshotRowReader(entity: destination)
            for owner in owners {
                guard let ownerEntity = identifiers[owner]?.entityName,
                    let snapshot = try snapshot(ofKey: owner, entity: ownerEntity, editingState: ownEditingState)
                else { continue }
                for member in snapshot.values[relationship.name]?.identifiers ?? [] {
                    let key = keyOrNew(for: member)
                    guard
                        let memberSnapshot = try self.snapshot(
                            ofKey: key, entity: member.entityName, editingState: ownEditingState)
                    else { continue }
                    reader.load(memberSnapshot, properties: properties, first: 2, key: keyOrNew)
                    try row(owner, key, reader)
                }
            }
        }
    }

    // MARK: Writing

    package func write<Result>(
        for editingState: EditingState, _ body: (any RowStoreTransaction) throws -> Result
    ) throws -> Result {
        try lock.withLock {
            let transaction = SnapshotTransaction(adapter: self, editingState: editingState)
            let result = try body(transaction)
            try transaction.commit()
            return result
        }
    }

    package func erase() throws {
        try lock.withLock {
            try store.erase()
            snapshots = [:]
            completeEntities = Set(schema.entities.map(\.name))
        }
    }

    package func readExternal(_ reference: String) throws -> Data {
        throw SwiftDataError.storeError.with(
            reason: "a store of your own keeps every value in its snapshots", suggestion: "This is a bug")
    }

    /// Another process's changes are not tracked: a store of your own is read again when its models are not at
    /// hand.
    package func hasExternalChanges() -> Bool { false }

    package func initializeState(for editingState: EditingState) {
        lock.withLock { store.initializeState(for: editingState) }
    }

    package func invalidateState(for editingState: EditingState) {
        lock.withLock { store.invalidateState(for: editingState) }
    }
}
