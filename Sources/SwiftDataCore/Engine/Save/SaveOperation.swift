import Foundation

/// One save of a context: the rows it writes, and the in-memory state it leaves once committed.
///
/// The order: changed rows first (so that delete rules see where changed models now belong), then deletes with
/// their delete rules, then new rows (so that a new model never merges into, or collides with, a row the same save
/// deletes), then relationship members. A `.deny` rule and a required to-one are checked against what the save
/// leaves: models deleted by the same save do not count, models it inserts do.
struct SaveOperation {
    let context: ModelContext
    let inserts: [any PersistentModel]
    let insertBindings: [EntityBinding]
    let updates: [any PersistentModel]
    let deletes: [any PersistentModel]
    /// Stored rows to delete that no registered model stands for (`ModelContext.deletedRows`).
    let deletedRows: [String: Set<Int64>]

    /// Keys given to inserted models, by position in `inserts` (`nil` for models of stores not written yet).
    private(set) var insertedKeys: [Int64?] = []
    /// Keys deleted, by entity name, including cascades.
    let deleted = DeletedKeys()
    /// Positions of members in loaded to-many arrays, computed once per array.
    private let positions = MemberPositions()
    /// Positions of inserted models in `inserts`, for relationships that refer to them.
    private let insertPositions = InsertPositions()
    /// Inserted models merged into another by a unique constraint: the duplicate's and the survivor's positions in
    /// `inserts`.
    private(set) var merged: [(duplicate: Int, survivor: Int)] = []
    /// Whether each inserted model (by position in `inserts`) matched a stored row by its unique values and becomes
    /// that row; empty when none did.
    private(set) var upserts: [Bool] = []
    /// What the save writes to the store being written, for its history transaction.
    private(set) var history: HistoryCollector?
    /// The number of the history transaction the save recorded in each store, by store identifier.
    var historyNumbers: [String: Int64] = [:]
    /// The history token a store of your own returned for the save (the framework's stores record numbers above).
    var providedHistoryToken: (any HistoryToken)?

    // MARK: Validation

    /// Refuses relationship counts outside `minimumModelCount` / `maximumModelCount`.
    func validate() throws {
        func bounded(_ entity: Schema.Entity) -> [Schema.Relationship] {
            entity.orderedRelationships.filter {
                !$0.isToOneRelationship && ($0.minimumModelCount ?? 0 > 0 || $0.maximumModelCount ?? 0 > 0)
            }
        }
        guard context.container.schema.entities.contains(where: { !bounded($0).isEmpty }) else { return }
        var entity: Schema.Entity?
        var relationships: [Schema.Relationship] = []
        func check(_ model: any PersistentModel, _ binding: EntityBinding?) throws {
            // Models come grouped by type, mostly: look the entity's bounded relationships up when it changes.
            guard let modelEntity = binding?.entity else { return }
            if modelEntity !== entity {
                entity = modelEntity
                relationships = bounded(modelEntity)
            }
            for relationship in relationships {
                guard let count = model._$get(relationship.index).relatedModels?.count else { continue }
                if let minimum = relationship.minimumModelCount, minimum > 0, count < minimum {
                    throw countError(
                        modelEntity, relationship, "has \(count) models, fewer than its minimum of \(minimum)")
                }
                if let maximum = relationship.maximumModelCount, maximum > 0, count > maximum {
                    throw countError(
                        modelEntity, relationship, "has \(count) models, more than its maximum of \(maximum)")
                }
            }
        }
        for (model, binding) in zip(inserts, insertBindings) { try check(model, binding) }
        for model in updates { try check(model, model._$persistentState.binding) }
    }

    private func countError(_ entity: Schema.Entity, _ relationship: Schema.Relationship, _ detail: String)
        -> SwiftDataError
    {
        SwiftDataError.modelValidationFailure.with(
            reason: "\(entity.name).\(relationship.name) \(detail)", model: entity.name, property: relationship.name,
            suggestion: "Add or remove related models before saving")
    }

    // MARK: Writing

