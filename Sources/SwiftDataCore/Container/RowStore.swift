import Foundation

/// What a container needs from a store, row by row: fetches, counts and all-or-nothing writes. It is the fast seam
/// between Core and this package's own stores (the SQLite store implements it, and a PostgreSQL store will); a
/// store written against Apple's public `DataStore` protocol plugs in through `SnapshotStoreAdapter`, which
/// implements it with snapshots. Values cross it with their meaning (`_RowReader`, `_RowWriter`, `StoreValue`); the
/// store decides how it keeps them.
package protocol RowStore: AnyObject, Sendable {
    /// A stable identifier of the store, kept in the store itself.
    var identifier: String { get }
    /// The name of the configuration the store was opened with.
    var configurationName: String { get }
    /// Whether the store may be written (`ModelConfiguration.allowsSave`).
    var allowsSave: Bool { get }
    /// Whether the store's identifiers are not simply its keys (`persistentIdentifier(forKey:entity:)`).
    var mapsIdentifiers: Bool { get }

    /// The plan of a request: what the store runs itself, prepared once per shape of request (the predicate's and
    /// sort's structure, the properties read, whether there is a limit, an offset or a list of keys) and reused
    /// with this request's values.
    func prepare<T: PersistentModel>(_ request: FetchRequest<T>) -> FetchPlan
    /// Calls `row` for every row the request selects, as `plan` (the request's, from `prepare`) runs it, with the
    /// row's primary key and a reader whose column `i + 1` holds property `request.properties[i]` (for a to-one
    /// relationship stored in a column, the related row's key or NULL). When the entity has subentities
    /// (`fetchReadsEntity`), column 1 holds the row's entity name instead and the properties start at column 2,
    /// followed by each of `request.subentityProperties` in order (NULL in rows of other entities).
    func fetch<T: PersistentModel>(
        _ request: FetchRequest<T>, plan: FetchPlan, row: (Int64, any _RowReader) throws -> Void) throws
    /// Calls `row` for every member of a relationship of the given owners, in each owner's order, with the owner's
    /// key, the member's key and a reader whose column `i + 2` holds the member's property `properties[i]`. When the
    /// destination has subentities, column 2 holds the member's entity name, and the properties start at column 3,
    /// followed by `subentityProperties`, as in `fetch`.
    func fetchMembers(
        of relationship: Schema.Relationship, owners: [Int64], destination: Schema.Entity, properties: [Int],
        subentityProperties: [SubentityProperties],
        row: (_ owner: Int64, _ member: Int64, any _RowReader) throws -> Void) throws
    /// The number of rows the request selects (limit and offset applied), when `plan` covers the whole request.
    func fetchCount<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan) throws -> Int
    /// Computes `query` over the rows the request selects (limit and offset applied) and calls `row` for each group,
    /// with a reader whose columns hold the group's keys, then its terms, from column 0; returns `false`, calling
    /// nothing, when it cannot compute all of it (see `AggregateQuery`).
    func fetchAggregates<T: PersistentModel>(
        _ request: FetchRequest<T>, query: AggregateQuery, row: (any _RowReader) throws -> Void
    ) throws -> Bool
    /// Runs `body` in one write transaction for the context with `editingState`: every change it makes is committed
    /// together, or none is. A store may run `body` again after the server rolled the transaction back (a
    /// deadlock), so each run of it starts afresh.
    func write<Result>(for editingState: EditingState, _ body: (any RowStoreTransaction) throws -> Result) throws
        -> Result
    /// Removes every row of every entity.
    func erase() throws
    /// The data behind a reference that a fetch read from an externally stored attribute (see `_ExternalValue`).
    func readExternal(_ reference: String) throws -> Data
    /// Whether another process committed to the store since the last call.
    func hasExternalChanges() -> Bool
    /// Asks the store to call `handler`, on any thread, as soon as it learns that another process committed, for a
    /// store that is told of those commits (a PostgreSQL store's `NOTIFY`) rather than finding them when checked.
    /// Stores without such news ignore it, and are checked with `hasExternalChanges`.
    func onExternalChange(_ handler: @escaping @Sendable () -> Void)
    /// The identifier of the model whose key is `key`, when `mapsIdentifiers`.
    func persistentIdentifier(forKey key: Int64, entity: Schema.Entity) -> PersistentIdentifier
    /// The key of the model with an identifier of this store, when `mapsIdentifiers`.
    func key(for identifier: PersistentIdentifier) -> Int64?
    /// A context with this editing state starts using the store.
    func initializeState(for editingState: EditingState)
    /// A context with this editing state stops using the store.
    func invalidateState(for editingState: EditingState)

    // History. A store that keeps one records every save as one transaction, through
    // `RowStoreTransaction.recordHistory` inside the save's own transaction, and returns and deletes transactions here.
    // Core encodes the changes (`HistoryPayload`), translates predicates into `HistoryCondition`s and decodes what
    // the store returns; the store keeps numbered rows and evaluates conditions on them.

    /// Whether the store keeps the history of its saves; `false` for stores without one.
    var recordsHistory: Bool { get }
    /// The transactions of the store's history that `request` selects, oldest first (newest first when it asks),
    /// read without waiting for a write. Throws `SwiftDataError.historyTokenExpired` when transactions after
    /// `request.after` were deleted.
    func fetchHistory(_ request: HistoryRequest) throws -> [HistoryRecord]
    /// Deletes the transactions of the store's history that `request.condition` selects; the others stay, and
    /// numbers are never reused.
    func deleteHistory(_ request: HistoryRequest) throws
}

