import Foundation

/// A value a batch update gives a property of every model it changes (see
/// `ModelContext.update(model:where:_:includeSubclasses:)`). Not in Apple's API.
public struct PropertyAssignment<T: PersistentModel> {
    let keyPath: AnyKeyPath
    let value: () throws -> StoreValue

    /// Sets the attribute at `keyPath` to `value`.
    public static func set<Value>(_ keyPath: ReferenceWritableKeyPath<T, Value>, to value: Value) -> Self {
        PropertyAssignment(keyPath: keyPath) { try StoreValue(encoding: value) }
    }
}

/// Batch updates: changes written to the store in one statement, without loading the models (not in Apple's API).
extension ModelContext {
    /// Sets an attribute of every stored model of the type the predicate selects (all of them without one), at
    /// once, in one statement, without loading them; returns how many models changed. See
    /// `update(model:where:_:includeSubclasses:)`.
    ///
    /// ```swift
    /// try context.update(model: Note.self, where: #Predicate { $0.folder == "Inbox" }, set: \.isArchived, to: true)
    /// ```
    @discardableResult
    public func update<T: PersistentModel, Value>(
        model: T.Type, where predicate: Predicate<T>? = nil, set keyPath: ReferenceWritableKeyPath<T, Value>,
        to value: Value, includeSubclasses: Bool = true
    ) throws -> Int {
        try update(model: model, where: predicate, [.set(keyPath, to: value)], includeSubclasses: includeSubclasses)
    }