    /// Writes everything that belongs to `store` in the transaction.
    mutating func write(_ transaction: any RowStoreTransaction, store: any RowStore) throws {
        history = store.recordsHistory ? HistoryCollector(author: context.author) : nil
        defer { history = nil }
        try allocateKeys(transaction, store: store)
        // Changed rows: models changed in the same properties share one list of attributes to write. Models come
        // grouped by type and mostly changed alike, so the list is made again only when either changes (plain
        // variables rather than an optional tuple, which would retain and release its parts for every model).
        var updated = RowBatches(capacity: updates.count)
        history?.reserveUpdates(updates.count)
        var lastBinding: EntityBinding?
        var lastChanges = PropertyMask()
        var attributes: [Int] = []
        var hasRelationships = false
        var hasToMany = false
        for model in updates {
            let (binding, changes, key) = model._$persistentState.update
            guard let binding, binding.store === store else { continue }
            let isLikeLast = binding === lastBinding && changes == lastChanges
            if !isLikeLast {
                attributes = binding.attributeIndexes.filter(changes.contains)
                lastBinding = binding
                lastChanges = changes
                hasRelationships = binding.hasRelationships
                hasToMany = hasToMany || binding.hasToManyRelationships
            }
            history?.updated(key, of: binding.entity, changes: changes, isLikeLast: isLikeLast)
            let references =
                hasRelationships ? try references(of: model, entity: binding.entity, only: changes) : []
            guard !attributes.isEmpty || !references.isEmpty else { continue }
            updated.append(
                RowWrite(model: model, key: key, attributes: attributes, references: references),
                to: binding.entity)
        }
        if hasToMany {
            for model in updates {
                guard let binding = model._$persistentState.binding, binding.hasToManyRelationships,
                    binding.store === store
                else { continue }
                try writeMembers(of: model, entity: binding.entity, isNew: false, into: &updated, transaction)
            }
        }
        try transaction.update(batches: updated.batches)

        try deleteWithRules(transaction, store: store)

        try resolveUniqueness(transaction, store: store)
        let duplicates = Set(merged.map(\.duplicate))
        var inserted = RowBatches(capacity: insertBindings.count)
        var upserted = RowBatches()
        for (position, binding) in insertBindings.enumerated() where binding.store === store {
            guard duplicates.isEmpty || !duplicates.contains(position) else { continue }
            let model = inserts[position]
            guard let key = insertedKeys[position] else { throw unsavedError(model) }
            let references =
                binding.hasRelationships ? try references(of: model, entity: binding.entity, only: nil) : []
            let row = RowWrite(model: model, key: key, attributes: binding.attributeIndexes, references: references)
            if !upserts.isEmpty, upserts[position] {
                upserted.append(row, to: binding.entity)
                history?.upserted(row, entity: binding.entity)
            } else {
                inserted.append(row, to: binding.entity)
            }
        }
        for (entity, rows) in inserted.batches {
            try transaction.insert(rows, entity: entity)
            history?.inserted(rows, entity: entity)
        }
        for (model, binding) in zip(inserts, insertBindings)
        where binding.hasToManyRelationships && binding.store === store {
            try writeMembers(of: model, entity: binding.entity, isNew: true, into: &upserted, transaction)
        }
        try transaction.update(batches: upserted.batches)
        try checkInsertsAgainstDeletes(transaction, store: store)
        if let number = try history?.record(in: transaction) { historyNumbers[store.identifier] = number }
    }

    /// Gives the store's new models keys: one range of keys per entity, in the order of `inserts`.
    private mutating func allocateKeys(_ transaction: any RowStoreTransaction, store: any RowStore) throws {
        // Each new model's entity, by its number in `entities` (-1 for models of other stores); models come grouped
        // by type, mostly, so the entity is looked up when it changes.
        var entities: [Schema.Entity] = []
        var counts: [Int] = []
        var numbers = [Int](repeating: -1, count: insertBindings.count)
        var lastEntity: Schema.Entity?
        var last = -1
        for (position, binding) in insertBindings.enumerated() where binding.store === store {
            if binding.entity !== lastEntity {
                lastEntity = binding.entity
                if let index = entities.firstIndex(where: { $0 === binding.entity }) {
                    last = index
                } else {
                    last = entities.count
                    entities.append(binding.entity)
                    counts.append(0)
                }
            }
            numbers[position] = last
            counts[last] += 1
        }
        if insertedKeys.isEmpty { insertedKeys = Array(repeating: nil, count: inserts.count) }
        // The next key of each entity.
        var next: [Int64] = []
        next.reserveCapacity(entities.count)
        for (entity, count) in zip(entities, counts) {
            next.append(try transaction.allocateKeys(count: count, entity: entity))
        }
        for (position, number) in numbers.enumerated() where number >= 0 {
            insertedKeys[position] = next[number]
            next[number] += 1
        }
    }

