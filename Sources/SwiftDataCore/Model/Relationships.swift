import Synchronization

/// Keeps both sides of a relationship in step in memory, as soon as one side changes: setting a to-one side
/// updates the inverse to-one or to-many side, changing a to-many side updates its members' inverse, and a
/// model that joins a managed model's relationship is inserted into its context.
enum Relationships {
    /// Schemas built from single model classes, kept alive because entities refer to their inverses weakly.
    private static let schemas = Mutex<[ObjectIdentifier: Schema]>([:])

    /// The entity of a model: its container's, or one built from its class (for models not inserted yet).
    static func entity(of model: some PersistentModel) -> Schema.Entity? {
        if let entity = model._$persistentState.binding?.entity { return entity }
        let type = Swift.type(of: model)
        let name = String(describing: type)
        if let cached = schemas.withLock({ $0[ObjectIdentifier(type)] }) { return cached.entitiesByName[name] }
        let schema = Schema([type])
        schemas.withLock { $0[ObjectIdentifier(type)] = schema }
        return schema.entitiesByName[name]
    }

    /// Updates the inverse side after relationship `property` of `model` changed from `old` to `new`.
    static func didChange(
        _ model: some PersistentModel, property: Int, from old: [any PersistentModel], to new: [any PersistentModel]
    ) {
        guard let relationship = entity(of: model)?.relationship(at: property) else { return }
        let oldIDs = Set(old.map(ObjectIdentifier.init))
        let newIDs = Set(new.map(ObjectIdentifier.init))
        let removed = old.filter { !newIDs.contains(ObjectIdentifier($0)) }
        let added = new.filter { !oldIDs.contains(ObjectIdentifier($0)) }
        if let inverse = relationship.inverse {
            for other in removed { detach(other, inverse: inverse, from: model) }
            for other in added { attach(other, inverse: inverse, to: model, forward: relationship) }
        }
        // A new model that joins a managed model's relationship joins its context, whichever side changed.
        if let context = managingContext(of: model) {
            for other in added where other._$persistentState.status == .unmanaged { context.insert(other) }
        } else if model._$persistentState.status == .unmanaged, let context = added.lazy.compactMap(managingContext).first {
            context.insert(model)
        }
    }

    private static func managingContext(of model: any PersistentModel) -> ModelContext? {
        let status = model._$persistentState.status
        return status == .inserted || status == .registered ? model._$persistentState.context : nil
    }

    /// `other` no longer relates to `model`: take `model` out of `other`'s inverse.
    private static func detach(_ other: any PersistentModel, inverse: Schema.Relationship, from model: any PersistentModel) {
        guard let current = other._$get(inverse.index) as? any _RelationshipValue,
            current._relatedModels.contains(where: { $0 === model })
        else { return }
        if inverse.isToOneRelationship {
            assign(Optional<Any>.none as Any, to: other, property: inverse.index)
        } else {
            assign(current._relatedModels.filter { $0 !== model }, to: other, inverse: inverse)
        }
    }

    /// `other` now relates to `model`: make `model` part of `other`'s inverse; for a to-one inverse, `other` leaves
    /// the model it related to before.
    private static func attach(
        _ other: any PersistentModel, inverse: Schema.Relationship, to model: any PersistentModel,
        forward: Schema.Relationship
    ) {
        if other._$get(inverse.index) == nil, inverse.isToOneRelationship {
            other._$persistentState.context?.faultIn(other, property: inverse.index)
        }
        guard let current = other._$get(inverse.index) as? any _RelationshipValue else { return }
        let members = current._relatedModels
        guard !members.contains(where: { $0 === model }) else { return }
        if inverse.isToOneRelationship {
            assign(model, to: other, property: inverse.index)
            if let previous = members.first, previous !== model { detach(previous, inverse: forward, from: other) }
        } else {
            assign(members + [model], to: other, inverse: inverse)
        }
    }

    private static func assign(_ models: [any PersistentModel], to other: any PersistentModel, inverse: Schema.Relationship) {
        guard let type = inverse.destinationType else { return }
        assign(typedArray(models, of: type), to: other, property: inverse.index)
    }

    private static func typedArray<D: PersistentModel>(_ models: [any PersistentModel], of type: D.Type) -> [D] {
        models.compactMap { $0 as? D }
    }

    private static func assign(_ value: Any, to model: any PersistentModel, property: Int) {
        model._$set(property, value)
        model._$didSet(property)
    }
}
