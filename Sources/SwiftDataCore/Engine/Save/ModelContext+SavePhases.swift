import Foundation

/// The phases of `save()` after the first check: prepare (the lists to write, `willSave`), validate
/// (`SaveOperation.validate`), write (each store's transaction), apply (`ModelRegistry.applySave`), settle (what may
/// tell observers: upserts, deletes, links) and publish (undo, notices, `didSave`). See Engine/ENGINE.md.
extension ModelContext {
    /// The prepare phase: ends the undo group, applies notices, reads the pending lists and posts `willSave` (whose
    /// observers may add to them). Returns `nil` when there is nothing to write, having ended the save.
    func prepareSave() throws -> SaveOperation? {
        processPendingChanges()
        applyNotices()
        let generation = registry.generation
        var inserts = registry.pendingInserts
        var updates = registry.pendingChanges
        var deletes = registry.pendingDeletes
        guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty || !deletedRows.isEmpty else {
            resetPendingLists()
            return nil
        }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)
        if registry.generation != generation {
            // A `willSave` observer changed, inserted or deleted models: this save writes them too.
            inserts = registry.pendingInserts
            updates = registry.pendingChanges
            deletes = registry.pendingDeletes
            guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty || !deletedRows.isEmpty else {
                // Nothing is left to write; the save is done all the same, and says so, as every `willSave` is
                // followed by a `didSave` when the save succeeds.
                resetPendingLists()
                NotificationCenter.default.post(
                    name: ModelContext.didSave, object: self,
                    userInfo: [
                        NotificationKey.insertedIdentifiers.rawValue: [PersistentIdentifier](),
                        NotificationKey.updatedIdentifiers.rawValue: [PersistentIdentifier](),
                        NotificationKey.deletedIdentifiers.rawValue: [PersistentIdentifier](),
                    ])
                return nil
            }
        }
        return SaveOperation(
            context: self, inserts: inserts, insertBindings: try inserts.map { try cachedBinding(for: type(of: $0)) },
            updates: updates, deletes: deletes, deletedRows: deletedRows)
    }

    /// The write phase: one transaction per store involved. Code the writing runs (a value transformer, an
    /// `Encodable` attribute, an observer they set off) may change, insert or delete models after the save read their
    /// values: those changes are returned, to stay pending. On failure nothing is written.
    func writeSave(_ operation: inout SaveOperation) throws -> SaveWriteAftermath {
        let writtenGeneration = registry.generation
        watchWrites()
        do {
            for store in storesInvolved(
                inserts: operation.insertBindings, updates: operation.updates, deletes: operation.deletes,
                deletedRows: operation.deletedRows)
            {
                guard store.allowsSave else {
                    throw SwiftDataError.storeError.with(
                        reason: "the store '\(store.configurationName)' was opened with allowsSave: false",
                        suggestion: "Open it with allowsSave: true to save, or call rollback()")
                }
                var written: (any RowStoreTransaction)?
                // A store may run the transaction again once the server rolled it back (a PostgreSQL deadlock): each
                // run starts from the operation as it was before the first.
                let start = operation
                let deletedBefore = operation.deleted.order
                var runs = 0
                try store.write(for: editingState) { transaction in
                    runs += 1
                    if runs > 1 {
                        operation = start
                        operation.deleted.restore(deletedBefore)
                    }
                    try operation.write(transaction, store: store)
                    written = transaction
                }
                if let token = written?.savedHistoryToken { operation.providedHistoryToken = token }
                if let number = written?.committedHistoryNumber { operation.historyNumbers[store.identifier] = number }
            }
        } catch {
            _ = endWatchingWrites()
            guard let lateError = runCallsMadeWhileWriting() else { throw error }
            throw Self.saveError(error, withLateDeleteError: lateError)
        }
        let changedWhileWriting = endWatchingWrites()
        let others =
            registry.generation == writtenGeneration && changedWhileWriting.isEmpty
            ? nil : registry.pending(besides: operation.inserts, operation.updates, operation.deletes)
        return SaveWriteAftermath(changedWhileWriting: changedWhileWriting, others: others)
    }

    /// The settle phase, after `ModelRegistry.applySave`: what may tell observers of changes. Upserted models replace
    /// the context's old objects, merged duplicates leave, properties changed while the save wrote stay changed, and
    /// deleted models leave the context and every relationship.
    func settleSave(
        _ operation: SaveOperation, changedWhileWriting: [(model: any PersistentModel, property: Int)],
        _ outcome: inout SaveOutcome
    ) {
        for (model, binding, key) in outcome.upserted {
            // The new model became a stored row: it replaces the context's old object for that row, and its to-many
            // relationships load again to include the row's members.
            if let old = registry.anyModel(type(of: model), key: key), old !== model { registry.detach(old) }
            registry.register(model, of: self, key: key, binding: binding)
            for property in binding.lazyRelationships { model.unload(property) }
        }
        for (duplicate, _) in operation.merged { registry.detach(operation.inserts[duplicate]) }
        // A property changed while the save wrote may have been read before the change: it stays changed, so the next
        // save writes its value (again, when it was read after).
        for (model, property) in changedWhileWriting {
            guard model._$persistentState.isManaged(by: self), model._$persistentState.status == .registered,
                !model._$persistentState.changes.contains(property)
            else {
                continue
            }
            modelDidChange(model, property: property)
        }
        settleDeletes(operation, &outcome)
        if outcome.hasRelationships {
            linkHeldReferences(of: operation.inserts)
            linkHeldReferences(of: operation.updates)
        }
    }

    /// Deleted models and rows leave the context, and the relationships of the models left.
    private func settleDeletes(_ operation: SaveOperation, _ outcome: inout SaveOutcome) {
        // The deleted keys as sets, only when a relationship may refer to them.
        let deletedKeys = hasReferences(to: operation.deleted.order.keys) ? operation.deleted.keySets() : nil
        if let deletedKeys { holdLinkedTargets(withHierarchies(deletedKeys)) }
        var removed: [any PersistentModel] = []
        removed.reserveCapacity(operation.deletes.count)
        for model in operation.deletes where model._$persistentState.status == .deleted {
            registry.detach(model)
            removed.append(model)
        }
        // Rows the save deleted beyond the deleted models (cascades, `delete(model:where:)`) may have models too.
        let deletedCount = operation.deleted.count
        var hierarchyKeys: [String: Set<Int64>] = [:]
        outcome.deleted.reserveCapacity(deletedCount)
        for (entityName, ordered) in operation.deleted.order {
            guard let binding = container.binding(forEntityName: entityName) else { continue }
            var keys = ordered
            if binding.entity.isInHierarchy {
                // A row may have been deleted as more than one of its hierarchy's entities.
                let root = binding.entity.rootEntity.name
                let seen = hierarchyKeys[root] ?? []
                keys.removeAll { seen.contains($0) }
                hierarchyKeys[root, default: []].formUnion(keys)
            }
            // In key order; the keys mostly come in that order already (models fetched by key), which costs the sort
            // one pass.
            for key in keys.sorted() {
                // The model's identifier names its own class, which the row's entity may be above.
                let model = deletedCount > removed.count ? registeredModel(key: key, in: binding.entity) : nil
                outcome.deleted.append((model?._$persistentState.binding ?? binding).identifier(forKey: key))
                if let model {
                    registry.detach(model)
                    removed.append(model)
                }
            }
        }
        // A deleted model relates to nothing once the delete is saved, as in Apple's SwiftData.
        for model in removed { emptyRelationships(of: model) }
        if let deletedKeys { removeReferences(toDeleted: deletedKeys) }
    }

    /// The publish phase: the undo manager, the container's other contexts and `didSave`'s observers learn of the
    /// save. Throws when a `delete(model:where:)` called while the save wrote failed (the save stays committed).
    func publishSave(_ operation: SaveOperation, _ outcome: SaveOutcome) throws {
        undo.noteSave()
        postNotice(inserted: outcome.inserted, updated: outcome.updated, deleted: outcome.deleted)
        let lateError = runCallsMadeWhileWriting()
        postDidSave(operation, outcome)
        if let lateError {
            throw (lateError as? SwiftDataError ?? .storeError).with(
                reason:
                    "the save was committed, but a delete(model:where:) called while it wrote its rows failed: \((lateError as? SwiftDataError)?.reason ?? String(describing: lateError))",
                suggestion: "Call delete(model:where:) again, then save")
        }
    }

    /// Posts `didSave`, in a dictionary that has the keys already, filled in place (see `DidSaveInfo`): the one the
    /// last save posted, which it emptied, when it has the same keys, else a copy of the template.
    private func postDidSave(_ operation: SaveOperation, _ outcome: SaveOutcome) {
        let hasToken = !operation.historyNumbers.isEmpty || operation.providedHistoryToken != nil
        let template = hasToken ? DidSaveInfo.withTokens : DidSaveInfo.withoutTokens
        var userInfo = didSaveInfo.count == template.keys.count ? didSaveInfo : template.userInfo
        // Held here alone (unless an observer kept the last one), so that filling it copies nothing; a save that an
        // observer of this one makes starts from the template.
        didSaveInfo = [:]
        // A copy gets storage of its own here, laid out as the template's, before its positions are taken.
        userInfo.reserveCapacity(template.keys.count)
        var position = userInfo.startIndex
        for key in template.keys {
            switch key {
            case .insertedIdentifiers: userInfo.values[position] = outcome.inserted
            case .updatedIdentifiers: userInfo.values[position] = outcome.updated
            case .deletedIdentifiers: userInfo.values[position] = outcome.deleted
            case .historyTokens:
                // A store of your own gives its own token; the framework's stores, their history's positions.
                if let token = operation.providedHistoryToken, operation.historyNumbers.isEmpty {
                    userInfo.values[position] = token
                } else {
                    userInfo.values[position] = DefaultHistoryToken(positions: operation.historyNumbers)
                }
            case .queryGeneration, .invalidatedAllIdentifiers: break
            }
            userInfo.formIndex(after: &position)
        }
        NotificationCenter.default.post(name: ModelContext.didSave, object: self, userInfo: userInfo)
        // Kept for the next save with its values emptied, so that it holds no identifiers meanwhile. An observer that
        // kept the notification keeps its values: the dictionary is then copied here first, laid out alike.
        userInfo.reserveCapacity(template.keys.count)
        position = userInfo.startIndex
        while position != userInfo.endIndex {
            userInfo.values[position] = [PersistentIdentifier]()
            userInfo.formIndex(after: &position)
        }
        didSaveInfo = userInfo
    }

    /// The error of a failed save whose `delete(model:where:)`, called while it wrote its rows, failed too: the save's
    /// own error (its code, model, property, SQL and store error kept), its reason followed by the delete's error.
    /// An error of another type than `SwiftDataError` becomes a `storeError` that describes both.
    static func saveError(_ error: any Error, withLateDeleteError lateError: any Error) -> SwiftDataError {
        func describe(_ error: any Error) -> String {
            (error as? SwiftDataError)?.reason ?? String(describing: error)
        }
        let saveError = error as? SwiftDataError ?? .storeError
        return saveError.with(
            reason:
                "\(describe(error)); and a delete(model:where:) called while the save wrote its rows failed too, so it is not applied: \(lateError)",
            suggestion:
                "\(saveError.suggestion.map { "\($0). " } ?? "")Call delete(model:where:) again once the save succeeds")
    }

    /// Runs the calls made while the save wrote its rows (`delete(model:where:)`, `delete(_:)`, `rollback()`, undo and
    /// redo; see `callsAfterWrite`), every one of them, in order; returns the first error.
    func runCallsMadeWhileWriting() -> (any Error)? {
        guard !callsAfterWrite.isEmpty else { return nil }
        let deletes = callsAfterWrite
        callsAfterWrite = []
        var firstError: (any Error)?
        for delete in deletes {
            do { try delete(self) } catch { firstError = firstError ?? error }
        }
        return firstError
    }

    /// After deletes are committed, takes the deleted models out of the loaded relationships of the models left,
    /// as the store did (except where the delete rule is `.noAction`).
    func removeReferences(toDeleted deleted: [String: Set<Int64>]) {
        let deleted = withHierarchies(deleted)
        for entity in container.schema.entities {
            let references = entity.orderedRelationships.filter {
                deleted[$0.destination] != nil && $0.inverse?.deleteRule != .noAction
            }
            guard !references.isEmpty, let type = entity.modelType else { continue }
            for model in registry.models(ofType: type) {
                for reference in references {
                    if let key = model._$persistentState.linkedKey(reference.index) {
                        if deleted[reference.destination]?.contains(key) == true {
                            model.setBuilt(reference.index, nil)
                        }
                        continue
                    }
                    guard let related = model._$get(reference.index).relatedModels else { continue }
                    let kept = related.filter { other in
                        !(other._$persistentState.status == .detached
                            && deleted[reference.destination]?.contains(other._$persistentState.key) == true)
                    }
                    guard kept.count != related.count else { continue }
                    if reference.isToOneRelationship {
                        model.setBuilt(reference.index, kept.first)
                    } else {
                        model.setBuilt(reference.index, Relationships.typedArray(kept, of: reference))
                    }
                }
            }
        }
    }

    // MARK: Helpers

    /// The stores a save writes to: those of the models and rows it writes.
    private func storesInvolved(
        inserts: [EntityBinding], updates: [any PersistentModel], deletes: [any PersistentModel],
        deletedRows: [String: Set<Int64>]
    ) -> [any RowStore] {
        // A container of one store (the common case) needs no look at the models: every binding is that store's.
        if container.stores.count == 1 { return container.stores }
        var stores: [any RowStore] = []
        // Models come grouped by type, mostly: a binding like the last one's adds nothing.
        var last: EntityBinding?
        func add(_ binding: EntityBinding?) {
            guard let binding, binding !== last else { return }
            last = binding
            let store = binding.store
            if !stores.contains(where: { $0 === store }) { stores.append(store) }
        }
        for binding in inserts { add(binding) }
        for model in updates { add(model._$persistentState.binding) }
        for model in deletes { add(model._$persistentState.binding) }
        for name in deletedRows.keys { add(container.binding(forEntityName: name)) }
        return stores
    }

    func detachRegistered(_ binding: EntityBinding, key: Int64) {
        guard let model = registeredModel(key: key, in: binding.entity) else { return }
        registry.detach(model)
    }

    /// Whether a relationship of any entity may refer to rows of the named entities (to a row of any entity of their
    /// hierarchies, which share their tables).
    private func hasReferences(to names: some Collection<String>) -> Bool {
        guard !names.isEmpty else { return false }
        var targets: Set<String> = []
        for name in names {
            guard let entity = container.schema.entitiesByName[name] else { continue }
            for member in entity.rootEntity.selfAndDescendants { targets.insert(member.name) }
        }
        return container.schema.entities.contains { entity in
            entity.orderedRelationships.contains { targets.contains($0.destination) }
        }
    }

    /// Deleted keys by entity name, with the keys of a hierarchy's entities under each of its entities' names:
    /// they are rows of one table, and references to any of its entities may name them.
    func withHierarchies(_ deleted: [String: Set<Int64>]) -> [String: Set<Int64>] {
        var result = deleted
        for (name, keys) in deleted {
            guard let entity = container.schema.entitiesByName[name], entity.isInHierarchy else { continue }
            for member in entity.rootEntity.selfAndDescendants where member.name != name {
                result[member.name, default: []].formUnion(keys)
            }
        }
        return result
    }

    private func resetPendingLists() {
        registry.resetPending()
        deletedRows = [:]
    }
}

/// The `userInfo` of `didSave`, made once with its keys: a save fills a copy's values by position. Inserting the
/// keys hashed each `AnyHashable` string key and, when two landed in the same bucket, compared them through the
/// runtime's casts: 3,400 to 6,000 instructions a save, with the hash seed; the copy costs one allocation and no hash.
private struct DidSaveInfo {
    /// The dictionary, with empty identifier lists for values.
    let userInfo: [AnyHashable: Any]
    /// Its keys, in the order its positions hold them.
    let keys: [ModelContext.NotificationKey]

    init(_ keys: [ModelContext.NotificationKey]) {
        var userInfo = [AnyHashable: Any](minimumCapacity: keys.count)
        for key in keys { userInfo[key.rawValue] = [PersistentIdentifier]() }
        self.userInfo = userInfo
        self.keys = userInfo.keys.compactMap { ($0.base as? String).flatMap(ModelContext.NotificationKey.init) }
    }

    // Safe without a lock: each is made once, then only read and copied; a copy changed gets storage of its own.
    nonisolated(unsafe) static let withoutTokens = DidSaveInfo([
        .insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers,
    ])
    nonisolated(unsafe) static let withTokens = DidSaveInfo([
        .insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers, .historyTokens,
    ])
}