    /// Applies unique constraints to the inserted models: among inserted duplicates the last one survives, and a
    /// survivor whose values match a stored row takes that row's key, so its save updates the row. The duplicates'
    /// keys become the survivor's, so references to them lead to the surviving row.
    private mutating func resolveUniqueness(_ transaction: any RowStoreTransaction, store: any RowStore) throws {
        guard insertBindings.contains(where: { $0.store === store && !$0.uniquenessConstraints.isEmpty }) else {
            return
        }
        let survivorOf = try laterDuplicates(in: store)
        func survivor(of position: Int) -> Int {
            var current = position
            while let next = survivorOf[current], next != current { current = next }
            return current
        }
        // The survivors' values on each constraint, and one lookup per constraint (and scope) for all of them.
        var candidates: [(position: Int, binding: EntityBinding, values: [[StoreValue]?])] = []
        let lookups = UniqueLookups()
        // Models without constraints neither merge nor upsert.
        for (position, binding) in insertBindings.enumerated()
        where binding.store === store && !binding.uniquenessConstraints.isEmpty {
            let model = inserts[position]
            let last = survivor(of: position)
            if last != position {
                merged.append((position, last))
                continue
            }
            let values = try binding.uniquenessConstraints.map { constraint, scope in
                let values = try constraintValues(model, constraint, binding.entity)
                if let values {
                    lookups.add(values, in: scope, properties: indexes(of: constraint, in: binding.entity))
                }
                return values
            }
            candidates.append((position, binding, values))
        }
        try lookups.run(transaction)
        // A match through a superentity's constraint must be a row of the model's own entity: those rows are looked
        // up again in the model's entity, together.
        let ownLookups = UniqueLookups()
        for (_, binding, values) in candidates {
            for ((constraint, scope), values) in zip(binding.uniquenessConstraints, values)
            where scope !== binding.entity {
                let properties = indexes(of: constraint, in: binding.entity)
                guard let values, lookups.key(for: values, in: scope, properties: properties) != nil else { continue }
                ownLookups.add(values, in: binding.entity, properties: properties)
            }
        }
        try ownLookups.run(transaction)
        try takeStoredKeys(of: candidates, lookups, ownLookups)
        for (duplicate, survivor) in merged { insertedKeys[duplicate] = insertedKeys[survivor] }
    }

    /// For each inserted model of `store` (by position in `inserts`) that a later one duplicates on a unique
    /// constraint, the later one's position.
    private func laterDuplicates(in store: any RowStore) throws -> [Int: Int] {
        var survivors: [String: [[StoreValue]: Int]] = [:]
        var survivorOf: [Int: Int] = [:]
        for (position, binding) in insertBindings.enumerated() where binding.store === store {
            let model = inserts[position]
            let entity = binding.entity
            // A constraint a superentity declares spans every model of it, whatever its class.
            for (constraint, scope) in binding.uniquenessConstraints {
                guard let values = try constraintValues(model, constraint, entity), !values.contains(.null) else {
                    continue
                }
                let bucket = "\(scope.name)#\(constraint.joined(separator: ","))"
                if let earlier = survivors[bucket]?[values], earlier != position {
                    survivorOf[earlier] = position
                }
                survivors[bucket, default: [:]][values] = position
            }
        }
        return survivorOf
    }

