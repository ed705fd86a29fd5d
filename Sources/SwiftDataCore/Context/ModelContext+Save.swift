import Foundation

extension ModelContext {
    /// Posted before a save writes pending changes; `object` is the context.
    public static let willSave = Notification.Name("ModelContext.willSave")
    /// Posted after a save; `userInfo` holds `[PersistentIdentifier]` arrays under `NotificationKey` raw
    /// values.
    public static let didSave = Notification.Name("ModelContext.didSave")
    /// Not in Apple's API: posted when an autosave fails; `userInfo["error"]` holds the error.
    public static let didFailAutosave = Notification.Name("ModelContext.didFailAutosave")

    /// Keys of the `didSave` notification's `userInfo`.
    public enum NotificationKey: String, Sendable {
        case queryGeneration
        case invalidatedAllIdentifiers
        case insertedIdentifiers
        case updatedIdentifiers
        case deletedIdentifiers
    }

    /// Writes every pending insert, change and delete, all or nothing per store. On failure nothing is
    /// written and the changes stay pending.
    public func save() throws {
        let inserts = inserted.filter { $0._$persistentState.status == .inserted }
        let updates = changed.filter { $0._$persistentState.status == .registered && !$0._$persistentState.changes.isEmpty }
        let deletes = deleted.filter { $0._$persistentState.status == .deleted }
        let batches = batchDeletes
        guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty || !batches.isEmpty else {
            resetPendingLists()
            return
        }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)

        let insertBindings = try inserts.map { try binding(for: type(of: $0)) }
        var deletedIdentifiers = deletes.map(\.persistentModelID)
        var insertedKeys: [Int: Int64] = [:]
        var batchDeletedKeys: [(binding: EntityBinding, keys: [Int64])] = []
        let involvedStores = storesInvolved(inserts: insertBindings, updates: updates, deletes: deletes, batches: batches)
        for store in involvedStores {
            guard store.configuration.allowsSave else {
                throw SwiftDataError.storeError.with(
                    reason: "the store '\(store.configuration.name)' was opened with allowsSave: false",
                    suggestion: "Open it with allowsSave: true to save, or call rollback()")
            }
            try store.write { transaction in
                for batch in batches {
                    let binding = try binding(for: batch.modelType)
                    guard binding.store === store else { continue }
                    let keys = try batch.keys(transaction)
                    try transaction.delete(keys: keys, entity: binding.entity)
                    batchDeletedKeys.append((binding, keys))
                }
                for (entity, keys) in groupDeletes(deletes, store: store) {
                    try transaction.delete(keys: keys, entity: entity)
                }
                for (entity, positions) in groupInserts(insertBindings, store: store) {
                    let keys = try transaction.insert(positions.map { inserts[$0] }, entity: entity)
                    for (position, key) in zip(positions, keys) { insertedKeys[position] = key }
                }
                for model in updates where model._$persistentState.binding?.store === store {
                    guard let entity = model._$persistentState.binding?.entity else { continue }
                    try transaction.update(model, entity: entity, properties: model._$persistentState.changes)
                }
            }
        }

        // Everything is committed: bring the models' states up to date.
        var insertedIdentifiers: [PersistentIdentifier] = []
        for (position, model) in inserts.enumerated() {
            guard let key = insertedKeys[position] else { continue }
            register(model, key: key, binding: insertBindings[position])
            insertedIdentifiers.append(model.persistentModelID)
        }
        let updatedIdentifiers = updates.map(\.persistentModelID)
        for model in updates { model._$persistentState.changes.removeAll() }
        for model in deletes { detach(model) }
        for (binding, keys) in batchDeletedKeys {
            deletedIdentifiers += keys.map { identifier(key: $0, binding: binding) }
            for key in keys { detachRegistered(binding, key: key) }
        }
        resetPendingLists()
        NotificationCenter.default.post(
            name: ModelContext.didSave, object: self,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: insertedIdentifiers,
                NotificationKey.updatedIdentifiers.rawValue: updatedIdentifiers,
                NotificationKey.deletedIdentifiers.rawValue: deletedIdentifiers,
            ])
    }

    /// Runs `block`, then saves. If `block` throws, the context rolls back and the error propagates.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    /// Deletes every model of the type the predicate selects (all of them without one) at the next save. Until
    /// then, fetches that include pending changes leave them out.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        let binding = try binding(for: T.self)
        // Translate now, so an unsupported predicate fails here rather than at save.
        var probe = FetchRequest<T>(entity: binding.entity, predicate: predicate, properties: [])
        probe.fetchLimit = 0
        _ = try binding.store.fetchCount(probe)
        batchDeletes.append(
            PendingBatchDelete(
                modelType: T.self,
                matches: { model in
                    guard let model = model as? T else { return false }
                    return try predicate?.evaluate(model) ?? true
                },
                keys: { transaction in
                    try transaction.fetchKeys(FetchRequest<T>(entity: binding.entity, predicate: predicate, properties: []))
                }))
        for case let model as T in registry[ObjectIdentifier(T.self)]?.values.map({ $0 }) ?? []
        where model._$persistentState.status == .registered {
            if try predicate?.evaluate(model) ?? true { delete(model) }
        }
        scheduleAutosave()
    }

    // MARK: Helpers

    private func storesInvolved(
        inserts: [EntityBinding], updates: [any PersistentModel], deletes: [any PersistentModel],
        batches: [PendingBatchDelete]
    ) -> [any DataStore] {
        var stores: [any DataStore] = []
        func add(_ store: (any DataStore)?) {
            if let store, !stores.contains(where: { $0 === store }) { stores.append(store) }
        }
        inserts.forEach { add($0.store) }
        updates.forEach { add($0._$persistentState.binding?.store) }
        deletes.forEach { add($0._$persistentState.binding?.store) }
        batches.forEach { add(container.binding(for: $0.modelType)?.store) }
        return stores
    }

    private func groupInserts(_ bindings: [EntityBinding], store: any DataStore) -> [(Schema.Entity, [Int])] {
        var groups: [(Schema.Entity, [Int])] = []
        for (position, binding) in bindings.enumerated() where binding.store === store {
            if let index = groups.firstIndex(where: { $0.0 === binding.entity }) {
                groups[index].1.append(position)
            } else {
                groups.append((binding.entity, [position]))
            }
        }
        return groups
    }

    private func groupDeletes(_ models: [any PersistentModel], store: any DataStore) -> [(Schema.Entity, [Int64])] {
        var groups: [(Schema.Entity, [Int64])] = []
        for model in models {
            guard let binding = model._$persistentState.binding, binding.store === store else { continue }
            if let index = groups.firstIndex(where: { $0.0 === binding.entity }) {
                groups[index].1.append(model._$persistentState.key)
            } else {
                groups.append((binding.entity, [model._$persistentState.key]))
            }
        }
        return groups
    }

    private func detach(_ model: any PersistentModel) {
        registry[ObjectIdentifier(type(of: model))]?[model._$persistentState.key] = nil
        model._$persistentState.status = .detached
        model._$persistentState.context = nil
        model._$persistentState.changes.removeAll()
    }

    private func detachRegistered(_ binding: EntityBinding, key: Int64) {
        guard let type = binding.entity.modelType, let object = registry[ObjectIdentifier(type)]?[key],
            let model = object as? any PersistentModel
        else { return }
        detach(model)
    }

    private func resetPendingLists() {
        for model in changed { model._$persistentState.isInChangedList = false }
        inserted = []
        changed = []
        deleted = []
        batchDeletes = []
    }
}
