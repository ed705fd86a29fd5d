import Foundation

/// The writes of one save through a `SnapshotStoreAdapter`: a row store's writes applied to snapshots (both sides of
/// each relationship kept in step, as a relational store keeps them by its foreign keys and join rows), then sent
/// to the store as one save request by `commit()`. Used while the adapter's lock is held.
final class SnapshotTransaction<Store: DataStore>: RowStoreTransaction {
    private unowned let adapter: SnapshotStoreAdapter<Store>
    private let editingState: EditingState
    /// The snapshots this save changes, by key.
    private var working: [Int64: DefaultSnapshot] = [:]
    /// The entity of each key this save allocated.
    private var newEntities: [Int64: String] = [:]
    /// The keys of the models this save inserts, in order, and their temporary identifiers.
    private var inserted: [Int64] = []
    private var temporary: [Int64: PersistentIdentifier] = [:]
    /// The snapshots of the models this save deletes, by key.
    private var deleted: [Int64: DefaultSnapshot] = [:]
    /// The history token the store returned for the committed save, if any.
    private(set) var savedHistoryToken: (any HistoryToken)?

    init(adapter: SnapshotStoreAdapter<Store>, editingState: EditingState) {
        self.adapter = adapter
        self.editingState = editingState
    }

    // MARK: Snapshots

    /// The entity of a key: of a model inserted by this save, or of a saved one.
    private func entity(of key: Int64) -> String? {
        newEntities[key] ?? adapter.identifierOfKey(key)?.entityName
    }

    /// The identifier of a key's model, temporary for a model this save inserts.
    private func identifier(of key: Int64) -> PersistentIdentifier? {
        temporary[key] ?? adapter.identifierOfKey(key)
    }

    /// The snapshot of a key's model as this save has it so far; `nil` for a deleted or unknown model.
    private func current(_ key: Int64) throws -> DefaultSnapshot? {
        if let snapshot = working[key] { return snapshot }
        guard deleted[key] == nil, newEntities[key] == nil, let entity = entity(of: key) else { return nil }
        return try adapter.snapshot(ofKey: key, entity: entity, editingState: editingState)
    }

    /// The snapshot of a key's model as the store has it, before this save.
    private func committed(_ key: Int64) throws -> DefaultSnapshot? {
        guard newEntities[key] == nil, let entity = entity(of: key) else { return nil }
        return try adapter.snapshot(ofKey: key, entity: entity, editingState: editingState)
    }

    /// Changes a key's snapshot, when the model has one.
    private func modify(_ key: Int64, _ change: (inout DefaultSnapshot) -> Void) throws {
        guard var snapshot = try current(key) else { return }
        change(&snapshot)
        working[key] = snapshot
    }

    /// Every snapshot of an entity as this save has it so far, by key.
    private func all(_ entity: String) throws -> [Int64: DefaultSnapshot] {
        try adapter.fetchAll(entity, editingState: editingState)
        var result = adapter.snapshots[entity] ?? [:]
        for (key, snapshot) in working where snapshot.persistentIdentifier.entityName == entity {
            result[key] = snapshot
        }
        for key in deleted.keys { result[key] = nil }
        return result
    }

    // MARK: RowStoreTransaction

    func allocateKeys(count: Int, entity: Schema.Entity) throws -> Int64 {
        let first = adapter.newKey()
        newEntities[first] = entity.name
        for _ in 1..<max(count, 1) { newEntities[adapter.newKey()] = entity.name }
        return first
    }

    func insert(_ rows: [RowWrite], entity: Schema.Entity) throws {
        for row in rows {
            guard let model = row.model else { continue }
            let identifier = model.persistentModelID
            temporary[row.key] = identifier
            inserted.append(row.key)
            working[row.key] = try DefaultSnapshot(model: model, entity: entity, identifier: identifier)
            // The model's own values hold its references; the other sides learn of them here.
            for reference in row.references { try apply(reference, of: row.key, setsOwnValue: false) }
        }
    }

