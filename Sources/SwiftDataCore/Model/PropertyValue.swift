/// A persisted property's value as it moves between a model's storage and the framework (internal plumbing for
/// `@Model`; not API): `_$get` returns one, `_$set` takes one.
///
/// Not loaded and loaded-but-`nil` are different cases, so an empty optional or an empty to-one relationship
/// cannot be mistaken for a value that still has to be read from the store.
public enum _PropertyValue {
    /// The property has no value in memory; the next read loads it (or resolves its link).
    case notLoaded
    /// The property's value; `nil` for an empty optional or an empty to-one relationship.
    case loaded(Any?)

    /// Whether the property has a value in memory (possibly `nil`).
    @inlinable
    public var isLoaded: Bool {
        if case .loaded = self { return true }
        return false
    }

    /// The value when it is loaded and not `nil`.
    @inlinable
    public var value: Any? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    /// The models a loaded relationship relates to (none for `nil`); `nil` when it is not loaded.
    package var relatedModels: [any PersistentModel]? {
        guard case .loaded(let value) = self else { return nil }
        return (value as? any _RelationshipValue)?._relatedModels ?? []
    }
}

/// Converts a value from the framework into a property's typed storage (internal plumbing for `@Model`; not API):
/// `.notLoaded` empties the storage, so the next read loads it. A value of another type than the property's (a
/// value transformer that returns the wrong type, a `nil` for a non-optional property) throws an error that names
/// the model and the property, instead of emptying the property.
@inlinable
public func _storedValue<Value>(
    _ value: _PropertyValue, as storage: Value?, of model: some PersistentModel, property: Int
) throws -> Value? {
    guard case .loaded(let loaded) = value else { return nil }
    if let typed = loaded as? Value { return typed }
    throw _PropertyValue.mismatch(loaded, expected: Value.self, model: type(of: model), property: property)
}

extension _PropertyValue {
    /// The error for a value of the wrong type given to persisted property number `property` of `model`.
    public static func mismatch(
        _ value: Any?, expected: Any.Type, model: any PersistentModel.Type, property: Int
    ) -> SwiftDataError {
        let name = model._propertyName(property)
        let given = value.map { "a value of type \(type(of: $0))" } ?? "nil"
        return SwiftDataError.modelValidationFailure.with(
            reason: "\(model).\(name) holds \(expected), and was given \(given)", model: "\(model)", property: name,
            suggestion:
                "Give the property a value of its own type: check the value transformer, coding or store that "
                + "produced it")
    }
}

extension PersistentModel {
    /// Empties persisted property `property`, so its next read loads it again.
    package func unload(_ property: Int) {
        // Emptying casts nothing, so it cannot throw.
        try? _$set(property, .notLoaded)
    }

    /// Makes to-one relationship `property` a link to the model with the key `target` (see `_PersistentState`),
    /// telling observers only when the relationship answered with another model before: one that held that target,
    /// or held nothing and would have loaded it, still answers with the same model.
    package func link(_ property: Int, to target: Int64) {
        if _$isObserved, _$persistentState.linkedKey(property) == nil,
            _$get(property).relatedModels.map({ $0.first?._$persistentState.key == target }) ?? true
        {
            unloadForLink(property)
        } else {
            unload(property)
        }
        _$persistentState.link(property, to: target)
    }

    /// Empties relationship `property` without telling observers, as it becomes a link to the models it holds (see
    /// `_PersistentState`): it still answers with them, so its value does not change.
    package func unloadForLink(_ property: Int) {
        let observed = _$isObserved
        _$isObserved = false
        unload(property)
        _$isObserved = observed
    }

    /// Sets persisted property `property` to a value the framework built from the property's own schema type (a
    /// relationship's targets, an empty value of its type), which has that type by construction. Were it ever of
    /// another type, the property is left not loaded, so its next read loads it from the store, and the error is
    /// logged.
    package func setBuilt(_ property: Int, _ value: Any?) {
        do {
            try _$set(property, .loaded(value))
        } catch {
            Log.error("\(error)")
            unload(property)
        }
    }
}
