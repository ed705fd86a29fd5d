import Foundation
import Observation

/// A class whose instances SwiftData stores; `@Model` writes the conformance.
///
/// Besides Apple's requirements, the protocol has a few underscored ones that `@Model` generates: typed
/// storage per property and functions that move values between that storage and a store's rows. They are
/// internal plumbing, not API.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, _RelationshipValue {
    /// Creates a model whose values a store will fill in. The backing data is borrowed, so that a fetch making many
    /// models passes one without copying it for each; an initializer that takes it without `borrowing` (as Apple's
    /// signature reads) still satisfies the requirement.
    init(backingData: borrowing any BackingData<Self>)
    /// The model's backing data; here a view of the model's own inline storage.
    var persistentBackingData: any BackingData<Self> { get set }
    /// The persisted properties, in declaration order.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }

    var _$persistentState: _PersistentState { get set }
    /// Whether a persisted property was ever read, the only way an observer can start watching the model: until
    /// then `_$set` skips the observation registrar. `@Model` writes it as a stored property; a model written by
    /// hand that does not declare it is taken as observed.
    var _$isObserved: Bool { get set }
    /// Reads persisted property number `property` from `column` of the reader's current row.
    func _$load(_ property: Int, from reader: any _RowReader, column: Int32) throws
    /// Reads persisted properties `0..<count` from the reader's current row, property `i` from column `column + i`,
    /// in one call; `false`, having read nothing, when the class does not read rows this way (its persisted
    /// properties are not exactly those). `@Model` writes it for a root model.
    func _$loadRow(_ count: Int, from reader: any _RowReader, column: Int32) throws -> Bool
    /// Binds persisted property number `property` to `parameter`.
    func _$store(_ property: Int, into writer: any _RowWriter, parameter: Int32) throws
    /// The stored value of persisted property number `property`: `.notLoaded` when it has none in memory.
    func _$get(_ property: Int) -> _PropertyValue
    /// Replaces the stored value of persisted property number `property`, telling observers; `.notLoaded` empties
    /// it, so the next read loads it again. A value of another type than the property's throws, naming both.
    /// `@Model` writes it; an implementation written by hand must call `_$unlink(property)` before it stores the
    /// value, as the generated one does, or a relationship set to `nil` still answers with the model the context had
    /// linked it to.
    func _$set(_ property: Int, _ value: _PropertyValue) throws
    /// The unique constraints `#Unique` declares: key paths of the properties of each.
    static var _$uniquenessConstraints: [[AnyKeyPath]] { get }
    /// The binary indexes `#Index` declares: key paths of the properties of each.
    static var _$indices: [[AnyKeyPath]] { get }
    /// The `.rtree` indexes `#Index` declares: key paths of the properties of each.
    static var _$spatialIndices: [[AnyKeyPath]] { get }
    /// The `.search` indexes `#Index` declares: key paths of the `String` attributes of each.
    static var _$searchIndices: [[AnyKeyPath]] { get }
}

extension PersistentModel {
    /// The context that manages the model; `nil` before insertion and after a saved delete.
    public var modelContext: ModelContext? {
        _$persistentState.status == .detached ? nil : _$persistentState.context
    }

    /// The model's identity. Temporary until the model's first save, then permanent.
    public var persistentModelID: PersistentIdentifier {
        if let binding = _$persistentState.binding, _$persistentState.status != .inserted {
            let key = _$persistentState.key
            if binding.mapsIdentifiers { return binding.identifier(forKey: key) }
            return PersistentIdentifier(
                storeIdentifier: binding.storeIdentifier, entityName: binding.entity.name, key: .permanent(key))
        }
        if _$persistentState.key == 0 { _$persistentState.key = PersistentIdentifier.nextTemporaryKey() }
        return PersistentIdentifier(
            storeIdentifier: nil, entityName: Self._entityName,
            key: .temporary(UInt64(bitPattern: _$persistentState.key)))
    }

    /// Identity, as Apple's: a model is equal only to itself.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The identity used by `Identifiable` when the class declares no `id` of its own.
    public var id: PersistentIdentifier { persistentModelID }

    /// Whether the model has unsaved changes: it is inserted, deleted, or has changed properties.
    public var hasChanges: Bool {
        switch _$persistentState.status {
        case .inserted, .deleted: true
        case .registered: _$persistentState.hasChanges
        case .unmanaged, .detached: false
        }
    }

    /// Whether the model is deleted in its context and waits for the save that removes it. After that save it
    /// is `false` again, and `modelContext` is `nil`, as in Apple's SwiftData.
    public var isDeleted: Bool { _$persistentState.status == .deleted }