extension RowStore {
    /// A store's identifiers hold its keys.
    package var mapsIdentifiers: Bool { false }

    package func persistentIdentifier(forKey key: Int64, entity: Schema.Entity) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: identifier, entityName: entity.name, key: .permanent(key))
    }

    package func key(for identifier: PersistentIdentifier) -> Int64? { identifier.primaryKey }

    package func initializeState(for editingState: EditingState) {}

    package func invalidateState(for editingState: EditingState) {}

    /// A store finds other processes' commits only when checked.
    package func onExternalChange(_ handler: @escaping @Sendable () -> Void) {}

    /// A store keeps no history unless it says so.
    package var recordsHistory: Bool { false }

    /// A store without history has no transactions.
    package func fetchHistory(_ request: HistoryRequest) throws -> [HistoryRecord] { [] }

    /// A store without history has nothing to delete.
    package func deleteHistory(_ request: HistoryRequest) throws {}

    /// Calls `row` for every row a request selects, preparing it first (see `fetch(_:plan:row:)`).
    package func fetch<T: PersistentModel>(_ request: FetchRequest<T>, row: (Int64, any _RowReader) throws -> Void)
        throws
    {
        try fetch(request, plan: prepare(request), row: row)
    }
}

/// The writes a store offers inside a transaction.
package protocol RowStoreTransaction {
    /// Reserves `count` new primary keys for the entity and returns the first; the others follow it. Keys are
    /// never reused.
    func allocateKeys(count: Int, entity: Schema.Entity) throws -> Int64
    /// Inserts rows of the entity.
    func insert(_ rows: [RowWrite], entity: Schema.Entity) throws
    /// Updates the given columns of rows of the entity.
    func update(_ rows: [RowWrite], entity: Schema.Entity) throws
    /// Updates the rows of several entities, `update` once per entity. The default keeps the order given; a store may
    /// pick one of its own (the PostgreSQL store writes entities in one fixed order, so that saves lock rows alike).
    /// A concrete sequence, not a generic one: called through the protocol, a generic one ran unspecialized.
    func update(batches: Zip2Sequence<[Schema.Entity], [[RowWrite]]>) throws
    /// Makes `members`, in order, the members of a join-table relationship for `owner`.
    func setMembers(_ members: [Int64], of owner: Int64, relationship: Schema.Relationship) throws
    /// The (owner, member) pairs of a relationship for the given owners, as stored.
    func related(_ relationship: Schema.Relationship, owners: [Int64]) throws -> [(owner: Int64, member: Int64)]
    /// Clears a relationship's references to the given destination keys (foreign keys become NULL, join rows go)
    /// and returns the keys of the rows that referred to them.
    func clearReferences(_ relationship: Schema.Relationship, to destinations: [Int64]) throws -> [Int64]
    /// Deletes the rows with the given keys, and their rows in join tables.
    func delete(keys: [Int64], entity: Schema.Entity) throws
    /// The key of the row whose properties hold the given values (`NULL` matches nothing), if there is one.
    func existingKey(in entity: Schema.Entity, matching values: [(property: Int, value: StoreValue)]) throws -> Int64?
    /// For each of `candidates` (values of `properties`, in order), the key of the stored row of `entity` that holds
    /// them, as `existingKey` finds it (`NULL` matches nothing): what a save's new models match on one unique
    /// constraint, looked up together. The default asks `existingKey` once per candidate.
    func existingKeys(in entity: Schema.Entity, properties: [Int], candidates: [[StoreValue]]) throws -> [Int64?]
    /// Records `entry` as the next transaction of the store's history, in this transaction, so that a save's changes
    /// and their history commit together or not at all; returns its number, greater than every earlier one (or, when
    /// the store draws it with the commit, a number that `committedHistoryNumber` replaces). Called only when the
    /// store `recordsHistory`.
    func recordHistory(_ entry: HistoryEntry) throws -> Int64
    /// The number of the history row `recordHistory` recorded, read after the commit, when the store drew it with
    /// the commit; `nil` when `recordHistory` returned it.
    var committedHistoryNumber: Int64? { get }
    /// The values of `attributes` of the rows with `keys`, by key, in the order of `attributes` (an externally
    /// stored value as its data): what a delete preserves, read before it deletes the rows. Called only when the
    /// store `recordsHistory`.
    func storedValues(of keys: [Int64], entity: Schema.Entity, attributes: [Int]) throws -> [Int64: [StoreValue]]
    /// The entity names of the rows with `keys`, rows of `entity` or of its subentities, read from its hierarchy's
    /// entity column: a delete of a superclass's rows records each as its own class. Called only when the store
    /// `recordsHistory` and `entity` has subentities.
    func entityNames(of keys: [Int64], entity: Schema.Entity) throws -> [Int64: String]
    /// The history token a store of your own returned for the committed save, read after the commit.
    var savedHistoryToken: (any HistoryToken)? { get }
    /// Sets `values` (attributes of `request.entity`) in every row `request` selects, in one statement (one per
    /// chunk of its keys), and returns the keys of those rows: by its keys when it has them, otherwise by its
    /// predicate, which the store's plan runs exactly.
    func updateAll<T: PersistentModel>(_ request: FetchRequest<T>, values: [(property: Int, value: StoreValue)]) throws
        -> [Int64]
}

