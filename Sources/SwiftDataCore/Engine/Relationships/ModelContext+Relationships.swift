import Foundation

extension ModelContext {
    /// The model type and binding a relationship leads to, or an error that says the container lacks it.
    func destination(
        of relationship: Schema.Relationship
    ) throws -> (type: any PersistentModel.Type, binding: EntityBinding) {
        guard let type = relationship.destinationType, let binding = container.binding(for: type) else {
            throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                reason:
                    "the relationship leads to \(relationship.destination), which is not one of the container's models",
                property: relationship.name, suggestion: "Add \(relationship.destination) to the container's models")
        }
        return (type, binding)
    }

    /// The value of a to-one relationship whose stored key is `key`: the registered model, a model that loads when
    /// first read, or no model. A model of a hierarchy is of the class its row names (read with one query when the
    /// context has no model of the row).
    func reference(to key: Int64?, _ relationship: Schema.Relationship) throws -> (any PersistentModel)? {
        guard let key else { return nil }
        let (type, binding) = try destination(of: relationship)
        if binding.entity.fetchReadsEntity {
            if let model = registeredModel(key: key, in: binding.entity) { return model }
            if let model = try models(forKeys: [key], of: binding)[key] { return model }
        }
        func hollow<D: PersistentModel>(_ type: D.Type) -> any PersistentModel {
            registeredOrHollow(D.self, key: key, binding: binding)
        }
        return hollow(type)
    }

    /// The target of a linked to-one relationship of `model` (see `_PersistentState`): the registered model for
    /// `key`, or, when it went away, the model loaded again, which `model` holds from now on.
    func linkedTarget(of model: some PersistentModel, _ relationship: Schema.Relationship, key: Int64)
        -> (any PersistentModel)?
    {
        if let target = registeredTarget(of: relationship, key: key) { return target }
        guard let target = try? reference(to: key, relationship) else { return nil }
        model.setBuilt(relationship.index, target)
        return target
    }

    /// A registered model of the row `key` of `D`, or one that loads when first read.
    func registeredOrHollow<D: PersistentModel>(_ type: D.Type, key: Int64, binding: EntityBinding) -> D {
        let map = registry.map(for: ObjectIdentifier(D.self))
        // unsafeDowncast: the registry files each model under its own type's ObjectIdentifier.
        if let object = map.model(key) { return unsafeDowncast(object, to: D.self) }
        return makeHollow(D.self, key: key, binding: binding, in: map)
    }

    /// A registered model for the row `key` whose values load when one is first read (all such models of the
    /// entity load together, in one query).
    func makeHollow<D: PersistentModel>(_ type: D.Type, key: Int64, binding: EntityBinding, in map: IdentityMap) -> D {
        let model = D(backingData: DefaultBackingData(for: D.self))
        registry.register(model, of: self, key: key, binding: binding, in: map)
        for property in binding.entity.indexedProperties.indices { model.unload(property) }
        registry.noteHollow(key, of: ObjectIdentifier(D.self), in: map)
        return model
    }

    /// Loads property `property` of a registered model: its row, if the model was not loaded yet, or the
    /// relationship. Models of the same entity that need the same load are loaded with it, so walking a
    /// relationship across many models costs a constant number of queries.
    func loadUnloaded<M: PersistentModel>(_ model: M, property: Int) {
        // A subclass's model reached through a superclass's accessor loads as its own class.
        guard type(of: model) == M.self else { return loadUnloaded(ofClass: model, property: property) }
        guard let binding = model._$persistentState.binding else { return }
        do {
            if model._$persistentState.externalReferences?[property] != nil {
                try loadExternal(model, property: property, binding: binding)
            } else if let relationship = binding.entity.relationship(at: property), relationship.storage != .column {
                try loadRelationship(relationship, of: M.self, binding: binding, including: model)
            } else {
                try loadHollow(M.self, binding: binding, including: model._$persistentState.key)
            }
        } catch {
            let name =
                binding.entity.indexedProperties.indices.contains(property)
                ? binding.entity.indexedProperties[property].name : "#\(property)"
            Log.error("\(M.self).\(name) could not be loaded: \(error)")
        }
    }

    /// Reads an externally stored value on its first use. A file that is gone (another process replaced the value
    /// since this context read the row) is looked up again through the row; if the row or its file is gone, the
    /// error is logged and the value reads as empty (`Schema.Attribute.unloadedValue`), since a property read cannot
    /// throw (the fetch that loads a row whose file is missing throws).
    private func loadExternal<M: PersistentModel>(_ model: M, property: Int, binding: EntityBinding) throws {
        func read() throws {
            guard let reference = model._$persistentState.externalReferences?[property] else { return }
            let value = try fetcher.decode(binding.store.readExternal(reference), property: property, binding: binding)
            model._$persistentState.externalReferences?[property] = nil
            try model._$set(property, .loaded(value))
        }
        do {
            try read()
        } catch {
            do {
                _ = try fetcher.load(M.self, keys: [model._$persistentState.key], binding: binding)
                try read()
            } catch {
                guard let attribute = binding.entity.attribute(at: property), attribute.unloadedValue.isLoaded,
                    (try? model._$set(property, attribute.unloadedValue)) != nil
                else { throw error }
                Log.error("\(M.self).\(attribute.name) reads as empty: \(error)")
                model._$persistentState.externalReferences?[property] = nil
            }
        }
    }

    /// `loadUnloaded` with the model's own class (opening the existential gives its dynamic type).
    private func loadUnloaded(ofClass model: any PersistentModel, property: Int) {
        loadUnloaded(model, property: property)
    }

    /// Loads the rows of every model of the type that was registered without its values.
    func loadHollow<M: PersistentModel>(_ type: M.Type, binding: EntityBinding, including key: Int64) throws {
        // Hollow models that went away meanwhile need no loading.
        var keys = (registry.hollow.removeValue(forKey: ObjectIdentifier(M.self)) ?? []).filter {
            registry.contains(M.self, key: $0)
        }
        if !keys.contains(key) { keys.append(key) }
        var request = FetchRequest<M>(entity: binding.entity, properties: binding.fetchedProperties)
        request.keys = keys
        request.subentityProperties = binding.subentityProperties
        _ = try fetcher.load(request, binding: binding)
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
        for other in registry.models(of: M.self) where other !== model {
            if !(other._$persistentState.hasLinks && other._$persistentState.isLinked(relationship.index))
                && !other._$get(relationship.index).isLoaded
            {
                owners.append(other)
            }
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
                let owners = models.filter { !$0._$get(index).isLoaded }
                if !owners.isEmpty {
                    try loadMembers(relationship, owners: owners, destinationType, destination: destination)
                }
            }
        }
    }

    private func loadHollowTargets<D: PersistentModel>(_ type: D.Type, destination: EntityBinding) throws {
        guard let keys = registry.hollow[ObjectIdentifier(D.self)],
            let first = keys.first(where: { registry.contains(D.self, key: $0) })
        else { return }
        try loadHollow(D.self, binding: destination, including: first)
    }

    private func loadMembers<M: PersistentModel, D: PersistentModel>(
        _ relationship: Schema.Relationship, owners: [M], _ destinationType: D.Type, destination: EntityBinding
    ) throws {
        // Each owner's members, gathered in types that do not depend on D: a dictionary of `[D]` looked up its generic
        // metadata twice per member in this unspecialized code (about 700 instructions a member, a sixth of loading
        // one), and an append to `[D]` once (see `ModelList`).
        var gathered = MemberRuns()
        // Members whose foreign key holds the owner refer to it by a link: the owner holds them.
        let linking = relationship.storage == .inverseColumn ? relationship.inverse : nil
        // Several owners of a join table's relationship may share a member: its row comes once for each.
        let isJoined = if case .joinTable = relationship.storage { true } else { false }
        try fetcher.withMaterializer(
            D.self, binding: destination, properties: destination.fetchedProperties, linking: linking,
            subentityProperties: destination.subentityProperties, keysAreDistinct: !isJoined
        ) { materialize in
            try destination.store.fetchMembers(
                of: relationship, owners: owners.map { $0._$persistentState.key }, destination: destination.entity,
                properties: destination.fetchedProperties, subentityProperties: destination.subentityProperties
            ) { owner, member, reader in
                gathered.append(try materialize(member, reader, 2, owner), of: owner)
            }
        }
        gathered.finish()
        // The unsaved models that may join or leave an owner's members, found once for all the owners.
        let pending = relationship.inverse == nil ? [] : (registry.inserted + registry.changed).compactMap { $0 as? D }
        for owner in owners {
            // An owner's members usually come in one run, whose storage becomes its array.
            let ownerRuns = gathered.take(owner._$persistentState.key)
            var list = ownerRuns.count == 1 ? ownerRuns[0].models(of: D.self) : []
            if ownerRuns.count > 1 {
                for run in ownerRuns { list += run.models(of: D.self) }
            }
            if let inverse = relationship.inverse, !pending.isEmpty {
                overlay(pending, on: &list, owner: owner, inverse: inverse)
            }
            if relationship.isToOneRelationship {
                owner.setBuilt(relationship.index, list.first)
            } else {
                owner.setBuilt(relationship.index, list)
                Relationships.linkInverses(of: list, holding: owner, relationship, in: self)
            }
        }
    }

    /// Makes stored members agree with the unsaved state of their inverse side in this context (`pending`, its
    /// inserted and changed models of the members' class): a member whose inverse no longer points to the owner
    /// leaves, a model whose inverse now does joins (at the end).
    private func overlay<D: PersistentModel>(
        _ pending: [D], on list: inout [D], owner: some PersistentModel, inverse: Schema.Relationship
    ) {
        for model in pending {
            guard let related = model._$get(inverse.index).relatedModels else { continue }
            let pointsToOwner = related.contains { $0 === owner }
            let isMember = list.contains { $0 === model }
            if pointsToOwner && !isMember { list.append(model) }
            if !pointsToOwner && isMember && isPending(model, inverse: inverse) { list.removeAll { $0 === model } }
        }
    }

    private func isPending(_ model: some PersistentModel, inverse: Schema.Relationship) -> Bool {
        model._$persistentState.status == .inserted || model._$persistentState.changes.contains(inverse.index)
    }

    /// Links the to-one and many-to-many relationships of saved models without unsaved changes whose targets hold
    /// them back (see `_PersistentState`): after a save, an undo or a rollback, a change that was held is not a change
    /// any more. A to-one relationship without an inverse is linked whatever its target holds: the target may hold
    /// the model back through other relationships (`a.b`, `b.c`, `c.a`), which nothing here could tell cheaply, and
    /// a target nothing else holds is only loaded again when next read.
    func linkHeldReferences(of models: [any PersistentModel]) {
        var entity: Schema.Entity?
        var candidates: [Schema.Relationship] = []
        for model in models {
            guard model._$persistentState.status == .registered, model._$persistentState.changes.isEmpty,
                let modelEntity = model._$persistentState.binding?.entity
            else { continue }
            if modelEntity !== entity {
                entity = modelEntity
                candidates = modelEntity.orderedRelationships.filter {
                    $0.storage == .column || Relationships.isManyToMany($0)
                }
            }
            for relationship in candidates where !model._$persistentState.isLinked(relationship.index) {
                if Relationships.isManyToMany(relationship) {
                    Relationships.linkIfHeldBack(model, relationship, in: self)
                    continue
                }
                guard let target = model._$get(relationship.index).value as? any PersistentModel,
                    target._$persistentState.status == .registered, target._$persistentState.isManaged(by: self),
                    relationship.inverse.map({ target._$get($0.index).isLoaded }) ?? true
                else { continue }
                model.link(relationship.index, to: target._$persistentState.key)
            }
        }
    }

    /// Before models leave the context, the models linked to them hold them instead (they will not hold the
    /// linking models back any more): `removeReferences(toDeleted:)` then clears what the delete rules clear.
    func holdLinkedTargets(_ leaving: [String: Set<Int64>]) {
        for entity in container.schema.entities {
            let references = entity.orderedRelationships.filter {
                $0.storage == .column && leaving[$0.destination] != nil
            }
            guard !references.isEmpty, let type = entity.modelType else { continue }
            for model in registry.models(ofType: type) where model._$persistentState.hasLinks {
                for reference in references {
                    guard let key = model._$persistentState.linkedKey(reference.index),
                        leaving[reference.destination]?.contains(key) == true,
                        let target = registeredTarget(of: reference, key: key)
                    else { continue }
                    model.setBuilt(reference.index, target)
                }
            }
        }
        Relationships.holdLinkedMembers(leaving, in: self)
    }

    /// Empties the relationships of a model that left the context after a saved delete: it relates to nothing.
    func emptyRelationships(of model: any PersistentModel) {
        guard let entity = model._$persistentState.binding?.entity, !entity.orderedRelationships.isEmpty else {
            return
        }
        for relationship in entity.orderedRelationships {
            // A non-optional to-one relationship has no empty value: it keeps the model it holds, if it holds one.
            _ = try? model._$set(relationship.index, .loaded(Relationships.emptyValue(of: relationship)))
        }
    }

    /// Inserts the model and every unmanaged model its loaded relationships reach.
    func insertRelated<M: PersistentModel>(of model: M) {
        guard let entity = (try? cachedBinding(for: type(of: model)))?.entity ?? Relationships.entity(of: model),
            !entity.orderedRelationships.isEmpty
        else { return }
        for relationship in entity.orderedRelationships {
            guard let related = model._$get(relationship.index).relatedModels else { continue }
            if entity.superentity != nil, relationship.inverse != nil, !related.isEmpty {
                // A subclass's initializer assigns its relationships before `super.init`, when no setter can run:
                // their inverses are brought in step now.
                Relationships.didChange(model, property: relationship.index, from: [], to: related)
            }
            for related in related where related._$persistentState.status == .unmanaged {
                insert(related)
            }
        }
    }
}