    /// The entity name: the class name.
    package static var _entityName: String {
        Relationships.entity(of: Self.self)?.name ?? String(describing: Self.self)
    }

    /// A model `@Model` did not write (a hand-written one) reads its rows property by property.
    public func _$loadRow(_ count: Int, from reader: any _RowReader, column: Int32) throws -> Bool { false }

    /// A model written by hand without the flag tells its observers of every change.
    public var _$isObserved: Bool {
        get { true }
        set {}
    }

    public static var _$uniquenessConstraints: [[AnyKeyPath]] { [] }
    public static var _$indices: [[AnyKeyPath]] { [] }
    public static var _$spatialIndices: [[AnyKeyPath]] { [] }
    public static var _$searchIndices: [[AnyKeyPath]] { [] }

    /// A model is the value of a to-one relationship.
    public var _relatedModels: [any PersistentModel] { [self] }

    /// Records that persisted property number `property` changed (hand-written models call it from setters).
    @inlinable
    public func _$didSet(_ property: Int) {
        if _$persistentState.status == .registered, !_$persistentState.hasChanged(property) {
            _$recordChange(property)
        }
    }

    /// Called by generated setters before an attribute changes: records the current value when the context has
    /// an undo manager.
    @inlinable
    public func _$willSet<Value>(_ property: Int, _ current: Value?) {
        _$attributeWillChange(property)
    }

    /// Called by generated setters before an attribute of a standard type (`String`, `Int`, `Date`, ...) changes,
    /// as `_$willSet` is for others: records the current value when the context has an undo manager.
    @inlinable
    public func _$attributeWillChange(_ property: Int) {
        // Asked of the context unretained (see `ContextAnchor`); recording, which may load the property, holds it.
        _$persistentState.unretainedContext?._withUnsafeGuaranteedRef { context in
            if context.recordsUndo { _$recordUndo(property) }
        }
    }

    /// Called by generated setters after an attribute of a standard type changed, as `_$didSet` is for others.
    @inlinable
    public func _$attributeDidChange(_ property: Int) {
        _$didSet(property)
    }

    /// Called by generated setters before a relationship changes: loads its current value, which the change
    /// needs to update the inverse side (a linked target is held from now on).
    public func _$willSet<Value: _RelationshipValue>(_ property: Int, _ current: Value?) {
        if current == nil {
            if _$persistentState.hasLinks, let target = _$resolveLink(property) {
                setBuilt(property, target)
            } else {
                _$persistentState.context?.loadUnloaded(self, property: property)
            }
        }
        if let context = _$persistentState.context, context.recordsUndo {
            context.recordUndo(of: self, property: property)
        }
    }

    /// Called by generated getters when persisted property number `property` has no value: the context loads it
    /// (a property of a model not loaded yet, or a relationship). A relationship of a model that left its context
    /// (deleted and saved, deleted by another context, or replaced by an upsert) reads as empty. An attribute that
    /// cannot be loaded (the model left its context before it was read, or its row is gone) reads as empty
    /// (`Schema.Attribute.unloadedValue`) and the reason is logged, since a property read cannot throw.
    ///
    /// Three reads have no value to return, and stop the program with a message that names the property and what
    /// to change, as Swift stops at a read of an uninitialized variable (and Apple's SwiftData at a read of a value
    /// its model no longer has): a property of a new model that was never assigned, a non-optional to-one
    /// relationship not read before its model left its context, and an attribute of a type without an empty value
    /// (a `Codable` struct, an enum) not read before then.
    public func _$fault(_ property: Int) {
        if _$persistentState.hasLinks, let target = _$resolveLink(property) {
            // A hand-written model's getter does not ask `_$linked` first: it holds the target.
            return setBuilt(property, target)
        }
        let status = _$persistentState.status
        if let context = _$persistentState.context, status == .registered || status == .deleted {
            context.loadUnloaded(self, property: property)
            if !_$get(property).isLoaded {
                _$setUnloaded(
                    property,
                    reason: "it could not be loaded from the store (see the error above); the model may have been "
                        + "deleted by another context",
                    advice: "read it before another context deletes the model")
            }
            return
        }
        if let binding = _$persistentState.binding, let relationship = binding.entity.relationship(at: property) {
            if (try? _$set(property, .loaded(Relationships.emptyValue(of: relationship)))) != nil { return }
            preconditionViolated(
                "\(Self.self).\(Self._propertyName(property)) is a non-optional relationship of a model that left its "
                    + "context before the relationship was read, so there is no model to return; read it before the "
                    + "model is deleted and saved, or declare the relationship optional")
        }
        if _$persistentState.binding != nil {
            _$persistentState.externalReferences?[property] = nil
            return _$setUnloaded(
                property,
                reason: "the model left its context (it was deleted, or replaced by an upsert) before the value was "
                    + "read",
                advice: "read it before the model leaves its context")
        }
        preconditionViolated(
            "\(Self.self).\(Self._propertyName(property)) was read before it was given a value; assign it in the "
                + "initializer or declare a default value")
    }

