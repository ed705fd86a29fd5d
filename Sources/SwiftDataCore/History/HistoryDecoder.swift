import Foundation

/// Turns the records a store returns into `DefaultHistoryTransaction`s, with the model types of the schema: each
/// change becomes a `DefaultHistoryInsert`, `DefaultHistoryUpdate` or `DefaultHistoryDelete` of its model's type.
/// Changes of entities the schema does not know (a model removed since) are left out.
struct HistoryDecoder {
    /// The entity of a name, with its model type.
    let entityNamed: (String) -> Schema.Entity?
    /// What makes the changes of each entity, by name; `nil` for an entity the schema lacks.
    private var makers: [String: HistoryChangeMaker?] = [:]

    init(entityNamed: @escaping (String) -> Schema.Entity?) {
        self.entityNamed = entityNamed
    }

    mutating func transaction(_ record: HistoryRecord, store: any RowStore) throws -> DefaultHistoryTransaction {
        let contents = try HistoryPayload.decode(record.entry.changes)
        let entityMakers = contents.entities.map { maker(for: $0) }
        var changes: [HistoryChange] = []
        changes.reserveCapacity(contents.changes.count)
        for (position, change) in contents.changes.enumerated() {
            guard let maker = entityMakers[change.entity] else { continue }
            let identifier = PersistentIdentifier(
                storeIdentifier: store.identifier, entityName: contents.entities[change.entity],
                key: .permanent(change.key))
            changes.append(
                try maker.make(
                    change, (record.number << 32) | Int64(position), identifier, record.number,
                    change.shape.map { contents.shapes[$0] } ?? []))
        }
        return DefaultHistoryTransaction(
            storeIdentifier: store.identifier, number: record.number, timestamp: record.entry.timestamp,
            author: record.entry.author, bundleIdentifier: record.entry.bundleIdentifier,
            processIdentifier: record.entry.processIdentifier, changes: changes)
    }

    private mutating func maker(for entityName: String) -> HistoryChangeMaker? {
        if let maker = makers[entityName] { return maker }
        let entity = entityNamed(entityName)
        let maker = entity.flatMap { entity in entity.modelType.map { HistoryChangeMaker($0, entity) } }
        makers[entityName] = maker
        return maker
    }
}

/// Makes the changes of one model type (opened from the entity's model type once per fetch).
struct HistoryChangeMaker {
    /// Makes a change from what was recorded, its change identifier, the model's identifier, the transaction's
    /// number and the property names of its shape.
    let make: (HistoryPayload.Change, Int64, PersistentIdentifier, Int64, [String]) throws -> HistoryChange

    init<Model: PersistentModel>(_ type: Model.Type, _ entity: Schema.Entity) {
        var keyPaths: [String: any PartialKeyPath<Model> & Sendable] = [:]
        for property in Model.schemaMetadata {
            guard let keyPath = property.keyPath as? PartialKeyPath<Model> else { continue }
            keyPaths[property.name] = assumingSendable(keyPath)
        }
        let reader = SnapshotRowReader(entity: entity)
        make = { change, changeIdentifier, identifier, transaction, names in
            switch change.kind {
            case .insert:
                return .insert(
                    DefaultHistoryInsert<Model>(
                        changeIdentifier: changeIdentifier, changedPersistentIdentifier: identifier,
                        transactionIdentifier: transaction))
            case .update:
                return .update(
                    DefaultHistoryUpdate<Model>(
                        changeIdentifier: changeIdentifier, changedPersistentIdentifier: identifier,
                        transactionIdentifier: transaction, updatedAttributes: names.compactMap { keyPaths[$0] }))
            case .delete:
                var entries: [HistoryTombstone<Model>.Entry] = []
                for (name, stored) in zip(names, change.values) {
                    guard let keyPath = keyPaths[name], let attribute = entity.attributesByName[name] else { continue }
                    entries.append(
                        (keyPath, try HistoryChangeMaker.decode(stored, attribute: attribute, reader: reader)))
                }
                return .delete(
                    DefaultHistoryDelete<Model>(
                        changeIdentifier: changeIdentifier, changedPersistentIdentifier: identifier,
                        transactionIdentifier: transaction, tombstone: HistoryTombstone(entries: entries)))
            }
        }
    }

    /// The Swift value of a preserved attribute's value (`nil` for none), decoded as a fetch decodes it.
    static func decode(_ stored: StoreValue, attribute: Schema.Attribute, reader: SnapshotRowReader) throws
        -> (any Sendable)?
    {
        let value: Any?
        do {
            if let coding = attribute.coding {
                guard case .data(let data) = stored else { return nil }
                value = try coding.decode(data)
            } else {
                reader.load([stored])
                func decode<Value>(_ type: Value.Type) throws -> Any {
                    try ValueCodec.decode(Value.self, from: reader, column: 0)
                }
                value = try decode(attribute.valueType)
            }
        } catch let error as SwiftDataError {
            throw error.with(property: attribute.name)
        }
        return value.flatMap(ValueCodec.unwrapped).map(assumingSendable)
    }
}

/// A key path to a stored property of a model, which captures nothing and so is safe to send.
private func assumingSendable<Root>(_ keyPath: PartialKeyPath<Root>) -> any PartialKeyPath<Root> & Sendable {
    unsafeBitCast(keyPath, to: (any PartialKeyPath<Root> & Sendable).self)
}

/// A value decoded from the store for a tombstone: a new value that nothing else refers to, so it is safe to send
/// (attribute types are values, or classes that the decoding just made).
private func assumingSendable(_ value: Any) -> any Sendable {
    withUnsafePointer(to: value) { $0.withMemoryRebound(to: (any Sendable).self, capacity: 1) { $0.pointee } }
}