extension RowStoreTransaction {
    package func update(batches: Zip2Sequence<[Schema.Entity], [[RowWrite]]>) throws {
        for (entity, rows) in batches { try update(rows, entity: entity) }
    }

    package func existingKeys(in entity: Schema.Entity, properties: [Int], candidates: [[StoreValue]]) throws
        -> [Int64?]
    {
        try candidates.map { values in
            try existingKey(in: entity, matching: zip(properties, values).map { ($0, $1) })
        }
    }

    package func recordHistory(_ entry: HistoryEntry) throws -> Int64 {
        throw SwiftDataError.storeError.with(
            reason: "the store keeps no history",
            suggestion: "Record history only in stores whose recordsHistory is true")
    }

    package func storedValues(of keys: [Int64], entity: Schema.Entity, attributes: [Int]) throws -> [Int64:
        [StoreValue]]
    {
        [:]
    }

    package func entityNames(of keys: [Int64], entity: Schema.Entity) throws -> [Int64: String] { [:] }

    /// A store of your own updates no rows in a batch.
    package func updateAll<T: PersistentModel>(
        _ request: FetchRequest<T>, values: [(property: Int, value: StoreValue)]
    ) throws -> [Int64] {
        throw SwiftDataError.storeError.with(
            reason: "the store cannot update \(request.entity.name) models in a batch", model: request.entity.name,
            suggestion: "Fetch the models and change them, then save")
    }

    /// The history token a store of your own returned for the committed save
    /// (`DataStoreSaveChangesResult.historyToken`); `nil` for the framework's stores, whose saves record history
    /// themselves.
    package var savedHistoryToken: (any HistoryToken)? { nil }