    /// Gives attribute `property`, which cannot be loaded, its empty value and logs why. A type with no empty
    /// value stops the program with the reason, as there is nothing the getter could return.
    private func _$setUnloaded(_ property: Int, reason: String, advice: String) {
        let name = Self._propertyName(property)
        if let empty = _$persistentState.binding?.entity.attribute(at: property)?.unloadedValue, empty.isLoaded,
            (try? _$set(property, empty)) != nil
        {
            return Log.error("\(Self.self).\(name) reads as empty: \(reason); \(advice)")
        }
        preconditionViolated(
            "\(Self.self).\(name) has no value to read: \(reason), and its type has no empty value to read instead; "
                + "\(advice), or make the property optional")
    }

    /// The name of persisted property number `property`, for messages.
    package static func _propertyName(_ property: Int) -> String {
        let metadata = schemaMetadata
        return metadata.indices.contains(property) ? metadata[property].name : "#\(property)"
    }

    // MARK: Links (see `_PersistentState`)

    /// Called by generated getters when a relationship's storage is empty: the target of a linked to-one
    /// relationship, found through the context and not held; `nil` when the relationship is not linked.
    public func _$linked<Value: _RelationshipValue>(_ property: Int, _ current: Value?) -> Value? {
        guard _$persistentState.hasLinks, let target = _$resolveLink(property) else { return nil }
        return target as? Value
    }

    /// Attributes are never linked.
    @inlinable @inline(__always)
    public func _$linked<Value>(_ property: Int, _ current: Value?) -> Value? { nil }

    /// Called by generated `_$get` when a property's storage is empty: the target of a linked relationship, or
    /// `.notLoaded`.
    @inlinable
    public func _$linkedValue(_ property: Int) -> _PropertyValue {
        _$persistentState.hasLinks ? _$resolveLinkedValue(property) : .notLoaded
    }

    /// The target of linked relationship `property`, as `_$get` returns values (internal plumbing; not API).
    public func _$resolveLinkedValue(_ property: Int) -> _PropertyValue {
        _$resolveLink(property).map { .loaded($0) } ?? .notLoaded
    }

    /// Called by generated `_$set` before it stores a value: a stored value replaces a link.
    @inlinable
    public func _$unlink(_ property: Int) {
        if _$persistentState.hasLinks { _$persistentState.unlink(property) }
    }

    /// The value of linked relationship `property`: for a to-one relationship the context's registered model for
    /// its key, or the model loaded again (and then held) when it went away; for a to-many one the typed array of
    /// its members, found the same way (and not held). `nil`, and the link is gone, when the model has no context.
    package func _$resolveLink(_ property: Int) -> Any? {
        let key = _$persistentState.linkedKey(property)
        let members = key == nil ? _$persistentState.linkedMembers(property) : nil
        guard key != nil || members != nil else { return nil }
        guard let context = _$persistentState.context,
            let relationship = _$persistentState.binding?.entity.relationship(at: property)
        else {
            _$persistentState.unlink(property)
            return nil
        }
        if let key { return context.linkedTarget(of: self, relationship, key: key) }
        return members.flatMap { Relationships.linkedMembers(relationship, keys: $0, in: context) }
    }

    /// Records the current value of persisted property number `property` for undo, holding the context meanwhile.
    @usableFromInline
    func _$recordUndo(_ property: Int) {
        _$persistentState.context?.recordUndo(of: self, property: property)
    }

    @usableFromInline
    func _$recordChange(_ property: Int) {
        // Lent unretained (see `ContextAnchor`): noting a change cannot take the model out of its context.
        _$persistentState.unretainedContext?._withUnsafeGuaranteedRef { $0.modelDidChange(self, property: property) }
    }
}

/// Apple's backing-data protocol. Here a model keeps its values itself, and its backing data is a view of them:
/// reading and writing through it is reading and writing the model's properties (see `getValue(forKey:)` on
/// `PersistentModel`).
public protocol BackingData<Model> {
    /// The model type whose data this is.
    associatedtype Model: PersistentModel
    /// An empty backing data for a new model of `modelType`.
    init(for modelType: Model.Type)
    /// The model's identifier once a context has inserted or fetched it; `nil` before.
    var persistentModelID: PersistentIdentifier? { get set }
    /// What the store knows of the model's type (here the entity's name).
    var metadata: Any { get }