    /// Gives each surviving inserted model whose unique values match a stored row that row's key, so its save
    /// updates the row (an upsert); refuses a match that the model cannot take.
    private mutating func takeStoredKeys(
        of candidates: [(position: Int, binding: EntityBinding, values: [[StoreValue]?])], _ lookups: UniqueLookups,
        _ ownLookups: UniqueLookups
    ) throws {
        for (position, binding, values) in candidates {
            var existing: Int64?
            for ((constraint, scope), values) in zip(binding.uniquenessConstraints, values) {
                let properties = indexes(of: constraint, in: binding.entity)
                guard let values, let key = lookups.key(for: values, in: scope, properties: properties) else {
                    continue
                }
                if scope !== binding.entity,
                    ownLookups.key(for: values, in: binding.entity, properties: properties) != key
                {
                    throw SwiftDataError.modelValidationFailure.with(
                        reason:
                            "a new \(binding.entity.name) has the unique values of a stored \(scope.name) of another class, whose row it cannot take",
                        model: binding.entity.name, property: constraint.joined(separator: ", "),
                        suggestion: "Change the values, or delete the stored model first")
                }
                if let existing, existing != key {
                    throw SwiftDataError.modelValidationFailure.with(
                        reason:
                            "a new \(binding.entity.name) matches two stored models on different unique constraints",
                        model: binding.entity.name, property: constraint.joined(separator: ", "),
                        suggestion: "Change the values so they match at most one stored model")
                }
                existing = key
            }
            if let existing {
                if upserts.isEmpty { upserts = Array(repeating: false, count: inserts.count) }
                upserts[position] = true
                insertedKeys[position] = existing
            }
        }
    }

    /// The stored form of a model's values for a unique constraint, or `nil` when one is missing: each value encoded
    /// as its row holds it (through a `.transformable` attribute's transformer, a `.codable` one's encoding), so that
    /// it finds the row that holds it.
    private func constraintValues(_ model: any PersistentModel, _ constraint: [String], _ entity: Schema.Entity) throws
        -> [StoreValue]?
    {
        try indexes(of: constraint, in: entity).map { index -> StoreValue in
            if entity.relationship(at: index) != nil {
                guard let target = model._$get(index).relatedModels?.first else {
                    return .null
                }
                return .int64(try key(of: target))
            }
            do {
                let value = model._$get(index).value
                guard let attribute = entity.attribute(at: index) else {
                    return try value.map { try StoreValue(encoding: $0) } ?? .null
                }
                return try attribute.storedValue(of: value)
            } catch {
                throw RowWrite.naming(error, entity: entity, property: index)
            }
        }
    }

    private func indexes(of constraint: [String], in entity: Schema.Entity) -> [Int] {
        constraint.compactMap { name in
            entity.attributesByName[name]?.index ?? entity.relationshipsByName[name]?.index
        }
    }

    /// The store key of a model this save can refer to.
    private func key(of model: any PersistentModel) throws -> Int64 {
        if model._$persistentState.status == .inserted, let key = insertedKey(of: model) { return key }
        if (model._$persistentState.status == .registered || model._$persistentState.status == .deleted)
            && model._$persistentState.isManaged(by: context)
        {
            return model._$persistentState.key
        }
        throw unsavedError(model)
    }

    /// The key this save gave a new model, if it is one and its store's keys are allocated.
    private func insertedKey(of model: any PersistentModel) -> Int64? {
        guard let position = insertPositions.position(of: model, in: inserts) else { return nil }
        return insertedKeys.isEmpty ? nil : insertedKeys[position]
    }

    private func unsavedError(_ model: any PersistentModel) -> SwiftDataError {
        SwiftDataError.missingModelContext.with(
            reason: "a relationship refers to a \(type(of: model)) that is not saved in this context",
            model: String(describing: type(of: model)),
            suggestion: "Insert the related model into the same context before saving")
    }