    /// A store that returns its history number from `recordHistory` reports none after the commit.
    package var committedHistoryNumber: Int64? { nil }
}

/// One row to insert or update: its key, the attributes to write (read from the model) and the foreign keys.
package struct RowWrite {
    package let model: (any PersistentModel)?
    package let key: Int64
    package let attributes: [Int]
    package let references: [ReferenceWrite]

    package init(model: (any PersistentModel)?, key: Int64, attributes: [Int], references: [ReferenceWrite]) {
        self.model = model
        self.key = key
        self.attributes = attributes
        self.references = references
    }

    /// An error binding attribute `property` of a row as a `SwiftDataError` naming the model and the property; an
    /// error of the value's own encoding (a `Codable` value's `encode(to:)`) becomes `modelValidationFailure`.
    package static func naming(_ error: any Error, entity: Schema.Entity, property: Int) -> SwiftDataError {
        let name = entity.attribute(at: property)?.name
        if let error = error as? SwiftDataError { return error.with(model: entity.name, property: name) }
        return SwiftDataError.modelValidationFailure.with(
            reason: "the value of \(entity.name).\(name ?? "property \(property)") could not be encoded: \(error)",
            model: entity.name, property: name,
            suggestion: "Make the value's encode(to:) succeed, or mark the property @Transient")
    }

    /// Binds an attribute of a row's model that Core converts (see `Schema.Entity.convertedAttributes`): its value
    /// encoded by its coding (`.transformable`, `.codable`), and for an externally stored one handed to the store as
    /// external data. Other attributes bind through the model's generated `_$store`.
    package static func bindConverted(
        _ attribute: Schema.Attribute, of model: (any PersistentModel)?, into writer: any _RowWriter, parameter: Int32
    ) throws {
        let value = model?._$get(attribute.index).value
        let stored = try attribute.storedValue(of: value)
        if attribute.isExternal, case .data(let data) = stored { return try writer.bindExternal(data, parameter) }
        try writer.bind(stored, parameter)
    }
}

/// A foreign key to write: the column, the referenced key, and for a to-many inverse, the position in it.
package struct ReferenceWrite {
    package let relationship: Schema.Relationship
    package let key: Int64?
    package let position: Position?

    /// Where the row goes in its owner's ordered to-many inverse.
    package enum Position: Equatable {
        /// At this index.
        case index(Int)
        /// After the owner's current last member.
        case last
    }

    package init(relationship: Schema.Relationship, key: Int64?, position: Position?) {
        self.relationship = relationship
        self.key = key
        self.position = position
    }
}

/// A fetch as a store sees it.
package struct FetchRequest<T: PersistentModel> {
    package var entity: Schema.Entity
    package var predicate: Predicate<T>?
    package var sortBy: [SortDescriptor<T>] = []
    package var fetchLimit: Int?
    package var fetchOffset: Int?
    /// The property indexes to read; the row's key is always read.
    package var properties: [Int]
    /// Restricts the fetch to these primary keys.
    package var keys: [Int64]?
    /// The editing state of the context that fetches, when one does.
    package var editingState: EditingState?
    /// For an entity with subentities: each subentity's own properties to read after `properties`, so that one
    /// query loads models of every class (empty reads only `properties`).
    package var subentityProperties: [SubentityProperties] = []
    /// Whether rows of the entity's subentities are selected too.
    package var includesSubentities = true

    // Inlined: in unspecialized generic code each call of its own looks up the metadata of `Predicate<T>?` again.
    @inline(__always)
    package init(entity: Schema.Entity, predicate: Predicate<T>? = nil, properties: [Int]) {
        self.entity = entity
        self.predicate = predicate
        self.properties = properties
    }
}

/// The properties of a subentity's own that a fetch of its superentity reads after the superentity's (see
/// `RowStore.fetch`).
package struct SubentityProperties: Sendable {
    package let entity: Schema.Entity
    package let properties: [Int]

    package init(_ entity: Schema.Entity, _ properties: [Int]) {
        self.entity = entity
        self.properties = properties
    }
}

