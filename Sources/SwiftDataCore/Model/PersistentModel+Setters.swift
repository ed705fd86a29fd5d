/// The hooks `@Model`-generated setters call after a property changed (internal plumbing; not API).
///
/// The overload the compiler picks depends on the property's type, so a type that cannot be stored is a
/// compile-time error with a message: storable values are `Codable` or `RawRepresentable` (or optionals of
/// them), and relationships are models, optional models, or arrays of models.
extension PersistentModel {
    /// A `Codable` attribute changed.
    @inlinable
    public func _$didSet<Value: Codable>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
    }

    /// A `RawRepresentable` attribute changed.
    @inlinable
    public func _$didSet<Value: RawRepresentable>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
    }

    /// An optional `RawRepresentable` attribute changed.
    @inlinable
    public func _$didSet<Value: RawRepresentable>(_ property: Int, _ oldValue: Value??, _ newValue: Value?) {
        _$didSet(property)
    }

    /// A `RawRepresentable` and `Codable` attribute changed.
    @inlinable
    public func _$didSet<Value: RawRepresentable & Codable>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
    }

    /// An optional `RawRepresentable` and `Codable` attribute changed.
    @inlinable
    public func _$didSet<Value: RawRepresentable & Codable>(_ property: Int, _ oldValue: Value??, _ newValue: Value?) {
        _$didSet(property)
    }

    /// A relationship changed: updates the inverse side of the models that joined or left, and inserts new
    /// related models into the context.
    public func _$didSet<Value: _RelationshipValue>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
        Relationships.didChange(
            self, property: property, from: oldValue?._relatedModels ?? [], to: newValue._relatedModels)
    }

    /// A relationship to models that are also `Codable` changed.
    public func _$didSet<Value: _RelationshipValue & Codable>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
        Relationships.didChange(
            self, property: property, from: oldValue?._relatedModels ?? [], to: newValue._relatedModels)
    }

    /// A `.transformable` attribute changed: its value transformer decides what it can store.
    @inlinable
    public func _$didSetTransformable<Value>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {
        _$didSet(property)
    }

    /// Any other type cannot be stored.
    @available(
        *, unavailable,
        message:
            "this property's type cannot be stored: make it Codable or RawRepresentable, or mark the property @Transient"
    )
    public func _$didSet<Value>(_ property: Int, _ oldValue: Value?, _ newValue: Value) {}

    /// Sets of models are not relationships.
    @available(
        *, unavailable, message: "a to-many relationship is an array of models: declare [Model] instead of Set<Model>"
    )
    public func _$didSet<Element: PersistentModel>(_ property: Int, _ oldValue: Set<Element>?, _ newValue: Set<Element>)
    {}

    /// Optional sets of models are not relationships.
    @available(
        *, unavailable, message: "a to-many relationship is an array of models: declare [Model] instead of Set<Model>"
    )
    public func _$didSet<Element: PersistentModel>(
        _ property: Int, _ oldValue: Set<Element>??, _ newValue: Set<Element>?
    ) {}
}
