import Foundation

/// Deletes as the context sees them before the save: `delete(model:where:)` acts on what exists when it is called,
/// and `.cascade` rules delete the related models at once (registered ones are marked deleted, stored ones that
/// no model stands for are remembered in `deletedRows`), so fetches that include queue changes leave them out.
/// `.deny`, `.nullify` and the required to-one checks apply at save, to the state the save leaves.
extension ModelContext {
    /// Deletes every model of the type the predicate selects (all of them without one) at the next save: the
    /// stored rows that match and the models of the context that match (inserted ones included), when it is
    /// called. Models inserted afterwards are never affected, also when their unique values equal a deleted row's:
    /// the save deletes before it inserts. Until the save, fetches that include queue changes leave the deleted
    /// models out, and those their cascade rules reach. With `includeSubclasses` (the default), models of the
    /// type's subclasses are deleted too; without it, only models of exactly this class.
    ///
    /// Called while a save writes its rows (by a value transformer, an `Encodable` attribute's encoding, or an
    /// observer they set off), it checks its predicate at once and acts when that save is done, on what the save
    /// left (on what was there before it, when it failed): what it deletes waits for the next save, as the other
    /// changes made meanwhile do.
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        if !isWritingSave { catchUp() }
        let binding = try binding(for: T.self)
        // The same request as `storedKeys` makes below, so its plan is prepared once.
        var probe = FetchRequest<T>(entity: binding.entity, predicate: predicate, properties: [])
        probe.includesSubentities = includeSubclasses
        if let predicate, !binding.store.prepare(probe).coverage.predicate,
            PredicateReach(predicate, in: container).readsOtherRows
        {
            // The rest would be evaluated on stored rows, which have neither relationships nor identifiers.
            throw SwiftDataError.unsupportedPredicate.with(
                reason: "part of the predicate has no SQL translation and reads relationships or identifiers",
                model: binding.entity.name, suggestion: "Fetch the models and delete them one by one")
        }
        guard !isWritingSave else {
            // The rows the save is writing are neither stored nor queue: acting now would miss some of them, and
            // the save would then take its new models for saved ones.
            callsAfterWrite.append { context in
                try context.delete(model: T.self, where: predicate, includeSubclasses: includeSubclasses)
            }
            return
        }
        var stored = FetchDescriptor<T>(predicate: predicate)
        stored.includePendingChanges = false
        var matched: [T] = []
        var rows: [Int64] = []
        // A model of a subclass is registered as its own class.
        let classes = includeSubclasses ? binding.entity.selfAndDescendants : [binding.entity]
        for key in try fetcher.storedKeys(stored, binding: binding, includingSubentities: includeSubclasses) {
            if let model = registeredModel(key: key, in: binding.entity) as? T {
                if includeSubclasses || type(of: model) == T.self { matched.append(model) }
            } else {
                rows.append(key)
            }
        }
        let unsaved =
            classes.compactMap(\.modelType).flatMap { registry.models(ofType: $0) }.compactMap { $0 as? T }.filter {
                $0._$persistentState.status == .registered
            } + registry.pendingInserts.compactMap { $0 as? T }.filter { includeSubclasses || type(of: $0) == T.self }
        for model in unsaved where try predicate?.evaluate(model) ?? true { matched.append(model) }
        if !rows.isEmpty { try deleteRows(rows, of: binding) }
        for model in matched { delete(model) }
        scheduleAutosave()
    }

    /// Deletes what the `.cascade` relationships of a model being deleted reach, as the context sees them.
    func cascadeDelete(from model: some PersistentModel, entity: Schema.Entity?) {
        guard let entity, entity.orderedRelationships.contains(where: { $0.deleteRule == .cascade }) else { return }
        for relationship in entity.orderedRelationships where relationship.deleteRule == .cascade {
            if !model._$get(relationship.index).isLoaded, model._$persistentState.status == .deleted {
                loadUnloaded(model, property: relationship.index)
            }
            let related = model._$get(relationship.index).relatedModels ?? []
            for other in related where other._$persistentState.isManaged(by: self) {
                delete(other)
            }
        }
    }

    /// A model whose insert is cancelled (deleted before it was saved) leaves the relationships of the context's
    /// other models at once, whatever their delete rules, with or without an inverse: nothing may refer to a model
    /// that no save will write.
    func removeReferences(toCancelled model: any PersistentModel, entity: Schema.Entity?) {
        guard let entity else { return }
        // A relationship to a superclass may hold the model too.
        var names: Set<String> = []
        var level: Schema.Entity? = entity
        while let current = level {
            names.insert(current.name)
            level = current.superentity
        }
        let inserted = registry.pendingInserts
        for holderEntity in container.schema.entities {
            let references = holderEntity.orderedRelationships.filter { names.contains($0.destination) }
            guard !references.isEmpty, let type = holderEntity.modelType else { continue }
            let holders = registry.models(ofType: type) + inserted.filter { Swift.type(of: $0) == type }
            for holder in holders {
                for reference in references { Relationships.remove(model, from: holder, reference) }
            }
        }
    }

    /// Deletes stored rows that no registered model stands for at the next save, with what their cascade rules
    /// reach in the store; a registered model reached is deleted as the context sees it (one whose unsaved change
    /// moved it away from the deleted rows stays).
    func deleteRows(_ keys: [Int64], of binding: EntityBinding) throws {
        var queue = [(binding, keys)]
        while let (binding, keys) = queue.popLast() {
            var known = deletedRows.removeValue(forKey: binding.entity.name) ?? []
            let new = keys.filter { known.insert($0).inserted }
            deletedRows[binding.entity.name] = known
            guard !new.isEmpty else { continue }
            // The rows may be of subentities (a delete of a superclass), whose own rules apply too.
            for (owner, relationship) in cascades(of: binding) {
                guard let type = relationship.destinationType, let destination = container.binding(for: type) else {
                    continue
                }
                var rows: [Int64] = []
                for key in try storedMembers(of: relationship, owners: new, binding: owner, destination: destination) {
                    guard let model = registeredTarget(of: relationship, key: key) else {
                        rows.append(key)
                        continue
                    }
                    if let inverse = relationship.inverse, model._$persistentState.changes.contains(inverse.index) {
                        let owners = model._$get(inverse.index).relatedModels ?? []
                        let stillOwned = owners.contains {
                            $0._$persistentState.status == .deleted
                                || deletedRows[binding.entity.name]?.contains($0._$persistentState.key) == true
                        }
                        if !stillOwned { continue }
                    }
                    delete(model)
                }
                if !rows.isEmpty { queue.append((destination, rows)) }
            }
        }
    }

    /// The `.cascade` relationships of the entity and of the entities below it, each with the binding of the entity
    /// that declares it (rows of a superentity's table may be of any of them).
    private func cascades(of binding: EntityBinding) -> [(EntityBinding, Schema.Relationship)] {
        let own = binding.entity.orderedRelationships.filter { $0.deleteRule == .cascade }.map { (binding, $0) }
        guard !binding.entity.subentities.isEmpty else { return own }
        return own
            + binding.entity.selfAndDescendants.dropFirst().flatMap { entity in
                guard let type = entity.modelType, let subentity = container.binding(for: type) else {
                    return [(EntityBinding, Schema.Relationship)]()
                }
                return entity.ownRelationships.filter { $0.deleteRule == .cascade }.map { (subentity, $0) }
            }
    }

    /// The keys of the stored members of a relationship of the given owners.
    private func storedMembers(
        of relationship: Schema.Relationship, owners: [Int64], binding: EntityBinding, destination: EntityBinding
    ) throws -> [Int64] {
        var members: [Int64] = []
        guard relationship.storage == .column else {
            try binding.store.fetchMembers(
                of: relationship, owners: owners, destination: destination.entity, properties: [],
                subentityProperties: []
            ) { _, member, _ in members.append(member) }
            return members
        }
        // A to-one relationship kept in the owner's row: read the owners' foreign keys.
        func read<M: PersistentModel>(_ type: M.Type) throws {
            var request = FetchRequest<M>(entity: binding.entity, properties: [relationship.index])
            request.keys = owners
            try binding.store.fetch(request) { _, reader in
                if !reader.isNull(1) { members.append(try reader.int64(1)) }
            }
        }
        if let type = binding.entity.modelType { try read(type) }
        return members
    }
}