    func update(_ rows: [RowWrite], entity: Schema.Entity) throws {
        for row in rows {
            if let model = row.model, var snapshot = try current(row.key) {
                for index in row.attributes {
                    guard let attribute = entity.attribute(at: index) else { continue }
                    try snapshot.setValue(of: attribute, from: model, entity: entity)
                }
                working[row.key] = snapshot
            }
            for reference in row.references { try apply(reference, of: row.key, setsOwnValue: true) }
        }
    }

    /// A to-one relationship of `key`'s model now refers to `reference.key`: the inverse side of the old and the
    /// new model changes with it (the model leaves the old one's to-many array and joins the new one's at its
    /// position, or their to-one inverses change).
    private func apply(_ reference: ReferenceWrite, of key: Int64, setsOwnValue: Bool) throws {
        let relationship = reference.relationship
        let old = try committed(key)?.values[relationship.name]?.identifiers.first
        let new = reference.key.flatMap(identifier(of:))
        if setsOwnValue { try modify(key) { $0.values[relationship.name] = .toOne(new) } }
        guard let inverse = relationship.inverse, let member = identifier(of: key) else { return }
        if let old, old != new, let oldKey = adapter.key(for: old) ?? temporaryKey(of: old) {
            try modify(oldKey) { $0.remove(member, from: inverse) }
        }
        guard let newKey = reference.key else { return }
        try modify(newKey) { snapshot in
            if inverse.isToOneRelationship {
                snapshot.values[inverse.name] = .toOne(member)
                return
            }
            var members = snapshot.values[inverse.name]?.identifiers ?? []
            switch reference.position {
            case .index(let index)?:
                members.removeAll { $0 == member }
                members.insert(member, at: min(max(index, 0), members.count))
            case .last?, nil:
                if !members.contains(member) { members.append(member) }
            }
            snapshot.values[inverse.name] = .toMany(members)
        }
    }

    private func temporaryKey(of identifier: PersistentIdentifier) -> Int64? {
        temporary.first { $0.value == identifier }?.key
    }

    func setMembers(_ members: [Int64], of owner: Int64, relationship: Schema.Relationship) throws {
        guard let ownerIdentifier = identifier(of: owner) else { return }
        let old = try current(owner)?.values[relationship.name]?.identifiers ?? []
        let new = members.compactMap(identifier(of:))
        try modify(owner) { $0.values[relationship.name] = .toMany(new) }
        guard let inverse = relationship.inverse else { return }
        for removed in old where !new.contains(removed) {
            guard let key = adapter.key(for: removed) ?? temporaryKey(of: removed) else { continue }
            try modify(key) { $0.remove(ownerIdentifier, from: inverse) }
        }
        for (key, added) in zip(members, new) where !old.contains(added) {
            try modify(key) { snapshot in
                if inverse.isToOneRelationship {
                    snapshot.values[inverse.name] = .toOne(ownerIdentifier)
                } else {
                    var owners = snapshot.values[inverse.name]?.identifiers ?? []
                    if !owners.contains(ownerIdentifier) { owners.append(ownerIdentifier) }
                    snapshot.values[inverse.name] = .toMany(owners)
                }
            }
        }
    }

    func related(_ relationship: Schema.Relationship, owners: [Int64]) throws -> [(owner: Int64, member: Int64)] {
        var pairs: [(owner: Int64, member: Int64)] = []
        for owner in owners {
            for member in try current(owner)?.values[relationship.name]?.identifiers ?? [] {
                guard let key = adapter.key(for: member) ?? temporaryKey(of: member) else { continue }
                pairs.append((owner, key))
            }
        }
        return pairs
    }

    func clearReferences(_ relationship: Schema.Relationship, to destinations: [Int64]) throws -> [Int64] {
        guard
            let source = adapter.schema.entities.first(where: { entity in
                entity.orderedRelationships.contains { $0 === relationship }
            })
        else { return [] }
        let targets = Set(destinations.compactMap(identifier(of:)))
        var sources: [Int64] = []
        for (key, snapshot) in try all(source.name) {
            let related = snapshot.values[relationship.name]?.identifiers ?? []
            guard related.contains(where: targets.contains) else { continue }
            sources.append(key)
            try modify(key) { snapshot in
                snapshot.values[relationship.name] =
                    relationship.isToOneRelationship
                    ? .toOne(nil) : .toMany(related.filter { !targets.contains($0) })
            }
        }
        return sources
    }