    /// Sets attributes of every stored model of the type the predicate selects (all of them without one), at once,
    /// in one write transaction of one statement (one per ten thousand models when part of the predicate is
    /// evaluated in memory), without loading the models; returns how many models changed.
    ///
    /// Unlike a save, it acts on the store right away. The store's unique constraints are checked: an update that
    /// would give two models the same unique value throws and changes nothing. The store's history records the
    /// change as one transaction of updates. Models the context holds take the new values, and the container's
    /// other contexts and `ResultsObserver`s hear of the change as of a save. It is not undoable: it throws while
    /// the context has an `undoManager`, and while the context has unsaved changes of models of the type (save or
    /// roll back first). Only attributes kept in a column of their own can be set: not relationships,
    /// `.externalStorage`, transformable or `Codable` struct attributes.
    ///
    /// ```swift
    /// try context.update(
    ///     model: Note.self, where: #Predicate { $0.created < cutoff },
    ///     [.set(\.isArchived, to: true), .set(\.folder, to: "Archive")])
    /// ```
    @discardableResult
    public func update<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, _ assignments: [PropertyAssignment<T>],
        includeSubclasses: Bool = true
    ) throws -> Int {
        catchUp()
        let binding = try binding(for: T.self)
        let entity = binding.entity
        let values = try assignedValues(assignments, entity: entity)
        try checkBatchUpdate(of: entity, includeSubclasses: includeSubclasses)
        guard !values.isEmpty else { return 0 }
        var request = FetchRequest<T>(entity: entity, predicate: predicate, properties: [])
        request.includesSubentities = includeSubclasses
        if predicate != nil, !binding.store.prepare(request).coverage.predicate {
            // Part of the predicate runs in memory: the rows it selects are found first, then updated by key.
            var stored = FetchDescriptor<T>(predicate: predicate)
            stored.includePendingChanges = false
            request.keys = try fetcher.storedKeys(stored, binding: binding, includingSubentities: includeSubclasses)
            request.predicate = nil
            guard request.keys?.isEmpty == false else { return 0 }
        }
        var changes = PropertyMask()
        for (property, _) in values { changes.insert(property) }
        let store = binding.store
        var keys: [Int64] = []
        do {
            try store.write(for: editingState) { transaction in
                keys = try transaction.updateAll(request, values: values)
                guard store.recordsHistory, !keys.isEmpty else { return }
                let history = HistoryCollector(author: author)
                for (offset, key) in keys.enumerated() {
                    history.updated(key, of: entity, changes: changes, isLikeLast: offset > 0)
                }
                _ = try history.record(in: transaction)
            }
        } catch {
            throw Self.batchUpdateError(error, entity: entity, properties: values.map(\.property))
        }
        try refreshUpdated(T.self, keys: keys, binding: binding)
        postNotice(inserted: [], updated: keys.map { binding.identifier(forKey: $0) }, deleted: [])
        return keys.count
    }

    /// The property index and store value of each assignment; a key path that is not an attribute kept in a column
    /// of its own is refused, naming it.
    private func assignedValues<T: PersistentModel>(_ assignments: [PropertyAssignment<T>], entity: Schema.Entity)
        throws -> [(property: Int, value: StoreValue)]
    {
        try assignments.map { assignment in
            guard let index = entity.propertyIndex(for: assignment.keyPath),
                let attribute = entity.attribute(at: index),
                attribute.coding == nil, !attribute.isExternal, !attribute.options.contains(.ephemeral)
            else {
                let name = entity.propertyIndex(for: assignment.keyPath).flatMap {
                    entity.attribute(at: $0)?.name ?? entity.relationship(at: $0)?.name
                }
                throw SwiftDataError.unsupportedKeyPath.with(
                    reason: "a batch update of \(entity.name) sets \(name ?? "\(assignment.keyPath)"), which is not "
                        + "an attribute kept in a column of its own", model: entity.name, property: name,
                    suggestion: "Set only plain attributes in a batch update; fetch the models and change them "
                        + "for relationships, .externalStorage, transformable and Codable struct attributes")
            }
            do {
                return (index, try assignment.value())
            } catch {
                throw SwiftDataError.modelValidationFailure.with(
                    reason: "the value a batch update gives \(attribute.name) could not be encoded: \(error)",
                    model: entity.name, property: attribute.name, suggestion: "Give a value the store can keep")
            }
        }
    }

    /// Refuses a batch update while the context has an undo manager, or unsaved changes of models it would reach.
    private func checkBatchUpdate(of entity: Schema.Entity, includeSubclasses: Bool) throws {
        guard undoManager == nil else {
            throw SwiftDataError.storeError.with(
                reason: "a batch update of \(entity.name) cannot be undone, and the context has an undo manager",
                model: entity.name,
                suggestion: "Set undoManager to nil for the batch update, or fetch the models and change them")
        }
        let entities = includeSubclasses ? entity.selfAndDescendants : [entity]
        let types = entities.compactMap(\.modelType)
        let pending =
            registry.pendingInserts.contains { model in types.contains { $0 == type(of: model) } }
            || entities.contains { deletedRows[$0.name]?.isEmpty == false }
            || types.contains { type in
                registry.models(ofType: type).contains {
                    !$0._$persistentState.changes.isEmpty || $0._$persistentState.status != .registered
                }
            }
        guard !pending else {
            throw SwiftDataError.storeError.with(
                reason: "the context has unsaved changes of \(entity.name) models, which a batch update would "
                    + "write past", model: entity.name, suggestion: "Save or roll back the context first")
        }
    }

    /// Models the context holds of the updated rows load their new values.
    private func refreshUpdated<T: PersistentModel>(_ type: T.Type, keys: [Int64], binding: EntityBinding) throws {
        let types = binding.entity.selfAndDescendants.compactMap(\.modelType)
        var registered = Set<Int64>()
        for type in types { registered.formUnion(registry.keys(of: type)) }
        let held = keys.filter(registered.contains)
        guard !held.isEmpty else { return }
        _ = try fetcher.load(T.self, keys: held, binding: binding)
    }

    /// A failed batch update's error: one of a unique constraint the update touches names the constraint.
    private static func batchUpdateError(_ error: any Error, entity: Schema.Entity, properties: [Int]) -> any Error {
        let names = Set(properties.compactMap { entity.attribute(at: $0)?.name })
        let constraints =
            entity.selfAndAncestors.flatMap(\.uniquenessConstraints)
            + entity.selfAndDescendants
            .dropFirst().flatMap(\.uniquenessConstraints)
        guard let constraint = constraints.first(where: { !names.isDisjoint(with: $0) }),
            "\(error)".localizedCaseInsensitiveContains("unique")
        else { return error }
        return SwiftDataError.storeError.with(
            reason: "the batch update would give two models of \(entity.name) the same "
                + "\(constraint.joined(separator: ", ")), which is unique; nothing was changed (\(error))",
            model: entity.name, property: constraint.first,
            suggestion: "Select fewer models, or set values that no other model has")
    }
}
