import Foundation

/// Apple's snapshot type: the persisted values of one model, by property name. Attributes keep their meaning (a
/// date, a UUID, ...); relationships hold the identifiers of the related models. It is `Codable`, so that a store
/// can keep it as it likes (a JSON file of `[DefaultSnapshot]`, say); its encoded form is this package's own, not
/// Apple's.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The identifier of the model.
    public let persistentIdentifier: PersistentIdentifier
    /// The model's persisted values by property name. A property the snapshot lacks was not loaded when it was
    /// made.
    package var values: [String: SnapshotValue]

    package init(persistentIdentifier: PersistentIdentifier, values: [String: SnapshotValue]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    /// The snapshot of the model behind a backing data (a model's `persistentBackingData`), under its current
    /// identifier. Related models that are not saved yet join `relatedBackingDatas`.
    public init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        guard let model = backingData.backedModel, let entity = Relationships.entity(of: model) else {
            Log.error("a snapshot was made from a backing data of no model; it holds no values")
            self.init(
                persistentIdentifier: backingData.persistentModelID
                    ?? PersistentIdentifier(
                        storeIdentifier: nil, entityName: String(describing: backingData.metadata),
                        key: .temporary(UInt64(bitPattern: PersistentIdentifier.nextTemporaryKey()))),
                values: [:])
            return
        }
        do {
            try self.init(model: model, entity: entity, identifier: model.persistentModelID)
        } catch {
            Log.error("a snapshot of a \(entity.name) lacks values that cannot be encoded: \(error)")
            self.init(persistentIdentifier: model.persistentModelID, values: [:])
            for attribute in entity.orderedAttributes { try? setValue(of: attribute, from: model, entity: entity) }
            for relationship in entity.orderedRelationships { setValue(of: relationship, from: model) }
        }
        for relationship in entity.orderedRelationships {
            for related in model._$get(relationship.index).relatedModels ?? []
            where related.persistentModelID.isTemporary {
                relatedBackingDatas[related.persistentModelID] = related.anyBackingData
            }
        }
    }

    /// The snapshot of a model's loaded values (a property not loaded is left out). Throws when a value cannot be
    /// encoded (a transformer that returns no data).
    package init(model: any PersistentModel, entity: Schema.Entity, identifier: PersistentIdentifier) throws {
        self.init(persistentIdentifier: identifier, values: [:])
        for attribute in entity.orderedAttributes { try setValue(of: attribute, from: model, entity: entity) }
        for relationship in entity.orderedRelationships { setValue(of: relationship, from: model) }
    }

    /// Takes an attribute's value from a model, encoded as a store keeps it (`.ephemeral` attributes are not kept).
    package mutating func setValue(
        of attribute: Schema.Attribute, from model: any PersistentModel, entity: Schema.Entity
    )
        throws
    {
        guard !attribute.options.contains(.ephemeral), case .loaded(let value) = model._$get(attribute.index) else {
            return
        }
        do {
            values[attribute.name] = .attribute(try attribute.storedValue(of: value))
        } catch let error as SwiftDataError {
            throw error.with(model: entity.name, property: attribute.name)
        }
    }

    /// Takes a relationship's value from a model: the identifiers of the related models.
    package mutating func setValue(of relationship: Schema.Relationship, from model: any PersistentModel) {
        guard let related = model._$get(relationship.index).relatedModels?.map(\.persistentModelID) else { return }
        values[relationship.name] = relationship.isToOneRelationship ? .toOne(related.first) : .toMany(related)
    }

    /// The same values under another identifier, with the identifiers of related models replaced as
    /// `remappedIdentifiers` says.
    public func copy(
        persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> DefaultSnapshot {
        guard let remappedIdentifiers, !remappedIdentifiers.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values)
        }
        return DefaultSnapshot(
            persistentIdentifier: persistentIdentifier,
            values: values.mapValues { $0.remapping(remappedIdentifiers) })
    }

    private enum CodingKeys: String, CodingKey { case persistentIdentifier, values }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        values = try container.decode([String: SnapshotValue].self, forKey: .values)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        try container.encode(values, forKey: .values)
    }
}

extension BackingData {
    /// The model whose values this backing data is a view of, if any.
    var backedModel: (any PersistentModel)? { (self as? DefaultBackingData<Model>)?.model }
}

extension PersistentModel {
    /// The model's backing data, as an existential of no particular model type.
    var anyBackingData: any BackingData { persistentBackingData }
}
