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
        /// Apple's query generation token; `didSave` does not carry one here (there are no query generations).
        case queryGeneration
        /// Apple's key for "every identifier is invalid"; `didSave` does not use it here.
        case invalidatedAllIdentifiers
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save changed.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
    }

    /// Writes every pending insert, change and delete, all or nothing per store. On failure nothing is
    /// written and the changes stay pending.
    public func save() throws {
        processPendingChanges()
        applyPendingChanges()
        let inserts = inserted.filter { $0._$persistentState.status == .inserted }
        let updates = changed.filter {
            let state = $0._$persistentState
            return state.status == .registered && !state.changes.isEmpty
        }
        let deletes = deleted.filter { $0._$persistentState.status == .deleted }
        let batches = batchDeletes
        guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty || !batches.isEmpty else {
            resetPendingLists()
            return
        }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)

        var operation = SaveOperation(
            context: self, inserts: inserts, insertBindings: try inserts.map { try cachedBinding(for: type(of: $0)) },
            updates: updates, deletes: deletes, batches: batches)
        try operation.validate()
        for store in storesInvolved(
            inserts: operation.insertBindings, updates: updates, deletes: deletes, batches: batches)
        {
            guard store.configuration.allowsSave else {
                throw SwiftDataError.storeError.with(
                    reason: "the store '\(store.configuration.name)' was opened with allowsSave: false",
                    suggestion: "Open it with allowsSave: true to save, or call rollback()")
            }
            try store.write { transaction in try operation.write(transaction, store: store) }
        }

        // Everything is committed: bring the models' states up to date.
        var insertedIdentifiers: [PersistentIdentifier] = []
        var updatedIdentifiers: [PersistentIdentifier] = []
        let duplicates = Set(operation.merged.map { ObjectIdentifier($0.duplicate) })
        for (model, binding) in zip(inserts, operation.insertBindings)
        where duplicates.isEmpty || !duplicates.contains(ObjectIdentifier(model)) {
            guard let key = operation.insertedKeys[ObjectIdentifier(model)] else { continue }
            if !operation.upserts.isEmpty, operation.upserts[ObjectIdentifier(model)] != nil {
                // The new model became a stored row: it replaces the context's old object for that row, and its
                // to-many relationships load again to include the row's members.
                if let old = registry[ObjectIdentifier(type(of: model))]?[key] as? any PersistentModel, old !== model {
                    detach(old)
                }
                register(model, key: key, binding: binding)
                for property in binding.lazyRelationships { model._$set(property, nil) }
                updatedIdentifiers.append(model.persistentModelID)
            } else {
                register(model, key: key, binding: binding)
                insertedIdentifiers.append(model.persistentModelID)
            }
        }
        for (duplicate, _) in operation.merged {
            duplicate._$persistentState.status = .detached
            duplicate._$persistentState.context = nil
        }
        updatedIdentifiers += updates.map(\.persistentModelID)
        for model in updates { model._$persistentState.changes.removeAll() }
        var deletedIdentifiers: [PersistentIdentifier] = []
        for (entityName, keys) in operation.deletedKeys {
            guard let binding = container.binding(forEntityName: entityName) else { continue }
            let typeKey = binding.entity.modelType.map { ObjectIdentifier($0) }
            var map = typeKey.flatMap { registry.removeValue(forKey: $0) } ?? [:]
            for key in keys.sorted() {
                deletedIdentifiers.append(identifier(key: key, binding: binding))
                if let model = map.removeValue(forKey: key) as? any PersistentModel { markDetached(model) }
            }
            if let typeKey, !map.isEmpty { registry[typeKey] = map }
        }
        for model in deletes where model._$persistentState.status == .deleted { detach(model) }
        if !operation.deletedKeys.isEmpty { removeReferences(toDeleted: operation.deletedKeys) }
        resetPendingLists()
        saveCount += 1
        publishSave(inserted: insertedIdentifiers, updated: updatedIdentifiers, deleted: deletedIdentifiers)
        NotificationCenter.default.post(
            name: ModelContext.didSave, object: self,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: insertedIdentifiers,
                NotificationKey.updatedIdentifiers.rawValue: updatedIdentifiers,
                NotificationKey.deletedIdentifiers.rawValue: deletedIdentifiers,
            ])
    }

    /// After deletes are committed, takes the deleted models out of the loaded relationships of the models left,
    /// as the store did (except where the delete rule is `.noAction`).
    func removeReferences(toDeleted deleted: [String: Set<Int64>]) {
        for entity in container.schema.entities {
            let references = entity.orderedRelationships.filter {
                deleted[$0.destination] != nil && $0.inverse?.deleteRule != .noAction
            }
            guard !references.isEmpty, let type = entity.modelType else { continue }
            for object in registry[ObjectIdentifier(type)]?.values.map({ $0 }) ?? [] {
                guard let model = object as? any PersistentModel else { continue }
                for reference in references {
                    guard let value = model._$get(reference.index) as? any _RelationshipValue else { continue }
                    let related = value._relatedModels
                    let kept = related.filter { other in
                        !(other._$persistentState.status == .detached
                            && deleted[reference.destination]?.contains(other._$persistentState.key) == true)
                    }
                    guard kept.count != related.count else { continue }
                    model._$set(
                        reference.index,
                        reference.isToOneRelationship
                            ? (kept.first.map { $0 as Any } ?? Optional<Any>.none as Any) : typed(kept, reference))
                }
            }
        }
    }

    func typed(_ models: [any PersistentModel], _ relationship: Schema.Relationship) -> Any {
        func cast<D: PersistentModel>(_ type: D.Type) -> Any { models.compactMap { $0 as? D } }
        return relationship.destinationType.map { cast($0) } ?? models
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
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        let binding = try binding(for: T.self)
        // Translate now, so an unsupported predicate fails here rather than at save.
        var probe = FetchRequest<T>(entity: binding.entity, predicate: predicate, properties: [])
        probe.fetchLimit = 0
        _ = try binding.store.fetchCount(probe)
        if let predicate, !binding.store.coverage(of: probe).predicate,
            PredicateReach(predicate, in: container).readsOtherRows
        {
            // The store evaluates the rest on rows, which have neither relationships nor identifiers.
            throw SwiftDataError.unsupportedPredicate.with(
                reason: "part of the predicate has no SQL translation and reads relationships or identifiers",
                model: binding.entity.name, suggestion: "Fetch the models and delete them one by one")
        }
        batchDeletes.append(
            PendingBatchDelete(
                modelType: T.self,
                matches: { model in
                    guard let model = model as? T else { return false }
                    return try predicate?.evaluate(model) ?? true
                },
                keys: { transaction in
                    try transaction.fetchKeys(
                        FetchRequest<T>(entity: binding.entity, predicate: predicate, properties: []))
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

    private func detach(_ model: any PersistentModel) {
        registry[ObjectIdentifier(type(of: model))]?[model._$persistentState.key] = nil
        markDetached(model)
    }

    /// Marks a model that left the registry as no longer managed.
    private func markDetached(_ model: any PersistentModel) {
        let state = model._$persistentState
        state.status = .detached
        state.context = nil
        state.changes.removeAll()
    }

    func detachRegistered(_ binding: EntityBinding, key: Int64) {
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
