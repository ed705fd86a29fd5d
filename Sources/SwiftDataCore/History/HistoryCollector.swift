import Foundation

/// What one save writes to one store, gathered while it writes, then recorded as one transaction of the store's
/// history in the same write transaction, so that the changes and their history commit together or not at all.
///
/// Gathering costs a few instructions per changed model: keys, and for updates the index of a "shape" (an entity
/// and the properties changed) that models changed alike share. Names, and the compact form a store keeps
/// (`HistoryPayload`), are made once, when the transaction is recorded.
final class HistoryCollector {

    /// An entity and a set of its properties: what an update changed, or what a delete preserves.
    private struct Shape: Equatable {
        let entity: Int
        let properties: PropertyMask

        /// The indexes of the properties, in increasing order.
        var indexes: [Int] {
            var indexes: [Int] = []
            forEachIndex { indexes.append($0) }
            return indexes
        }

        /// Calls `body` with the index of each property, in increasing order.
        func forEachIndex(_ body: (Int) -> Void) {
            func visit(_ bits: UInt64, word: Int) {
                var bits = bits
                while bits != 0 {
                    body(word * 64 + bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            visit(properties.low, word: 0)
            for (word, bits) in properties.high.enumerated() { visit(bits, word: word + 1) }
        }
    }

    private let author: String?
    @exclusivity(unchecked) private var entities: [Schema.Entity] = []
    /// The shapes of the transaction's updates and deletes; a save has few, so they are found by a linear search.
    @exclusivity(unchecked) private var shapes: [Shape] = []
    @exclusivity(unchecked) private var inserts: [(entity: Int, keys: [Int64])] = []
    /// Updated rows: their key and the index of their shape.
    @exclusivity(unchecked) private var updates: [(key: Int64, shape: Int)] = []
    /// The shape of the latest update.
    @exclusivity(unchecked) private var lastShape = 0
    /// Rows a save updates beside those of the changed models (an inserted model that took a stored row's place, a
    /// reference a delete cleared), merged with them when recorded: one change per row.
    @exclusivity(unchecked) private var sideUpdates: [(key: Int64, shape: Int)] = []
    @exclusivity(unchecked) private var deletes: [(entity: Int, keys: [Int64], values: [Int64: [StoreValue]])] = []

    init(author: String?) {
        self.author = author
    }

    /// The index of an entity in the transaction's table of entities.
    private func index(of entity: Schema.Entity) -> Int {
        if let index = entities.lastIndex(where: { $0 === entity }) { return index }
        entities.append(entity)
        return entities.count - 1
    }

    /// The index of a shape in the transaction's table of shapes.
    private func shape(_ entity: Schema.Entity, _ properties: PropertyMask) -> Int {
        let shape = Shape(entity: index(of: entity), properties: properties)
        if let index = shapes.firstIndex(of: shape) { return index }
        shapes.append(shape)
        return shapes.count - 1
    }

    /// New rows, inserted.
    func inserted(_ rows: [RowWrite], entity: Schema.Entity) {
        inserts.append((index(of: entity), rows.map(\.key)))
    }

    /// An inserted model that took the place of a stored row by a unique constraint: an update of that row.
    func upserted(_ row: RowWrite, entity: Schema.Entity) {
        var properties = PropertyMask()
        for attribute in row.attributes { properties.insert(attribute) }
        for reference in row.references { properties.insert(reference.relationship.index) }
        sideUpdates.append((row.key, shape(entity, properties)))
    }

    /// Makes room for `count` more updated rows, so that a save of many changed models does not grow the list again
    /// and again.
    func reserveUpdates(_ count: Int) {
        updates.reserveCapacity(updates.count + count)
    }

    /// A changed model's row, an update of the properties it changed. `isLikeLast` says that the previous call was
    /// for the same entity and changes (models come grouped by type and mostly changed alike), whose shape is then
    /// reused without a look-up.
    func updated(_ key: Int64, of entity: Schema.Entity, changes: PropertyMask, isLikeLast: Bool) {
        guard !changes.isEmpty else { return }
        if !isLikeLast || updates.isEmpty { lastShape = shape(entity, changes) }
        updates.append((key, lastShape))
    }

    /// Rows of `entity` whose `relationship` a delete cleared.
    func referencesCleared(_ keys: [Int64], in entity: Schema.Entity, relationship: Schema.Relationship) {
        guard !keys.isEmpty else { return }
        var properties = PropertyMask()
        properties.insert(relationship.index)
        let index = shape(entity, properties)
        for key in keys { sideUpdates.append((key, index)) }
    }

    /// Rows about to be deleted: their keys, and the values of their attributes marked `.preserveValueOnDeletion`,
    /// read now, while the rows exist.
    func deleting(_ keys: [Int64], of entity: Schema.Entity, in transaction: any RowStoreTransaction) throws {
        guard !keys.isEmpty else { return }
        guard entity.fetchReadsEntity else { return try record(keys, of: entity, in: transaction) }
        // Rows of a superclass may be its subclasses' (a delete of the superclass, a cascade to it): each is recorded
        // as its own class, with the values its class preserves.
        let names = try transaction.entityNames(of: keys, entity: entity)
        var byEntity: [String: [Int64]] = [:]
        for key in keys { byEntity[names[key] ?? entity.name, default: []].append(key) }
        for member in entity.selfAndDescendants {
            if let keys = byEntity[member.name] { try record(keys, of: member, in: transaction) }
        }
    }

    /// Notes rows of exactly `entity` about to be deleted, with their preserved values.
    private func record(_ keys: [Int64], of entity: Schema.Entity, in transaction: any RowStoreTransaction) throws {
        let preserved = Self.preservedAttributes(of: entity)
        let values =
            preserved.isEmpty ? [:] : try transaction.storedValues(of: keys, entity: entity, attributes: preserved)
        deletes.append((index(of: entity), keys, values))
    }

    /// The attributes of an entity whose values a delete preserves.
    static func preservedAttributes(of entity: Schema.Entity) -> [Int] {
        entity.orderedAttributes.filter { $0.options.contains(.preserveValueOnDeletion) }.map(\.index)
    }

    /// Records what was gathered as the store's next history transaction, its changes in the order the save
    /// wrote them (updates, deletes, inserts: a new model may take a unique value a deleted one had); returns its
    /// number, or `nil` when the save changed nothing in the store.
    func record(in transaction: any RowStoreTransaction) throws -> Int64? {
        guard !inserts.isEmpty || !updates.isEmpty || !sideUpdates.isEmpty || !deletes.isEmpty else { return nil }
        mergeSideUpdates()
        let deleteShapes = deletes.map { delete -> Int? in
            let entity = entities[delete.entity]
            var preserved = PropertyMask()
            for attribute in Self.preservedAttributes(of: entity) { preserved.insert(attribute) }
            return preserved.isEmpty ? nil : shape(entity, preserved)
        }
        var count = updates.count
        for insert in inserts { count += insert.keys.count }
        for delete in deletes { count += delete.keys.count }
        // The payload (see `HistoryPayload`): the format's version, the tables of entity names and of shapes' property
        // names, the number of changes, then the changes.
        var writer = HistoryPayload.Writer()
        writer.bytes.reserveCapacity(16 * (1 + entities.count + shapes.count) + count * 4)
        writer.bytes.append(HistoryPayload.version)
        writer.unsigned(UInt64(entities.count))
        for entity in entities { writer.string(entity.name) }
        writer.unsigned(UInt64(shapes.count))
        for shape in shapes {
            let entity = entities[shape.entity]
            writer.unsigned(UInt64(nameCount(of: shape)))
            shape.forEachIndex { index in
                if let name = Self.name(of: index, in: entity) { writer.string(name) }
            }
        }
        writer.unsigned(UInt64(count))
        // Reading a shape's entity from `shapes` would copy the shape, its properties' words included.
        let shapeEntities = shapes.map(\.entity)
        for (key, shape) in updates {
            writer.change(.update, entity: shapeEntities[shape], key: key)
            writer.unsigned(UInt64(shape))
        }
        for (delete, shape) in zip(deletes, deleteShapes) {
            let valueCount = shape.map { nameCount(of: shapes[$0]) } ?? 0
            for key in delete.keys {
                writer.change(.delete, entity: delete.entity, key: key)
                guard let shape else {
                    writer.unsigned(0)
                    continue
                }
                writer.unsigned(UInt64(shape) + 1)
                let values = delete.values[key] ?? []
                for index in 0..<valueCount {
                    writer.value(index < values.count ? values[index] : .null)
                }
            }
        }
        for (entity, keys) in inserts {
            for key in keys { writer.change(.insert, entity: entity, key: key) }
        }
        let changes = Data(writer.bytes)
        return try transaction.recordHistory(
            HistoryEntry(
                timestamp: Date(), author: author, bundleIdentifier: HistoryEntry.program.bundleIdentifier,
                processIdentifier: HistoryEntry.program.processIdentifier, changes: changes))
    }

    /// The name of property `index` of `entity`, which a shape lists. A subentity's property indexes count its
    /// inherited properties first, which `storedProperties` lacks.
    private static func name(of index: Int, in entity: Schema.Entity) -> String? {
        entity.attribute(at: index)?.name ?? entity.relationship(at: index)?.name
    }

    /// How many names a shape lists: its properties that the entity has.
    private func nameCount(of shape: Shape) -> Int {
        let entity = entities[shape.entity]
        var count = 0
        shape.forEachIndex { index in
            if Self.name(of: index, in: entity) != nil { count += 1 }
        }
        return count
    }

    /// Adds the side updates to the updates, one change per row naming every property the save wrote.
    private func mergeSideUpdates() {
        guard !sideUpdates.isEmpty else { return }
        var positions: [RowKey: Int] = [:]
        for (position, update) in updates.enumerated() {
            positions[RowKey(entity: shapes[update.shape].entity, key: update.key)] = position
        }
        for update in sideUpdates {
            let entity = shapes[update.shape].entity
            let row = RowKey(entity: entity, key: update.key)
            guard let position = positions[row] else {
                positions[row] = updates.count
                updates.append(update)
                continue
            }
            var properties = shapes[updates[position].shape].properties
            for property in shapes[update.shape].indexes { properties.insert(property) }
            updates[position].shape = shape(entities[entity], properties)
        }
        sideUpdates = []
    }

    private struct RowKey: Hashable {
        let entity: Int
        let key: Int64
    }
}
