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
            other._$persistentState.context?.faultIn(other, property: inverse.index)
        }
        guard case .loaded(let current) = other._$get(inverse.index) else { return }
        if inverse.isToOneRelationship {
            let previous = current as? any PersistentModel
            guard previous !== model else { return }
            assign(model, to: other, property: inverse.index)
            if let previous { detach(previous, inverse: forward, from: other) }
        } else if let current {
            edit(current, of: other, inverse: inverse, adding: model)
        }
    }

    /// Adds a model to, or removes one from, the typed array of a loaded to-many relationship.
    private static func edit(
        _ current: Any, of other: any PersistentModel, inverse: Schema.Relationship,
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

    private static func assign(_ value: Any?, to model: any PersistentModel, property: Int) {
        if let context = model._$persistentState.context, context.recordsUndo {
            context.recordUndo(of: model, property: property)
        }
        model.setBuilt(property, value)
        model._$didSet(property)
    }
}