    /// The foreign keys a model's row holds (all of them, or the changed ones).
    private func references(of model: any PersistentModel, entity: Schema.Entity, only changes: PropertyMask?) throws
        -> [ReferenceWrite]
    {
        try entity.orderedRelationships.compactMap { relationship in
            guard relationship.storage == .column, changes?.contains(relationship.index) ?? true,
                let related = model._$get(relationship.index).relatedModels
            else { return nil }
            let target = related.first
            var position: ReferenceWrite.Position?
            if relationship.positionColumn != nil, let target, let inverse = relationship.inverse {
                position = positions.position(of: model, in: target, inverse: inverse).map { .index($0) } ?? .last
            }
            return ReferenceWrite(relationship: relationship, key: try target.map(key(of:)), position: position)
        }
    }

    /// Writes the members of a model's changed to-many relationships (and a new model's non-empty ones): join
    /// rows at once, foreign keys of the members into `rows`. A member inserted by this save already has its
    /// foreign key and position.
    private func writeMembers(
        of model: any PersistentModel, entity: Schema.Entity, isNew: Bool, into rows: inout RowBatches,
        _ transaction: any RowStoreTransaction
    ) throws {
        guard entity.orderedRelationships.contains(where: { !$0.isToOneRelationship }) else { return }
        let changes = model._$persistentState.changes
        for relationship in entity.orderedRelationships where !relationship.isToOneRelationship {
            guard isNew || changes.contains(relationship.index),
                let members = model._$get(relationship.index).relatedModels
            else { continue }
            if isNew && members.isEmpty { continue }
            let owner = try key(of: model)
            switch relationship.storage {
            case .joinTable:
                try transaction.setMembers(try members.map(key(of:)), of: owner, relationship: relationship)
            case .inverseColumn:
                guard let inverse = relationship.inverse,
                    let destination = context.container.binding(forEntityName: relationship.destination)
                else { continue }
                for (index, member) in members.enumerated()
                where member._$persistentState.status != .inserted || insertedKey(of: member) == nil {
                    rows.append(
                        RowWrite(
                            model: nil, key: try key(of: member), attributes: [],
                            references: [ReferenceWrite(relationship: inverse, key: owner, position: .index(index))]),
                        to: destination.entity)
                }
            case .column:
                continue
            }
        }
    }

    /// Deletes the deleted models and what their delete rules reach: cascades follow relationships to any depth,
    /// `.deny` refuses the save while a related model that the save does not delete remains, and references to
    /// deleted rows are cleared (unless the rule is `.noAction`), failing when a required to-one would be left empty.
    private mutating func deleteWithRules(_ transaction: any RowStoreTransaction, store: any RowStore) throws {
        var pending: [(Schema.Entity, [Int64])] = []
        func add(_ keys: [Int64], of entity: Schema.Entity, distinct: Bool) {
            let new = deleted.add(keys, of: entity.name, distinct: distinct)
            guard !new.isEmpty else { return }
            pending.append((entity, new))
        }
        // The deleted models' keys by entity, in the order the models were deleted (mostly one entity at a time).
        var entities: [Schema.Entity] = []
        var direct: [[Int64]] = []
        var last = -1
        for model in deletes {
            guard let binding = model._$persistentState.binding, binding.store === store else { continue }
            if last < 0 || entities[last] !== binding.entity {
                if let index = entities.firstIndex(where: { $0 === binding.entity }) {
                    last = index
                } else {
                    last = entities.count
                    entities.append(binding.entity)
                    direct.append([])
                }
            }
            direct[last].append(model._$persistentState.key)
        }
        // A registered model is its entity's only one for its key: the keys of each entity are distinct.
        for (entity, keys) in zip(entities, direct) { add(keys, of: entity, distinct: true) }
        for (entityName, keys) in deletedRows {
            guard let binding = context.container.binding(forEntityName: entityName), binding.store === store else {
                continue
            }
            add(Array(keys), of: binding.entity, distinct: true)
        }
        // Everything the save deletes, cascades included, before any rule that depends on what remains.
        var deletedEntities: [Schema.Entity] = []
        var next = 0
        while next < pending.count {
            let (entity, keys) = pending[next]
            next += 1
            if !deletedEntities.contains(where: { $0 === entity }) { deletedEntities.append(entity) }
            // The keys may be of subentities' rows (a batch delete of a superclass), whose own rules apply too.
            for relationship in entity.relationshipsOfSelfAndDescendants where relationship.deleteRule == .cascade {
                guard let destination = context.container.binding(forEntityName: relationship.destination) else {
                    continue
                }
                add(
                    try transaction.related(relationship, owners: keys).map(\.member), of: destination.entity,
                    distinct: false)
            }
        }
        for entity in deletedEntities {
            let keys = deleted.order[entity.name] ?? []
            for relationship in entity.relationshipsOfSelfAndDescendants where relationship.deleteRule == .deny {
                let remaining = try transaction.related(relationship, owners: keys).filter {
                    !deleted.contains($0.member, of: relationship.destination)
                }
                if !remaining.isEmpty { throw denyError(entity, relationship, count: remaining.count) }
            }
        }
        for entity in deletedEntities {
            let keys = deleted.order[entity.name] ?? []
            try clearReferences(to: entity, keys: keys, transaction)
            try history?.deleting(keys, of: entity, in: transaction)
            try transaction.delete(keys: keys, entity: entity)
        }
    }

