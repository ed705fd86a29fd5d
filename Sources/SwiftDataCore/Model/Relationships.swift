import Synchronization

/// Keeps both sides of a relationship in step in memory, as soon as one side changes: setting a to-one side
/// updates the inverse to-one or to-many side, changing a to-many side updates its members' inverse, and a
/// model that joins a managed model's relationship is inserted into its context.
enum Relationships {
    /// Entities built from single model classes, with their schemas (entities refer to their inverses weakly,
    /// so the schemas must stay alive).
    private static let entities = Mutex<[ObjectIdentifier: (entity: Schema.Entity?, schema: Schema)]>([:])

    /// The entity of a model: its container's, or one built from its class (for models not inserted yet).
    static func entity(of model: some PersistentModel) -> Schema.Entity? {
        if let entity = model._$persistentState.binding?.entity { return entity }
        return entity(of: Swift.type(of: model))
    }

    /// The entity of a model class, built from its metadata once.
    static func entity(of type: any PersistentModel.Type) -> Schema.Entity? {
        if let cached = entities.withLock({ $0[ObjectIdentifier(type)] }) { return cached.entity }
        let schema = Schema([type])
        let entity = schema.entitiesByName[String(describing: type)]
        return entities.withLock { cache in
            // Another thread may have built one meanwhile: keep the first, whose schema keeps its inverses alive.
            if let cached = cache[ObjectIdentifier(type)] { return cached.entity }
            cache[ObjectIdentifier(type)] = (entity, schema)
            return entity
        }
    }

    /// Updates the inverse side after relationship `property` of `model` changed from `old` to `new`.
    static func didChange(
        _ model: some PersistentModel, property: Int, from old: [any PersistentModel], to new: [any PersistentModel]
    ) {
        guard let relationship = entity(of: model)?.relationship(at: property) else { return }
        let oldIDs = Set(old.map(ObjectIdentifier.init))
        var newIDs = Set(new.map(ObjectIdentifier.init))
        var new = new
        if newIDs.count < new.count {
            // A to-many relationship is a set, as in Apple's SwiftData: a model already there is not added again
            // (the first place it holds is kept).
            newIDs.removeAll(keepingCapacity: true)
            new = new.filter { newIDs.insert(ObjectIdentifier($0)).inserted }
            model.setBuilt(property, typedArray(new, of: relationship))
        }
        let removed = old.filter { !newIDs.contains(ObjectIdentifier($0)) }
        let added = new.filter { !oldIDs.contains(ObjectIdentifier($0)) }
        if let inverse = relationship.inverse {
            for other in removed { detach(other, inverse: inverse, from: model) }
            for other in added { attach(other, inverse: inverse, to: model, forward: relationship) }
        }
        // A new model that joins a managed model's relationship joins its context, whichever side changed.
        if let context = managingContext(of: model) {
            for other in added where other._$persistentState.status == .unmanaged { context.insert(other) }
        } else if model._$persistentState.status == .unmanaged,
            let context = added.lazy.compactMap(managingContext).first
        {
            context.insert(model)
        }
    }

    private static func managingContext(of model: any PersistentModel) -> ModelContext? {
        let status = model._$persistentState.status
        return status == .inserted || status == .registered ? model._$persistentState.context : nil
    }

    /// `other` no longer relates to `model`: take `model` out of `other`'s inverse.
    private static func detach(
        _ other: any PersistentModel, inverse: Schema.Relationship, from model: any PersistentModel
    ) {
        guard case .loaded(let current) = other._$get(inverse.index) else { return }
        if inverse.isToOneRelationship {
            if (current as? any PersistentModel) === model {
                assign(nil, to: other, property: inverse.index)
            }
        } else if let current {
            edit(current, of: other, inverse: inverse, removing: model)
        }
    }