    func delete(keys: [Int64], entity: Schema.Entity) throws {
        for key in keys {
            guard let snapshot = try current(key), let member = identifier(of: key) else { continue }
            working[key] = nil
            deleted[key] = snapshot
            // As a relational store's rows do: the model leaves the arrays its foreign keys and join rows made.
            for relationship in entity.orderedRelationships {
                guard let inverse = relationship.inverse, inverse.storage != .column else { continue }
                for other in snapshot.values[relationship.name]?.identifiers ?? [] {
                    guard let otherKey = adapter.key(for: other) ?? temporaryKey(of: other) else { continue }
                    try modify(otherKey) { $0.remove(member, from: inverse) }
                }
            }
        }
    }

    func existingKey(in entity: Schema.Entity, matching values: [(property: Int, value: StoreValue)]) throws -> Int64? {
        guard !values.contains(where: { $0.value == .null }) else { return nil }
        var expected: [(name: String, value: SnapshotValue)] = []
        for (property, value) in values {
            if let attribute = entity.attribute(at: property) {
                expected.append((attribute.name, .attribute(value)))
            } else if let relationship = entity.relationship(at: property), case .int64(let key) = value {
                expected.append((relationship.name, .toOne(identifier(of: key))))
            } else {
                return nil
            }
        }
        return try all(entity.name).sorted { $0.key < $1.key }.first { _, snapshot in
            expected.allSatisfy { snapshot.values[$0.name] == $0.value }
        }?.key
    }

    // MARK: Committing

    /// Sends the save to the store, then gives the inserted models the permanent identifiers it returned and keeps
    /// the saved snapshots at hand.
    func commit() throws {
        let insertedKeys = inserted.filter { deleted[$0] == nil }
        let insertedSet = Set(insertedKeys)
        let updatedKeys = working.keys.filter { !insertedSet.contains($0) && deleted[$0] == nil }.sorted()
        let deletedKeys = deleted.keys.filter { newEntities[$0] == nil }.sorted()
        guard !insertedKeys.isEmpty || !updatedKeys.isEmpty || !deletedKeys.isEmpty else { return }
        func snapshots(_ keys: [Int64], in source: [Int64: DefaultSnapshot]) -> [Store.Snapshot] {
            keys.compactMap { source[$0] as? Store.Snapshot }
        }
        let request = DataStoreSaveChangesRequest(
            editingState: editingState, inserted: snapshots(insertedKeys, in: working),
            updated: snapshots(updatedKeys, in: working), deleted: snapshots(deletedKeys, in: deleted))
        let result = try adapter.store.save(request)
        savedHistoryToken = result.historyToken
        let remapped = result.remappedIdentifiers
        for key in insertedKeys {
            guard let temporary = temporary[key] else { continue }
            if let permanent = remapped[temporary] {
                adapter.assign(permanent, to: key)
            } else {
                Log.error(
                    "\(Store.self) returned no permanent identifier for the new \(temporary.entityName) \(temporary); "
                        + "it keeps its temporary one")
                adapter.assign(temporary, to: key)
            }
        }
        for key in insertedKeys + updatedKeys {
            guard let snapshot = working[key], let identifier = adapter.identifierOfKey(key) else { continue }
            adapter.remember(snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped))
        }
        for (key, snapshot) in deleted {
            adapter.snapshots[snapshot.persistentIdentifier.entityName]?[key] = nil
        }
        for snapshot in result.snapshotsToReregister.values {
            if let snapshot = snapshot as? DefaultSnapshot { adapter.remember(snapshot) }
        }
    }
}

extension DefaultSnapshot {
    /// Takes `member` out of a relationship's value.
    mutating func remove(_ member: PersistentIdentifier, from relationship: Schema.Relationship) {
        switch values[relationship.name] {
        case .toOne(member)?: values[relationship.name] = .toOne(nil)
        case .toMany(let members)?: values[relationship.name] = .toMany(members.filter { $0 != member })
        default: break
        }
    }
}
