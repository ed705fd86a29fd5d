import Foundation

/// Reads models from a context's stores: runs a descriptor's request and the store's plan for it, finishes in memory
/// what the plan leaves (see `FetchCoverage`), turns rows into the context's models, loads models by key, reloads
/// them, and merges the context's unsaved inserts, changes and deletes into results.
///
/// It owns no state: the context makes one per use (`ModelContext.fetcher`), and it is given the context's
/// `registry`, the only place it writes to: new rows register there, registered models without unsaved changes
/// are refreshed from their rows. From the context it reads the container's bindings, the editing state, the rows
/// `delete(model:where:)` deleted, and it asks it to catch up with other contexts' saves before a fetch and to
/// resolve relationships (`destination`, `registeredOrHollow`, `resolve`, `prefetch`), which belong to the
/// context's relationship code.
struct Fetcher {
    let context: ModelContext
    let registry: ModelRegistry

    /// `ModelContext.fetch(_:)`.
    func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        let merges = mergesPendingChanges(descriptor, entity: binding.entity)
        // When related models changed, the store's view of the predicate is stale: every stored model is tested.
        let reevaluates = merges && relatedModelsChanged(descriptor.predicate)
        let models: [T]
        if reevaluates {
            var stored = descriptor
            stored.predicate = nil
            models = try storedModels(stored, binding: binding, window: false)
        } else {
            // Not copied: a copy of the descriptor looked up its type's metadata (about 560 instructions a fetch).
            models = try storedModels(descriptor, binding: binding, window: !merges)
        }
        if !Self.isEmpty(descriptor.relationshipKeyPathsForPrefetching) {
            try context.prefetch(descriptor.relationshipKeyPathsForPrefetching, of: models, binding: binding)
        }
        return merges ? try mergePendingChanges(into: models, descriptor, reevaluating: reevaluates) : models
    }

    /// `ModelContext.fetchCount(_:)`.
    func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        if mergesPendingChanges(descriptor, entity: binding.entity) { return try fetch(descriptor).count }
        var request = try request(descriptor, binding: binding, window: true)
        request.properties = []
        let plan = descriptor.planMemo.plan(for: request, from: binding.store)
        guard plan.coverage.isComplete else {
            return try storedModels(descriptor, binding: binding, window: true).count
        }
        return try binding.store.fetchCount(request, plan: plan)
    }

    /// `ModelContext.fetchIdentifiers(_:)`.
    func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        if mergesPendingChanges(descriptor, entity: binding.entity) {
            return try fetch(descriptor).map(\.persistentModelID)
        }
        return try storedIdentifiers(descriptor, binding: binding)
    }

    /// `ModelContext.fetch(_:batchSize:)`.
    func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<T>
    {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        try refuseBatchingPendingChanges(descriptor, entity: binding.entity)
        let keys = try storedKeys(descriptor, binding: binding)
        // A batch the collection lets go of goes away unless something else holds its models (the context keeps
        // only models with unsaved changes).
        return FetchResultsCollection(count: keys.count, batchSize: batchSize) { [self] range in
            batch(T.self, keys: Array(keys[range]), binding: binding)
        }
    }

    /// The models of a batch, one per key, in order. A row that is gone (another context or process deleted it
    /// since the keys were read) or that fails to load is the context's model for that identifier, as `model(for:)`
    /// gives it: reading its values then reports the row as missing, as Apple's faults do.
    private func batch<T: PersistentModel>(_ type: T.Type, keys: [Int64], binding: EntityBinding) -> [T] {
        var loaded: [T] = []
        do {
            loaded = try load(T.self, keys: keys, binding: binding, inOrder: true)
        } catch {
            Log.error("a batched fetch of \(T.self) could not load \(keys.count) rows: \(error)")
        }
        if loaded.count == keys.count { return loaded }
        Log.error(
            "a batched fetch of \(T.self) found \(keys.count - loaded.count) of \(keys.count) rows gone since the fetch "
                + "(deleted by another context or process); their models' values cannot be read")
        let map = registry.map(for: ObjectIdentifier(T.self))
        let loadedByKey = Dictionary(loaded.map { ($0._$persistentState.key, $0) }) { first, _ in first }
        return keys.map { key in
            if let model = loadedByKey[key] { return model }
            // unsafeDowncast: the registry files each model under its own type's ObjectIdentifier.
            if let object = map.model(key) { return unsafeDowncast(object, to: T.self) }
            return context.makeHollow(T.self, key: key, binding: binding, in: map)
        }
    }

    /// `ModelContext.fetchIdentifiers(_:batchSize:)`.
    func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier>
    {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        try refuseBatchingPendingChanges(descriptor, entity: binding.entity)
        let identifiers = try storedIdentifiers(descriptor, binding: binding)
        return FetchResultsCollection(count: identifiers.count, batchSize: batchSize) { Array(identifiers[$0]) }
    }

    /// `ModelContext.enumerate(_:batchSize:allowEscapingMutations:block:)`.
    func enumerate<T: PersistentModel>(
        _ fetch: FetchDescriptor<T>, batchSize: Int, allowEscapingMutations: Bool,
        block: (_ model: T) throws -> Void
    ) throws {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        try refuseBatchingPendingChanges(fetch, entity: binding.entity)
        let keys = try storedKeys(fetch, binding: binding)
        let batchSize = max(1, batchSize)
        for start in stride(from: 0, to: keys.count, by: batchSize) {
            let batchKeys = Array(keys[start..<min(start + batchSize, keys.count)])
            let hadChanges = context.hasChanges
            // The batch's models go away after it unless the block keeps them or changes them: the context does not
            // hold models without unsaved changes.
            for model in try load(T.self, keys: batchKeys, binding: binding, inOrder: true) { try block(model) }
            if !allowEscapingMutations && !hadChanges && context.hasChanges {
                throw SwiftDataError.modelValidationFailure.with(
                    reason: "the enumerate block left unsaved changes", model: binding.entity.name,
                    suggestion: "Save inside the block, or pass allowEscapingMutations: true")
            }
        }
    }

    // MARK: Loading

    /// The store request for a descriptor; `window` applies its limit and offset.
    func request<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, binding: EntityBinding, window: Bool)
        throws
        -> FetchRequest<T>
    {
        let fetchesAll = Self.isEmpty(descriptor.propertiesToFetch)
        var request = FetchRequest<T>(
            entity: binding.entity, predicate: descriptor.predicate,
            properties: fetchesAll
                ? binding.fetchedProperties : try fetchedProperties(descriptor.propertiesToFetch, binding: binding))
        request.sortBy = descriptor.sortBy
        request.editingState = context.editingState
        if !binding.subentityProperties.isEmpty {
            // Some attributes only: subentities' attributes load when first read, their foreign keys come along.
            request.subentityProperties =
                fetchesAll
                ? binding.subentityProperties
                : binding.subentityProperties.map { level in
                    SubentityProperties(
                        level.entity, level.properties.filter { level.entity.relationship(at: $0) != nil })
                }
        }
        if window {
            request.fetchLimit = descriptor.fetchLimit
            request.fetchOffset = descriptor.fetchOffset
        }
        return request
    }

    /// Whether a descriptor's list of key paths is empty, told without the metadata of `[PartialKeyPath<Root>]`: in
    /// this unspecialized code its `isEmpty` looked that up with the array's conformance (about 700 instructions a
    /// fetch), and its `count` the element's (about 160).
    @inline(__always)
    private static func isEmpty<Root>(_ keyPaths: [PartialKeyPath<Root>]) -> Bool {
        // unsafeBitCast: an array of class references has one layout whatever their class.
        unsafeBitCast(keyPaths, to: [AnyKeyPath].self).isEmpty
    }

    /// The properties a fetch reads: with `propertiesToFetch`, those attributes and the foreign keys; otherwise all.
    private func fetchedProperties<T: PersistentModel>(_ keyPaths: [PartialKeyPath<T>], binding: EntityBinding) throws
        -> [Int]
    {
        guard !keyPaths.isEmpty else { return binding.fetchedProperties }
        var chosen = Set<Int>()
        for keyPath in keyPaths {
            guard let index = binding.entity.propertyIndex(for: keyPath), binding.fetchedProperties.contains(index)
            else {
                throw SwiftDataError.unsupportedKeyPath.with(
                    reason:
                        "\(keyPath) is not a stored attribute of \(binding.entity.name), so it cannot be fetched on its own",
                    model: binding.entity.name, suggestion: "List stored attributes in propertiesToFetch")
            }
            chosen.insert(index)
        }
        return binding.fetchedProperties.filter { chosen.contains($0) || binding.entity.relationship(at: $0) != nil }
    }

    /// The stored models the descriptor selects, in its order; `window` applies its limit and offset. What the
    /// store cannot run itself (see `FetchCoverage`) is done here, by the plan's remainder: the predicate is
    /// evaluated on the candidates it returns, then they are sorted and windowed.
    private func storedModels<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, binding: EntityBinding, window: Bool
    )
        throws -> [T]
    {
        let request = try request(descriptor, binding: binding, window: window)
        let plan = descriptor.planMemo.plan(for: request, from: binding.store)
        let models = try load(request, plan: plan, binding: binding)
        return try plan.runRemainder(on: models, of: descriptor, window: window)
    }

    /// Runs a store fetch and returns the context's object for every row, creating or refreshing them.
    func load<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan? = nil, binding: EntityBinding) throws
        -> [T]
    {
        // Room made first for what the keys or the limit allow, or a few dozen models: a list grown from one model
        // makes a new array at 1, 2, 4, 8, ... models, each an allocation and a copy.
        var results = ModelList(capacity: max(0, min(request.keys?.count ?? request.fetchLimit ?? 64, 64)))
        let plan = plan ?? binding.store.prepare(request)
        try withMaterializer(
            T.self, binding: binding, properties: request.properties,
            subentityProperties: request.subentityProperties
        ) { materialize in
            try binding.store.fetch(request, plan: plan) { key, reader in
                results.append(try materialize(key, reader, 1, nil))
            }
        }
        return results.models(of: T.self)
    }

    /// Runs `body` with a function that turns a row (its key, and its properties from a reader's column onward)
    /// into the context's object for it: the registered one, refreshed where it has no unsaved changes, or a new
    /// one. Rows of the members of a relationship come with the key of their owner (`nil` otherwise): a member's
    /// reference to its owner (`linking`) is that key, not read again from the row. To-one relationships stored in the row resolve to registered models or to models loaded later; one
    /// whose target holds the model back (`linking`, the inverse of the relationship whose members are loading, or
    /// a registered target whose inverse is loaded) is linked rather than held (see `_PersistentState`). For an
    /// entity with subentities, the row's entity name comes first, and each row becomes a model of its own class
    /// (see `RowStore.fetch`).
    func withMaterializer<T: PersistentModel>(
        _ type: T.Type, binding: EntityBinding, properties: [Int], linking: Schema.Relationship? = nil,
        subentityProperties: [SubentityProperties] = [], keysAreDistinct: Bool = true,
        _ body: (_ materialize: (Int64, any _RowReader, Int32, Int64?) throws -> T) throws -> Void
    ) throws {
        var unresolved: [UnresolvedReference] = []
        if binding.entity.fetchReadsEntity {
            try context.withHierarchyMaterializer(
                T.self, binding: binding, properties: properties, linking: linking,
                subentityProperties: subentityProperties, keysAreDistinct: keysAreDistinct, unresolved: &unresolved,
                body)
        } else {
            try withMaterializer(
                T.self, binding: binding, properties: properties, columns: nil, linking: linking,
                keysAreDistinct: keysAreDistinct, unresolved: &unresolved, body)
        }
        if !unresolved.isEmpty { try context.resolve(unresolved) }
    }

    /// `withMaterializer` for models of one class. Property `properties[i]` is read from column `first + i`, or
    /// `first + columns[i]` when given; references to models whose class only their row tells are left in
    /// `unresolved`. `keysAreDistinct` is `false` when rows may repeat a key (the members of a many-to-many
    /// relationship of several owners).
    func withMaterializer<T: PersistentModel>(
        _ type: T.Type, binding: EntityBinding, properties: [Int], columns: [Int32]?,
        linking: Schema.Relationship?, keysAreDistinct: Bool = true, unresolved: inout [UnresolvedReference],
        _ body: (_ materialize: (Int64, any _RowReader, Int32, Int64?) throws -> T) throws -> Void
    ) throws {
        let materializer = try ClassMaterializer(
            T.self, fetcher: self, binding: binding, properties: properties, columns: columns, linking: linking,
            keysAreDistinct: keysAreDistinct)
        try body(materializer.materialize)
        unresolved += materializer.unresolved
    }

    /// A store error about a value, with the model and property it belongs to.
    func naming(_ error: any Error, property: Int, binding: EntityBinding) -> any Error {
        guard let error = error as? SwiftDataError, error.modelName == nil else { return error }
        // `indexedProperties` counts a subclass's inherited properties too, as `property` does.
        let properties = binding.entity.indexedProperties
        let name = properties.indices.contains(property) ? properties[property].name : "#\(property)"
        return error.with(model: binding.entity.name, property: name)
    }

    /// Replaces a registered model's attribute with the stored value when they differ, telling observers; a value
    /// not loaded yet just loads.
    func refresh(_ property: Int, of model: some PersistentModel, from reader: any _RowReader, column: Int32)
        throws
    {
        guard case .loaded(let current) = model._$get(property) else {
            return try model._$load(property, from: reader, column: column)
        }
        if let stored = try? StoreValue(encoding: current), reader.holds(stored, column) { return }
        try model._$load(property, from: reader, column: column)
        try model._$set(property, model._$get(property))
    }

    /// Loads an attribute that Core converts: an externally stored one the store keeps apart from the row waits for
    /// its first read, keeping its reference; another decodes through its coding.
    func loadCoded(
        _ property: Int, of model: some PersistentModel, from reader: any _RowReader, column: Int32,
        binding: EntityBinding
    ) throws {
        let data: Data?
        if binding.externalAttributes.contains(property) {
            switch try reader.external(column) {
            case .reference(let reference):
                model.unload(property)
                model._$persistentState.externalReferences = (model._$persistentState.externalReferences ?? [:])
                    .merging([property: reference]) { $1 }
                return
            case .data(let stored):
                data = stored
            }
        } else {
            data = reader.isNull(column) ? nil : try reader.data(column)
        }
        try model._$set(property, .loaded(decode(data, property: property, binding: binding)))
    }

    /// The property value of a converted attribute's stored data, through the attribute's coding.
    func decode(_ stored: Data?, property: Int, binding: EntityBinding) throws -> Any? {
        if let coding = binding.entity.attribute(at: property)?.coding { return try coding.decode(stored) }
        return stored
    }

    /// The models with the given keys; with `inOrder`, in the order of `keys` (rows that no longer exist are
    /// left out).
    func load<T: PersistentModel>(_ type: T.Type, keys: [Int64], binding: EntityBinding, inOrder: Bool = false)
        throws -> [T]
    {
        var request = FetchRequest<T>(entity: binding.entity, properties: binding.fetchedProperties)
        request.keys = keys
        request.subentityProperties = binding.subentityProperties
        let models = try load(request, binding: binding)
        // Rows come in key order: keys in that order need no reordering (rows that are gone just leave gaps).
        guard inOrder, !zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return models }
        let byKey = Dictionary(models.map { ($0._$persistentState.key, $0) }, uniquingKeysWith: { first, _ in first })
        return keys.compactMap { byKey[$0] }
    }

    /// Reloads the stored values of registered models (after `rollback()`).
    func reload(_ models: [any PersistentModel]) throws {
        var keysByType: [ObjectIdentifier: (type: any PersistentModel.Type, keys: [Int64])] = [:]
        for model in models {
            let type = Swift.type(of: model)
            keysByType[ObjectIdentifier(type), default: (type, [])].keys.append(model._$persistentState.key)
        }
        for (type, keys) in keysByType.values {
            for model in models where Swift.type(of: model) == type {
                // Changed relationships that live outside the row load again when next read.
                let lazy = model._$persistentState.binding?.lazyRelationships ?? []
                for property in lazy where model._$persistentState.changes.contains(property) {
                    model.unload(property)
                }
            }
            registry.markUnchanged(models.filter { Swift.type(of: $0) == type })
            try reload(type, keys: keys)
        }
    }

    private func reload<T: PersistentModel>(_ type: T.Type, keys: [Int64]) throws {
        _ = try load(T.self, keys: keys, binding: try context.binding(for: T.self))
    }

    /// The primary keys a descriptor selects in the store, in order.
    func storedKeys<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, binding: EntityBinding, includingSubentities: Bool = true
    ) throws -> [Int64] {
        var request = try request(descriptor, binding: binding, window: true)
        request.properties = []
        request.includesSubentities = includingSubentities
        let plan = descriptor.planMemo.plan(for: request, from: binding.store)
        guard plan.coverage.isComplete else {
            return try storedModels(descriptor, binding: binding, window: true).filter {
                includingSubentities || type(of: $0) == T.self
            }.map { $0._$persistentState.key }
        }
        var keys: [Int64] = []
        try binding.store.fetch(request, plan: plan) { key, _ in keys.append(key) }
        return keys
    }

    /// The identifiers of the stored models a descriptor selects, in order, each of its model's entity.
    private func storedIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, binding: EntityBinding) throws
        -> [PersistentIdentifier]
    {
        guard binding.entity.fetchReadsEntity else {
            return try storedKeys(descriptor, binding: binding).map { binding.identifier(forKey: $0) }
        }
        var request = try request(descriptor, binding: binding, window: true)
        request.properties = []
        request.subentityProperties = []
        let plan = descriptor.planMemo.plan(for: request, from: binding.store)
        guard plan.coverage.isComplete else {
            return try storedModels(descriptor, binding: binding, window: true).map(\.persistentModelID)
        }
        var identifiers: [PersistentIdentifier] = []
        try binding.store.fetch(request, plan: plan) { key, reader in
            // The row's entity (column 1, see `RowStore.fetch`) names it.
            let entityBinding =
                reader.isNull(1) ? binding : context.container.binding(forEntityName: try reader.string(1))
            identifiers.append((entityBinding ?? binding).identifier(forKey: key))
        }
        return identifiers
    }

    // MARK: Pending changes

    /// Whether unsaved changes of this context can change what the descriptor selects, or their order: changes of
    /// its model, or of models its predicate or sort reaches through relationships.
    func mergesPendingChanges<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: Schema.Entity)
        -> Bool
    {
        // Without unsaved changes, as most contexts fetch, there is nothing to look at by type, predicate or sort.
        guard descriptor.includePendingChanges, context.hasChanges else { return false }
        if hasPendingChanges(for: T.self) { return true }
        return relatedModelsChanged(descriptor.predicate) || sortMayReadChangedModels(descriptor, entity: entity)
    }

    private func hasPendingChanges<T: PersistentModel>(for type: T.Type) -> Bool {
        registry.hasPendingChanges(for: T.self) || !deletedRowKeys(of: T.self).isEmpty
    }

    /// The keys of stored rows that `delete(model:where:)` or its cascades delete at the next save, of `T`'s table:
    /// a hierarchy's rows may have been deleted as any of its classes.
    private func deletedRowKeys<T: PersistentModel>(of type: T.Type) -> Set<Int64> {
        guard !context.deletedRows.isEmpty else { return [] }
        guard let entity = try? context.cachedBinding(for: T.self).entity, entity.isInHierarchy else {
            return context.deletedRows[Schema.entityName(for: T.self)] ?? []
        }
        return entity.rootEntity.selfAndDescendants.reduce(into: []) {
            $0.formUnion(context.deletedRows[$1.name] ?? [])
        }
    }

    private func refuseBatchingPendingChanges<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, entity: Schema.Entity
    ) throws {
        if mergesPendingChanges(descriptor, entity: entity) {
            throw SwiftDataError.includePendingChangesWithBatchSize.with(
                reason: "the context has unsaved changes to \(T.self) that a batched fetch cannot merge",
                model: entity.name, suggestion: "Save first, or set includePendingChanges = false")
        }
    }

    /// Combines stored results with unsaved inserts, changes and deletes, then sorts and windows them. With
    /// `reevaluating`, unchanged stored models are tested against the predicate too.
    private func mergePendingChanges<T: PersistentModel>(
        into stored: [T], _ descriptor: FetchDescriptor<T>, reevaluating: Bool
    ) throws -> [T] {
        let deletedRows = deletedRowKeys(of: T.self)
        func matches(_ model: T) throws -> Bool { try descriptor.predicate?.evaluate(model) ?? true }

        var results: [T] = []
        for model in stored {
            guard model._$persistentState.status == .registered, model._$persistentState.changes.isEmpty,
                !deletedRows.contains(model._$persistentState.key)
            else { continue }
            if reevaluating, try !matches(model) { continue }
            results.append(model)
        }
        let changed = registry.pendingChanges.compactMap { $0 as? T }.filter {
            !deletedRows.contains($0._$persistentState.key)
        }
        for model in changed + registry.pendingInserts.compactMap({ $0 as? T }) where try matches(model) {
            results.append(model)
        }
        if !descriptor.sortBy.isEmpty {
            // Ties keep insertion order, as in the store: saved models by key, then new ones as they were inserted.
            let saved = results.filter { $0._$persistentState.status == .registered }
            let new = results.filter { $0._$persistentState.status != .registered }
            results = saved.sorted { $0._$persistentState.key < $1._$persistentState.key } + new
            results.sort(using: descriptor.sortBy)
        }
        return descriptor.window(results)
    }
}
