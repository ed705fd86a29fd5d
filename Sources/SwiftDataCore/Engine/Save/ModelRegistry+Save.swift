extension ModelRegistry {
    /// The apply phase of a save, once its rows are committed: ends the pending lists, registers the inserted models
    /// under their new keys, marks the changed ones unchanged, and puts back into the lists what was inserted, changed
    /// or deleted while the save wrote (`others`). Nothing here tells observers of a change: a change, insert or
    /// delete an observer makes afterwards goes into the next save's lists instead of being dropped with these.
    func applySave(
        _ operation: SaveOperation, of context: ModelContext,
        relisting others: (
            inserted: [any PersistentModel], changed: [any PersistentModel], deleted: [any PersistentModel]
        )?
    ) -> SaveOutcome {
        let listed = endPending()
        if listed.count != operation.updates.count || others != nil {
            // The changed list also held models that are not saved as changed (deleted, or changed back).
            for model in listed { model._$persistentState.isInChangedList = false }
        }
        var outcome = SaveOutcome()
        registerInserts(operation, of: context, &outcome)
        // The changed models: saved, so none of their properties changed, and out of the changed list.
        var lastBinding: EntityBinding?
        for model in operation.updates {
            model._$persistentState.changes.removeAll()
            model._$persistentState.isInChangedList = false
            guard let binding = model._$persistentState.binding else { continue }
            if binding !== lastBinding {
                lastBinding = binding
                outcome.hasRelationships = outcome.hasRelationships || !binding.entity.orderedRelationships.isEmpty
            }
            outcome.updated.append(binding.identifier(forKey: model._$persistentState.key))
        }
        // What was inserted, changed or deleted while the save wrote, and not written by it, waits for the next save.
        if let others { relist(others) }
        return outcome
    }

    /// Registers the save's new models under the keys the store gave them; those that became stored rows by their
    /// unique values (upserts) are left to `ModelContext.settleSave`, where observers may run.
    private func registerInserts(_ operation: SaveOperation, of context: ModelContext, _ outcome: inout SaveOutcome) {
        outcome.inserted.reserveCapacity(operation.inserts.count)
        outcome.updated.reserveCapacity(operation.updates.count)
        let duplicates = Set(operation.merged.map(\.duplicate))
        var map: (binding: EntityBinding, map: IdentityMap)?
        for (position, binding) in operation.insertBindings.enumerated()
        where duplicates.isEmpty || !duplicates.contains(position) {
            guard position < operation.insertedKeys.count, let key = operation.insertedKeys[position] else { continue }
            let model = operation.inserts[position]
            // Models come grouped by type, mostly: the identity map is looked up when the type changes.
            if map?.binding !== binding {
                map = (binding, self.map(for: ObjectIdentifier(type(of: model))))
                outcome.hasRelationships = outcome.hasRelationships || !binding.entity.orderedRelationships.isEmpty
            }
            guard let identityMap = map?.map else { continue }
            if !operation.upserts.isEmpty, operation.upserts[position] {
                // The new model became a stored row (registered later, where observers may run).
                outcome.upserted.append((model, binding, key))
                outcome.updated.append(binding.identifier(forKey: key))
            } else {
                // A new key: no model of the context has it. The lists ended above, so the model is in none of them.
                register(model, of: context, key: key, binding: binding, in: identityMap, isNew: true, isListed: false)
                outcome.inserted.append(binding.identifier(forKey: key))
            }
        }
    }
}
