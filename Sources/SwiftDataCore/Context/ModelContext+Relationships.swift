import Foundation

extension ModelContext {
    /// The value of a to-one relationship whose stored key is `key`: the registered model, a model that loads when
    /// first read, or no model.
    func reference(to key: Int64?, _ relationship: Schema.Relationship) throws -> Any {
        guard let key else { return Optional<Any>.none as Any }
        guard let type = relationship.destinationType, let binding = container.binding(for: type) else {
            throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                reason:
                    "the relationship leads to \(relationship.destination), which is not one of the container's models",
                property: relationship.name, suggestion: "Add \(relationship.destination) to the container's models")
        }
        return registeredOrHollow(type, key: key, binding: binding)
    }

    private func registeredOrHollow<D: PersistentModel>(_ type: D.Type, key: Int64, binding: EntityBinding) -> D {
        if let object = registry[ObjectIdentifier(D.self)]?[key] { return unsafeDowncast(object, to: D.self) }
        var map = registry.removeValue(forKey: ObjectIdentifier(D.self)) ?? [:]
        defer { registry[ObjectIdentifier(D.self)] = map }
        return makeHollow(D.self, key: key, binding: binding, in: &map)
    }

    /// A registered model for the row `key` whose values load when one is first read (all such models of the
    /// entity load together, in one query).
    func makeHollow<D: PersistentModel>(
        _ type: D.Type, key: Int64, binding: EntityBinding, in map: inout [Int64: AnyObject]
    ) -> D {
        let model = D(backingData: DefaultBackingData(for: D.self))
        model._$persistentState.register(in: self, key: key, binding: binding)
        for property in binding.entity.storedProperties.indices { model._$set(property, nil) }
        map[key] = model
        hollow[ObjectIdentifier(D.self), default: []].append(key)
        return model
    }

    /// Loads property `property` of a registered model: its row, if the model was not loaded yet, or the
    /// relationship. Models of the same entity that need the same load are loaded with it, so walking a
    /// relationship across many models costs a constant number of queries.
    func faultIn<M: PersistentModel>(_ model: M, property: Int) {
        guard let binding = model._$persistentState.binding else { return }
        do {
            if model._$persistentState.externalReferences?[property] != nil {
                try faultInExternal(model, property: property, binding: binding)
            } else if let relationship = binding.entity.relationship(at: property), relationship.storage != .column {
                try loadRelationship(relationship, of: M.self, binding: binding, including: model)
            } else {
                try loadHollow(M.self, binding: binding, including: model._$persistentState.key)
            }
        } catch {
            Log.error("\(M.self).\(binding.entity.storedProperties[property].name) could not be loaded: \(error)")
        }
    }

    /// Reads an externally stored value on its first use. A file that is gone (another process replaced the value
    /// since this context read the row) is looked up again through the row; if the row or its file is gone, the
    /// error is logged and `Data` reads as empty and an optional as `nil`, since a property read cannot throw (the
    /// fetch that loads a row whose file is missing throws). Other types stay unloaded, and the read stops the
    /// program with the error, as reading a deleted model's values does.
    private func faultInExternal<M: PersistentModel>(_ model: M, property: Int, binding: EntityBinding) throws {
        let state = model._$persistentState
        func read() throws {
            guard let reference = state.externalReferences?[property] else { return }
            let value = try decode(binding.store.readExternal(reference), property: property, binding: binding)
            state.externalReferences?[property] = nil
            model._$set(property, value)
        }
        do {
            try read()
        } catch {
            do {
                _ = try load(M.self, keys: [state.key], binding: binding)
                try read()
            } catch {
                guard let attribute = binding.entity.attribute(at: property) else { throw error }
                let empty: Any? =
                    attribute.valueType == Data.self
                    ? Data() : attribute.valueType is any _OptionalValue.Type ? Optional<Any>.none as Any : nil
                guard let empty else { throw error }
                Log.error("\(M.self).\(attribute.name) reads as empty: \(error)")
                state.externalReferences?[property] = nil
                model._$set(property, empty)
            }
        }
    }

    /// Loads the rows of every model of the type that was registered without its values.
    func loadHollow<M: PersistentModel>(_ type: M.Type, binding: EntityBinding, including key: Int64) throws {
        var keys = hollow.removeValue(forKey: ObjectIdentifier(M.self)) ?? []
        if !keys.contains(key) { keys.append(key) }
        var request = FetchRequest<M>(entity: binding.entity, properties: binding.fetchedProperties)
        request.keys = keys
        _ = try load(request, binding: binding)
    }

    /// Loads a relationship that is not stored in the model's row, for every registered model of the type that
    /// does not have it yet, in one query; unsaved changes of this context are reflected.
    func loadRelationship<M: PersistentModel>(
        _ relationship: Schema.Relationship, of type: M.Type, binding: EntityBinding, including model: M
    ) throws {
        guard let destinationType = relationship.destinationType,
            let destination = container.binding(for: destinationType)
        else { return }
        var owners: [M] = [model]
        for case let object in registry[ObjectIdentifier(M.self)]?.values.map({ $0 }) ?? [] where object !== model {
            let other = unsafeDowncast(object, to: M.self)
            if other._$get(relationship.index) == nil { owners.append(other) }
        }
        try loadMembers(relationship, owners: owners, destinationType, destination: destination)
    }

    /// Loads the given relationships of fetched models now, one query per relationship, instead of when first read.
    func prefetch<M: PersistentModel>(_ keyPaths: [PartialKeyPath<M>], of models: [M], binding: EntityBinding) throws {
        for keyPath in keyPaths {
            guard let index = binding.entity.propertyIndex(for: keyPath),
                let relationship = binding.entity.relationship(at: index)
            else {
                throw SwiftDataError.unsupportedKeyPath.with(
                    reason: "\(keyPath) is not a relationship of \(binding.entity.name), so it cannot be prefetched",
                    model: binding.entity.name,
                    suggestion: "List only relationship key paths in relationshipKeyPathsForPrefetching")
            }
            guard let destinationType = relationship.destinationType,
                let destination = container.binding(for: destinationType)
            else { continue }
            if relationship.storage == .column {
                try loadHollowTargets(destinationType, destination: destination)
            } else {
                let owners = models.filter { $0._$get(index) == nil }
                if !owners.isEmpty {
                    try loadMembers(relationship, owners: owners, destinationType, destination: destination)
                }
            }
        }
    }

    private func loadHollowTargets<D: PersistentModel>(_ type: D.Type, destination: EntityBinding) throws {
        guard let keys = hollow[ObjectIdentifier(D.self)], let first = keys.first else { return }
        try loadHollow(D.self, binding: destination, including: first)
    }

    private func loadMembers<M: PersistentModel, D: PersistentModel>(
        _ relationship: Schema.Relationship, owners: [M], _ destinationType: D.Type, destination: EntityBinding
    ) throws {
        var members: [Int64: [D]] = [:]
        try withMaterializer(D.self, binding: destination, properties: destination.fetchedProperties) { materialize in
            try destination.store.fetchMembers(
                of: relationship, owners: owners.map(\._$persistentState.key), destination: destination.entity,
                properties: destination.fetchedProperties
            ) { owner, member, reader in
                members[owner, default: []].append(try materialize(member, reader, 2))
            }
        }
        for owner in owners {
            var list = members[owner._$persistentState.key] ?? []
            if let inverse = relationship.inverse { overlayPendingChanges(on: &list, owner: owner, inverse: inverse) }
            if relationship.isToOneRelationship {
                owner._$set(relationship.index, list.first.map { $0 as Any } ?? Optional<Any>.none as Any)
            } else {
                owner._$set(relationship.index, list)
            }
        }
    }

    /// Makes stored members agree with the unsaved state of their inverse side in this context: a member whose
    /// inverse no longer points to the owner leaves, a model whose inverse now does joins (at the end).
    private func overlayPendingChanges<D: PersistentModel>(
        on list: inout [D], owner: some PersistentModel, inverse: Schema.Relationship
    ) {
        let pending = (inserted + changed).compactMap { $0 as? D }
        guard !pending.isEmpty else { return }
        for model in pending {
            guard let value = model._$get(inverse.index) else { continue }
            let pointsToOwner = (value as? any _RelationshipValue)?._relatedModels.contains { $0 === owner } ?? false
            let isMember = list.contains { $0 === model }
            if pointsToOwner && !isMember { list.append(model) }
            if !pointsToOwner && isMember && isPending(model, inverse: inverse) { list.removeAll { $0 === model } }
        }
    }

    private func isPending(_ model: some PersistentModel, inverse: Schema.Relationship) -> Bool {
        model._$persistentState.status == .inserted || model._$persistentState.changes.contains(inverse.index)
    }

    /// Inserts the model and every unmanaged model its loaded relationships reach.
    func insertRelated<M: PersistentModel>(of model: M) {
        guard let entity = (try? cachedBinding(for: M.self))?.entity ?? Relationships.entity(of: model),
            !entity.orderedRelationships.isEmpty
        else { return }
        for relationship in entity.orderedRelationships {
            guard let value = model._$get(relationship.index) as? any _RelationshipValue else { continue }
            for related in value._relatedModels where related._$persistentState.status == .unmanaged {
                insert(related)
            }
        }
    }

    /// Releases the relationships between the context's models, so that models referring to each other are freed
    /// with the context.
    func releaseRelationships() {
        func release(_ model: any PersistentModel) {
            guard let entity = Relationships.entity(of: model), !entity.orderedRelationships.isEmpty else { return }
            for relationship in entity.orderedRelationships { model._$set(relationship.index, nil) }
        }
        forEachRegistered(release)
        inserted.forEach(release)
    }
}