    /// Clears the references to deleted rows, failing when a required to-one of a row that remains is left empty.
    private func clearReferences(to entity: Schema.Entity, keys: [Int64], _ transaction: any RowStoreTransaction)
        throws
    {
        for (source, reference) in references(to: entity) {
            let cleared = try transaction.clearReferences(reference, to: keys)
            // A hierarchy's rows are one table's: a key deleted as any of its entities is gone.
            let table = source.rootEntity.selfAndDescendants.map(\.name)
            let survivors = cleared.filter { key in !table.contains { deleted.contains(key, of: $0) } }
            history?.referencesCleared(survivors, in: source, relationship: reference)
            if reference.isToOneRelationship, !reference.isOptional, !survivors.isEmpty {
                throw SwiftDataError.modelValidationFailure.with(
                    reason:
                        "deleting \(entity.name) would leave \(survivors.count) \(source.name) model\(survivors.count == 1 ? "" : "s") without the required \(reference.name)",
                    model: source.name, property: reference.name,
                    suggestion: "Give them another \(reference.name) first, or make the inverse's delete rule .cascade")
            }
        }
    }

    /// New rows that refer to rows the save deleted: a `.deny` rule of the deleted model refuses the save, other
    /// references are cleared as the delete rules clear them.
    private func checkInsertsAgainstDeletes(_ transaction: any RowStoreTransaction, store: any RowStore) throws {
        guard !deleted.isEmpty, insertedKeys.contains(where: { $0 != nil }) else { return }
        let insertedEntities = Set(zip(inserts, insertBindings).filter { $1.store === store }.map(\.1.entity.name))
        for (entityName, keys) in deleted.order {
            guard let entity = context.container.binding(forEntityName: entityName)?.entity else { continue }
            if let deny = entity.orderedRelationships.first(where: {
                $0.deleteRule == .deny && insertedEntities.contains($0.destination)
            }) {
                let remaining = try transaction.related(deny, owners: keys).filter {
                    !deleted.contains($0.member, of: deny.destination)
                }
                if !remaining.isEmpty { throw denyError(entity, deny, count: remaining.count) }
            }
            guard references(to: entity).contains(where: { insertedEntities.contains($0.0.name) }) else { continue }
            try clearReferences(to: entity, keys: keys, transaction)
        }
    }

    private func denyError(_ entity: Schema.Entity, _ relationship: Schema.Relationship, count: Int)
        -> SwiftDataError
    {
        SwiftDataError.modelValidationFailure.with(
            reason:
                "\(entity.name).\(relationship.name) has the .deny delete rule and still relates to \(count) \(relationship.destination) model\(count == 1 ? "" : "s")",
            model: entity.name, property: relationship.name,
            suggestion:
                "Remove the related models from \(relationship.name) before deleting, or delete them in the same save")
    }