    /// The value of an attribute.
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: Decodable
    /// The model of a to-one relationship.
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: PersistentModel
    /// The model of an optional to-one relationship, or `nil`.
    func getValue<Value>(forKey: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel
    /// The models of a to-many relationship.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// The models of a to-many relationship whose models are also `Codable`.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// The value of a `.transformable` attribute.
    func getTransformableValue<Value>(forKey: KeyPath<Model, Value>) -> Value
    /// Sets an attribute.
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable
    /// Sets a to-one relationship.
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel
    /// Sets an optional to-one relationship; `nil` clears it.
    func setValue<Value>(forKey: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel
    /// Sets the models of a to-many relationship.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Sets the models of a to-many relationship whose models are also `Codable`.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Sets a `.transformable` attribute.
    func setTransformableValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value)
}

/// The backing data of this implementation: a view of one model's values, or (made with `init(for:)` from a type,
/// as a store hands one to a new model) of none. Not in Apple's API, which keeps its backing data type private;
/// `@Model`'s `persistentBackingData` returns one.
public struct DefaultBackingData<Model: PersistentModel>: BackingData {
    /// The model's identifier once a context has inserted or fetched it; `nil` before.
    public var persistentModelID: PersistentIdentifier?
    /// The name of the model's entity.
    public var metadata: Any { Schema.entityName(for: Model.self) }
    /// The model whose values this is a view of.
    package let model: Model?

    /// A backing data of no model: reading or writing a value through it stops the program with a message.
    public init(for modelType: Model.Type) { model = nil }

    /// A view of `model`'s values (what `@Model`'s `persistentBackingData` returns).
    public init(for model: Model) {
        self.model = model
        persistentModelID = model.persistentModelID
    }

    public func getValue<Value>(forKey keyPath: KeyPath<Model, Value>) -> Value where Value: Decodable {
        owner(keyPath).getValue(forKey: keyPath)
    }

    public func getValue<Value>(forKey keyPath: KeyPath<Model, Value>) -> Value where Value: PersistentModel {
        owner(keyPath).getValue(forKey: keyPath)
    }

    public func getValue<Value>(forKey keyPath: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel {
        owner(keyPath).getValue(forKey: keyPath)
    }

    public func getValue<Value, OtherModel>(forKey keyPath: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        owner(keyPath).getValue(forKey: keyPath)
    }

    public func getValue<Value, OtherModel>(forKey keyPath: KeyPath<Model, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        owner(keyPath).getValue(forKey: keyPath)
    }

    public func getTransformableValue<Value>(forKey keyPath: KeyPath<Model, Value>) -> Value {
        owner(keyPath).getTransformableValue(forKey: keyPath)
    }

    public func setValue<Value>(forKey keyPath: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable {
        owner(keyPath).setValue(forKey: keyPath, to: newValue)
    }

    public func setValue<Value>(forKey keyPath: KeyPath<Model, Value>, to newValue: Value)
    where Value: PersistentModel {
        owner(keyPath).setValue(forKey: keyPath, to: newValue)
    }

    public func setValue<Value>(forKey keyPath: KeyPath<Model, Value?>, to newValue: Value?)
    where Value: PersistentModel {
        owner(keyPath).setValue(forKey: keyPath, to: newValue)
    }

    public func setValue<Value, OtherModel>(forKey keyPath: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        owner(keyPath).setValue(forKey: keyPath, to: newValue)
    }

    public func setValue<Value, OtherModel>(forKey keyPath: KeyPath<Model, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        owner(keyPath).setValue(forKey: keyPath, to: newValue)
    }

    public func setTransformableValue<Value>(forKey keyPath: KeyPath<Model, Value>, to newValue: Value) {
        owner(keyPath).setTransformableValue(forKey: keyPath, to: newValue)
    }

    /// The model, which a backing data made from a type lacks: using one is a programming error that has no value
    /// to return, reported as Swift reports a read of an uninitialized value.
    private func owner(_ keyPath: AnyKeyPath) -> Model {
        guard let model else {
            preconditionViolated(
                "\(keyPath) was read or written through a backing data of no \(Model.self), which holds no values (a "
                    + "model keeps its values itself); use the model's persistentBackingData")
        }
        return model
    }
}

extension PersistentModel {
    /// A fresh backing data for a model of this type.
    public static func createBackingData<P: PersistentModel>() -> some BackingData<P> {
        DefaultBackingData(for: P.self)
    }
}

/// The typed storage of a persisted property declared without a type: `var imageData = Data()` stores
/// `Data?`, holding the initial value (internal plumbing for `@Model`; not API).
@inlinable
public func _initialPersistedValue<Value>(_ value: Value) -> Value? { value }