    /// `other` now relates to `model`: make `model` part of `other`'s inverse; for a to-one inverse, `other` leaves
    /// the model it related to before.
    private static func attach(
        _ other: any PersistentModel, inverse: Schema.Relationship, to model: any PersistentModel,
        forward: Schema.Relationship
    ) {
        if !other._$get(inverse.index).isLoaded, inverse.isToOneRelationship {
            other._$persistentState.context?.loadUnloaded(other, property: inverse.index)
        }
        guard case .loaded(let current) = other._$get(inverse.index) else { return }
        if inverse.isToOneRelationship {
            let previous = current as? any PersistentModel
            guard previous !== model else { return }
            assign(model, to: other, property: inverse.index)
            if let previous { detach(previous, inverse: forward, from: other) }
        } else {
            // An optional to-many relationship that holds `nil` (`[T]?`, never assigned) now holds the model.
            edit(current, of: other, inverse: inverse, adding: model)
        }
    }

    /// Adds a model to, or removes one from, the typed array of a loaded to-many relationship.
    private static func edit(
        _ current: Any?, of other: any PersistentModel, inverse: Schema.Relationship,
        adding: (any PersistentModel)? = nil, removing: (any PersistentModel)? = nil
    ) {
        func edit<D: PersistentModel>(_ type: D.Type) {
            var members = current as? [D] ?? []
            var changed = false
            if let removing, let index = members.firstIndex(where: { $0 === removing }) {
                members.remove(at: index)
                changed = true
            }
            if let adding = adding as? D, !members.contains(where: { $0 === adding }) {
                members.append(adding)
                changed = true
            }
            if changed { assign(members, to: other, property: inverse.index) }
        }
        if let type = inverse.destinationType { edit(type) }
    }

    /// Takes `model` out of loaded relationship `relationship` of `holder`, if it is there (recorded for undo, as a
    /// change of the holder).
    static func remove(
        _ model: any PersistentModel, from holder: any PersistentModel, _ relationship: Schema.Relationship
    ) {
        guard let related = holder._$get(relationship.index).relatedModels, related.contains(where: { $0 === model })
        else { return }
        let kept = related.filter { $0 !== model }
        assign(
            relationship.isToOneRelationship ? nil : typedArray(kept, of: relationship), to: holder,
            property: relationship.index)
    }

    /// The value of a relationship that relates to nothing: `nil` for a to-one relationship (which a non-optional
    /// one cannot hold), an empty typed array for a to-many one.
    static func emptyValue(of relationship: Schema.Relationship) -> Any? {
        relationship.isToOneRelationship ? nil : typedArray([], of: relationship)
    }

    /// The models as the typed array a to-many relationship stores (`[Destination]`).
    static func typedArray(_ models: [any PersistentModel], of relationship: Schema.Relationship) -> Any {
        func cast<D: PersistentModel>(_ type: D.Type) -> Any { models.compactMap { $0 as? D } }
        return relationship.destinationType.map { cast($0) } ?? models
    }

    // MARK: Linked members (see `_PersistentState`)
    //
    // Two loaded many-to-many arrays that hold each other's models would keep them, and their context, alive
    // forever. So when both sides of a pair are loaded, one of them keeps its members' keys instead of the members
    // (a link), and reads find them through the context. A model with unsaved changes to the relationship, or whose
    // members are not all saved models of its context, holds its members: the context holds such models anyway.

    /// Whether a relationship is a side of a many-to-many relationship.
    static func isManyToMany(_ relationship: Schema.Relationship) -> Bool {
        !relationship.isToOneRelationship && relationship.inverse?.isToOneRelationship == false
    }

    /// The members of linked to-many relationship `relationship`, in the order of `keys`: the context's registered
    /// models, or models that load when first read for those that went away (not held by the relationship);
    /// `nil` when the relationship's destination cannot be found.
    static func linkedMembers(_ relationship: Schema.Relationship, keys: [Int64], in context: ModelContext) -> Any? {
        guard let (type, binding) = try? context.destination(of: relationship) else { return nil }
        if binding.entity.fetchReadsEntity {
            // A hierarchy's rows may be of any of its classes, which only the rows can tell.
            do {
                let found = try context.models(forKeys: Set(keys), of: binding)
                return typedArray(keys.compactMap { found[$0] }, of: relationship)
            } catch {
                Log.error("\(relationship.name) could not be loaded: \(error)")
                return nil
            }
        }
        func members<D: PersistentModel>(_ type: D.Type) -> Any {
            let map = context.registry.map(for: ObjectIdentifier(D.self))
            var members: [D] = []
            members.reserveCapacity(keys.count)
            for key in keys {
                // unsafeDowncast: the registry files each model in the identity map of its own type.
                if let object = map.model(key) {
                    members.append(unsafeDowncast(object, to: D.self))
                } else {
                    members.append(context.makeHollow(D.self, key: key, binding: binding, in: map))
                }
            }
            return members
        }
        return members(type)
    }