    /// The relationships (with their entity) that refer to `entity` and whose references are cleared when its
    /// rows are deleted: all of them, except inverses of `.noAction` relationships. In a hierarchy, references to
    /// any of its entities may name the deleted rows.
    func references(to entity: Schema.Entity) -> [(Schema.Entity, Schema.Relationship)] {
        let names = Set(entity.rootEntity.selfAndDescendants.map(\.name))
        return context.container.schema.entities.flatMap { source in
            source.ownRelationships.filter { reference in
                names.contains(reference.destination) && reference.storage != .inverseColumn
                    && reference.inverse?.deleteRule != .noAction
            }.map { (source, $0) }
        }
    }
}

/// The stored rows a save's new models match on unique constraints: the models' values gathered per constraint (an
/// entity and its properties), then looked up in one `existingKeys` call per constraint.
final class UniqueLookups {
    private struct Constraint: Hashable {
        let entity: ObjectIdentifier
        let properties: [Int]
    }

    /// The constraints in the order first added, and their entities.
    private var order: [Constraint] = []
    private var entities: [Constraint: Schema.Entity] = [:]
    /// Each constraint's distinct values, in the order first added, and their positions.
    private var values: [Constraint: [[StoreValue]]] = [:]
    private var positions: [Constraint: [[StoreValue]: Int]] = [:]
    private var keys: [Constraint: [Int64?]] = [:]

    /// Adds values to look up on `properties` of `entity`; values with a `NULL` match nothing and are left out.
    func add(_ candidate: [StoreValue], in entity: Schema.Entity, properties: [Int]) {
        guard !candidate.contains(.null) else { return }
        let constraint = Constraint(entity: ObjectIdentifier(entity), properties: properties)
        if entities.updateValue(entity, forKey: constraint) == nil { order.append(constraint) }
        guard positions[constraint]?[candidate] == nil else { return }
        positions[constraint, default: [:]][candidate] = values[constraint, default: []].count
        values[constraint, default: []].append(candidate)
    }

    /// Looks every constraint's values up, one call each.
    func run(_ transaction: any RowStoreTransaction) throws {
        for constraint in order {
            guard let entity = entities[constraint], let candidates = values[constraint] else { continue }
            keys[constraint] = try transaction.existingKeys(
                in: entity, properties: constraint.properties, candidates: candidates)
        }
    }

    /// The key of the stored row `run` found for these values, if any.
    func key(for candidate: [StoreValue], in entity: Schema.Entity, properties: [Int]) -> Int64? {
        let constraint = Constraint(entity: ObjectIdentifier(entity), properties: properties)
        guard let position = positions[constraint]?[candidate], let found = keys[constraint],
            position < found.count
        else { return nil }
        return found[position]
    }
}

/// The keys a save deletes, by entity name, each once, in the order deleted (the deleted models' order, then their
/// cascades'). Sets of them, to look keys up, are made only when something asks (a cascade, a delete rule, references
/// to clear): a save that deletes models nothing refers to makes none.
final class DeletedKeys {
    /// The keys, by entity name, in the order deleted.
    private(set) var order: [String: [Int64]] = [:]
    /// The keys of some entities as sets, kept in step with `order` once made.
    private var sets: [String: Set<Int64>] = [:]

    /// Whether no key is deleted.
    var isEmpty: Bool { order.isEmpty }

    /// How many keys are deleted.
    var count: Int { order.values.reduce(0) { $0 + $1.count } }

    /// Adds keys of the entity named `name`; returns those that were not deleted yet. `distinct` says that `keys` has
    /// no repeats.
    func add(_ keys: [Int64], of name: String, distinct: Bool) -> [Int64] {
        guard !keys.isEmpty else { return [] }
        if distinct && order[name] == nil {
            order[name] = keys
            sets[name] = nil
            return keys
        }
        var known = set(of: name)
        sets[name] = nil
        known.reserveCapacity(known.count + keys.count)
        let new = keys.filter { known.insert($0).inserted }
        sets[name] = known
        if !new.isEmpty { order[name, default: []].append(contentsOf: new) }
        return new
    }

    /// Goes back to an earlier `order`, for a store that runs a save's transaction again.
    func restore(_ earlier: [String: [Int64]]) {
        order = earlier
        sets = [:]
    }

    /// Whether `key` of the entity named `name` is deleted.
    func contains(_ key: Int64, of name: String) -> Bool {
        guard order[name] != nil else { return false }
        return set(of: name).contains(key)
    }

