import Foundation

/// Apple's access to a model's persisted values by key path. Each reads or writes through the property itself,
/// exactly as `model.property` does: a read loads a value not loaded yet and tells observers, a write records the
/// change (and its undo), keeps the inverse of a relationship in step and inserts new related models, as the
/// generated accessors do. So they must not be called from the property's own accessors. The overloads mirror
/// Apple's, whose constraints pick one for attributes, to-one and to-many relationships.
extension PersistentModel {
    /// The value of an attribute.
    public func getValue<Value>(forKey keyPath: KeyPath<Self, Value>) -> Value where Value: Decodable {
        self[keyPath: keyPath]
    }

    /// The model of a to-one relationship.
    public func getValue<Value>(forKey keyPath: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        self[keyPath: keyPath]
    }

    /// The model of an optional to-one relationship, or `nil`.
    public func getValue<Value>(forKey keyPath: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        self[keyPath: keyPath]
    }

    /// The models of a to-many relationship.
    public func getValue<Value, OtherModel>(forKey keyPath: KeyPath<Self, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        self[keyPath: keyPath]
    }

    /// The models of a to-many relationship whose models are also `Codable`.
    public func getValue<Value, OtherModel>(forKey keyPath: KeyPath<Self, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        self[keyPath: keyPath]
    }

    /// The value of a `.transformable` attribute.
    public func getTransformableValue<Value>(forKey keyPath: KeyPath<Self, Value>) -> Value {
        self[keyPath: keyPath]
    }

    /// Sets an attribute.
    public func setValue<Value>(forKey keyPath: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        write(newValue, to: keyPath)
    }

    /// Sets a to-one relationship.
    public func setValue<Value>(forKey keyPath: KeyPath<Self, Value>, to newValue: Value)
    where Value: PersistentModel {
        write(newValue, to: keyPath)
    }

    /// Sets an optional to-one relationship; `nil` clears it.
    public func setValue<Value>(forKey keyPath: KeyPath<Self, Value?>, to newValue: Value?)
    where Value: PersistentModel {
        write(newValue, to: keyPath)
    }

    /// Sets the models of a to-many relationship.
    public func setValue<Value, OtherModel>(forKey keyPath: KeyPath<Self, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        write(newValue, to: keyPath)
    }

    /// Sets the models of a to-many relationship whose models are also `Codable`.
    public func setValue<Value, OtherModel>(forKey keyPath: KeyPath<Self, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        write(newValue, to: keyPath)
    }

    /// Sets a `.transformable` attribute.
    public func setTransformableValue<Value>(forKey keyPath: KeyPath<Self, Value>, to newValue: Value) {
        write(newValue, to: keyPath)
    }

    /// Assigns through the property's setter. A key path that cannot be written (a `let`, a read-only computed
    /// property) changes nothing, and says so on standard error.
    private func write<Value>(_ newValue: Value, to keyPath: KeyPath<Self, Value>) {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Self, Value> else {
            Log.error(
                "setValue(forKey:to:) cannot set \(keyPath) of \(Self.self), which is not a settable property; "
                    + "nothing was changed")
            return
        }
        self[keyPath: writable] = newValue
    }
}