    /// After `owner`'s to-many relationship was loaded with `members`: a member whose many-to-many inverse holds
    /// `owner` back links that inverse instead of holding it.
    static func linkInverses(
        of members: [some PersistentModel], holding owner: some PersistentModel, _ relationship: Schema.Relationship,
        in context: ModelContext
    ) {
        guard isManyToMany(relationship), let inverse = relationship.inverse else { return }
        for member in members where holds(member, inverse, owner) {
            link(member, inverse, in: context)
        }
    }

    /// After a save, an undo or a rollback (see `ModelContext.linkHeldReferences`): a saved model's loaded
    /// many-to-many relationship whose members hold it back is linked.
    static func linkIfHeldBack(
        _ model: any PersistentModel, _ relationship: Schema.Relationship, in context: ModelContext
    ) {
        guard let inverse = relationship.inverse,
            let members = model._$get(relationship.index).relatedModels,
            members.contains(where: { holds($0, inverse, model) })
        else { return }
        link(model, relationship, in: context)
    }

    /// Before models leave the context, the linked many-to-many relationships that include them hold their members
    /// again, so that `removeReferences(toDeleted:)` finds the leaving models there and removes them.
    static func holdLinkedMembers(_ leaving: [String: Set<Int64>], in context: ModelContext) {
        for entity in context.container.schema.entities {
            let relationships = entity.orderedRelationships.filter {
                isManyToMany($0) && leaving[$0.destination] != nil
            }
            guard !relationships.isEmpty, let type = entity.modelType else { continue }
            for model in context.registry.models(ofType: type) where model._$persistentState.memberLinks != nil {
                for relationship in relationships {
                    guard let keys = model._$persistentState.linkedMembers(relationship.index),
                        let gone = leaving[relationship.destination], keys.contains(where: gone.contains),
                        let members = linkedMembers(relationship, keys: keys, in: context)
                    else { continue }
                    model.setBuilt(relationship.index, members)
                }
            }
        }
    }

    /// Whether `member` holds `owner` in its loaded, not linked, relationship `inverse`.
    private static func holds(
        _ member: any PersistentModel, _ inverse: Schema.Relationship, _ owner: any PersistentModel
    ) -> Bool {
        guard !member._$persistentState.isLinked(inverse.index),
            let related = member._$get(inverse.index).relatedModels
        else { return false }
        return related.contains { $0 === owner }
    }

    /// Links loaded to-many relationship `relationship` of `model` to its members' keys, when the model and its
    /// members are saved models of `context` and the relationship has no unsaved change.
    private static func link(
        _ model: any PersistentModel, _ relationship: Schema.Relationship, in context: ModelContext
    ) {
        guard model._$persistentState.status == .registered, model._$persistentState.isManaged(by: context),
            !model._$persistentState.changes.contains(relationship.index),
            let members = model._$get(relationship.index).relatedModels
        else { return }
        var keys: [Int64] = []
        keys.reserveCapacity(members.count)
        for member in members {
            guard member._$persistentState.status == .registered, member._$persistentState.isManaged(by: context) else {
                return
            }
            keys.append(member._$persistentState.key)
        }
        model.unloadForLink(relationship.index)
        model._$persistentState.linkMembers(relationship.index, to: keys)
    }

    private static func assign(_ value: Any?, to model: any PersistentModel, property: Int) {
        if let context = model._$persistentState.context, context.recordsUndo {
            context.recordUndo(of: model, property: property)
        }
        model.setBuilt(property, value)
        model._$didSet(property)
    }
}