    /// Every entity's keys, as sets.
    func keySets() -> [String: Set<Int64>] {
        var result: [String: Set<Int64>] = [:]
        result.reserveCapacity(order.count)
        for name in order.keys { result[name] = set(of: name) }
        return result
    }

    private func set(of name: String) -> Set<Int64> {
        if let set = sets[name] { return set }
        let set = Set(order[name] ?? [])
        sets[name] = set
        return set
    }
}

/// Rows grouped by entity, in the order their entities first appear.
struct RowBatches {
    /// The entities, found by a linear search: a save writes rows of few entities, and the search runs only when a
    /// row's entity is not the latest row's (a dictionary cost an allocation and a hash every save).
    private var entities: [Schema.Entity] = []
    private var rows: [[RowWrite]] = []
    /// The batch of the latest row, of `currentEntity`, held apart from `rows` (where an empty list keeps its place
    /// meanwhile): rows mostly come grouped by entity, and appending to this list checks one array's uniqueness
    /// rather than the list of batches' and then the batch's.
    private var current: [RowWrite] = []
    private var currentEntity: Schema.Entity?
    /// The place of `current` in `rows`, or -1 before the first row.
    private var last = -1
    /// How many rows the first batch makes room for: at most this many rows come, mostly of one entity.
    private let capacity: Int

    /// Batches for up to `capacity` rows.
    init(capacity: Int = 0) {
        self.capacity = capacity
    }

    /// Each entity with its rows; a zip of the two lists, which an array of labelled tuples would copy through the
    /// runtime's casts.
    var batches: Zip2Sequence<[Schema.Entity], [[RowWrite]]> {
        var rows = rows
        if last >= 0 { rows[last] = current }
        return zip(entities, rows)
    }

    mutating func append(_ row: consuming RowWrite, to entity: Schema.Entity) {
        if currentEntity !== entity { switchBatch(to: entity) }
        current.append(row)
    }

    /// Puts the current batch back in its place and takes out `entity`'s, made when it has none yet.
    private mutating func switchBatch(to entity: Schema.Entity) {
        if last >= 0 { swap(&rows[last], &current) }
        if let index = entities.firstIndex(where: { $0 === entity }) {
            last = index
        } else {
            last = entities.count
            entities.append(entity)
            var batch: [RowWrite] = []
            if last == 0 { batch.reserveCapacity(capacity) }
            rows.append(batch)
        }
        swap(&rows[last], &current)
        currentEntity = entity
    }
}

/// The position of each new model of a save in its list of inserted models, found when a relationship first refers
/// to one (a save whose new models relate to none never makes it).
final class InsertPositions {
    private var positions: [ObjectIdentifier: Int]?

    /// The position of `model` in `inserts`, or `nil` when it is not there.
    func position(of model: any PersistentModel, in inserts: [any PersistentModel]) -> Int? {
        if positions == nil {
            var positions: [ObjectIdentifier: Int] = [:]
            positions.reserveCapacity(inserts.count)
            for (position, model) in inserts.enumerated() { positions[ObjectIdentifier(model)] = position }
            self.positions = positions
        }
        return positions?[ObjectIdentifier(model)]
    }
}

/// The index of each member in an owner's loaded to-many array, computed once per owner and relationship.
final class MemberPositions {
    private var indexes: [ObjectIdentifier: [ObjectIdentifier: Int]] = [:]

    /// The index of `member` in `owner`'s `relationship`, or `nil` when the array is not loaded or lacks it.
    func position(
        of member: any PersistentModel, in owner: any PersistentModel, inverse relationship: Schema.Relationship
    ) -> Int? {
        let key = ObjectIdentifier(owner)
        if indexes[key] == nil {
            guard let members = owner._$get(relationship.index).relatedModels else { return nil }
            var index: [ObjectIdentifier: Int] = [:]
            for (position, element) in members.enumerated() {
                index[ObjectIdentifier(element)] = position
            }
            indexes[key] = index
        }
        return indexes[key]?[ObjectIdentifier(member)]
    }
}