/// The entity of a model type and the store that holds it.
package final class EntityBinding: Sendable {
    package let entity: Schema.Entity
    package let store: any RowStore
    package let storeIdentifier: String

    init(entity: Schema.Entity, store: any RowStore) {
        self.entity = entity
        self.store = store
        self.storeIdentifier = store.identifier
        self.mapsIdentifiers = store.mapsIdentifiers
        let columns = entity.orderedRelationships.filter { $0.storage == .column }
        let stored = entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }
        attributeIndexes = stored.map(\.index)
        externalAttributes = Set(stored.filter(\.isExternal).map(\.index))
        codedAttributes = externalAttributes.union(stored.filter { $0.coding != nil }.map(\.index))
        fetchedProperties = attributeIndexes + columns.map(\.index)
        fetchedRelationships = fetchedProperties.map { entity.relationship(at: $0) }
        lazyRelationships = entity.orderedRelationships.filter { $0.storage != .column }.map(\.index)
        hasRelationships = !entity.orderedRelationships.isEmpty
        hasToManyRelationships = entity.orderedRelationships.contains { !$0.isToOneRelationship }
        uniquenessConstraints = entity.inheritedUniquenessConstraints
        subentityProperties = entity.selfAndDescendants.dropFirst().map { subentity in
            SubentityProperties(
                subentity, EntityBinding.fetchedProperties(of: subentity).filter { $0 >= subentity.inheritedCount })
        }
    }

    /// What a fetch reads of an entity's rows: its stored attributes, then its to-one relationships kept in a
    /// column of the row.
    static func fetchedProperties(of entity: Schema.Entity) -> [Int] {
        entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }.map(\.index)
            + entity.orderedRelationships.filter { $0.storage == .column }.map(\.index)
    }

    /// The unique constraints a model of the entity must satisfy, with the entity each spans (see
    /// `Schema.Entity.inheritedUniquenessConstraints`).
    package let uniquenessConstraints: [(constraint: [String], scope: Schema.Entity)]

    /// For an entity with subentities: the own properties of each subentity that a full fetch reads after the
    /// entity's, parents first (see `RowStore.fetch`).
    package let subentityProperties: [SubentityProperties]

    /// The properties a fetch reads, in order: the attributes, then the to-one relationships stored in a
    /// column of this entity.
    package let fetchedProperties: [Int]
    /// For each of `fetchedProperties`, its to-one relationship, or `nil` for an attribute.
    package let fetchedRelationships: [Schema.Relationship?]
    /// The relationships a fetched model loads later, when first read.
    package let lazyRelationships: [Int]
    /// Whether the entity has relationships, and to-many ones: asked for every model a save writes, and a constant
    /// here (the entity's lists are variables, and each read of one is checked for exclusive access).
    package let hasRelationships: Bool
    package let hasToManyRelationships: Bool
    /// The stored attributes' property indexes, in order (`.ephemeral` ones are never stored).
    package let attributeIndexes: [Int]
    /// Attributes the store may keep apart from the row (`.externalStorage`): their values load when first read.
    package let externalAttributes: Set<Int>
    /// Attributes converted by Core (`.transformable`, `.codable`, external) rather than by generated code.
    package let codedAttributes: Set<Int>
    /// Whether the store's identifiers are not its keys (a store of your own, through `SnapshotStoreAdapter`).
    package let mapsIdentifiers: Bool

    /// The identifier of the entity's model whose key is `key`.
    package func identifier(forKey key: Int64) -> PersistentIdentifier {
        if mapsIdentifiers { return store.persistentIdentifier(forKey: key, entity: entity) }
        return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, key: .permanent(key))
    }

    /// The key of the model with a permanent identifier of this store, or `nil`.
    package func key(for identifier: PersistentIdentifier) -> Int64? {
        mapsIdentifiers ? store.key(for: identifier) : identifier.primaryKey
    }

}

extension Schema.Entity {
    /// Which attributes Core converts when a row is written (see `RowWrite.bindConverted`), by property index; a
    /// store looks it up once per batch of rows rather than for every value.
    package func convertedAttributes() -> [Bool] {
        var converted: [Bool] = []
        for attribute in orderedAttributes where attribute.coding != nil || attribute.isExternal {
            if attribute.index >= converted.count {
                converted += repeatElement(false, count: attribute.index - converted.count + 1)
            }
            converted[attribute.index] = true
        }
        return converted
    }
}
