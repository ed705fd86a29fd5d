import Observation

/// What `@Model`'s generated accessors and property functions call (internal plumbing; not API).
///
/// Each generated accessor is a few plain calls of these, with no closure and no overloads, because model code is
/// compiled on every build: the compiler checks a call like these far faster than the statements it stands for.
/// They are inlined into the model's own code in optimized builds, so they cost nothing at run time. `keyPath` is
/// the property's, as the observation registrar (`registrar`, the model's) is told, of the exact type of the key
/// path the class keeps, which the compiler matches without a conversion; the value of a property stored as an
/// optional (`stored`) is `nil` while the property has none in memory.
extension PersistentModel {
    // MARK: Reads

    /// A read: the model is observed from now on, and the registrar is told.
    @inlinable @inline(__always)
    public func _$access<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar) {
        _$isObserved = true
        registrar.access(self, keyPath: keyPath)
    }

    /// A read of an attribute stored as an optional: `_$access`, and the value is loaded when there is none. Whether
    /// there is one is asked first, so that the optimizer need not keep a copy of the value across the registrar's
    /// call.
    @inlinable @inline(__always)
    public func _$read<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar,
        _ stored: Value?
    ) {
        let loaded: Bool
        if case .none = stored { loaded = false } else { loaded = true }
        _$access(keyPath, registrar)
        if !loaded { _$fault(property) }
    }

    /// A read of an attribute in plain storage (see `_PersistentState._isLoaded(_:)`): `_$access`, and the value is
    /// loaded when there is none.
    @inlinable @inline(__always)
    public func _$readPlain<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar
    ) {
        _$access(keyPath, registrar)
        if !_$persistentState._isLoaded(property) { _$fault(property) }
    }

    // MARK: Writes

    /// Before a property's storage changes: tells the registrar when the model is observed, and returns whether it
    /// is, for `_$didMutate`.
    @inlinable @inline(__always)
    public func _$willMutate<Value>(_ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar)
        -> Bool
    {
        let observed = _$isObserved
        if observed { registrar.willSet(self, keyPath: keyPath) }
        return observed
    }

    /// After a property's storage changed: tells the registrar when `_$willMutate` did.
    @inlinable @inline(__always)
    public func _$didMutate<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar, _ observed: Bool
    ) {
        if observed { registrar.didSet(self, keyPath: keyPath) }
    }

    /// Before a setter changes an attribute of a standard type: `_$attributeWillChange` and `_$willMutate`.
    @inlinable @inline(__always)
    public func _$willChange<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar
    ) -> Bool {
        _$attributeWillChange(property)
        return _$willMutate(keyPath, registrar)
    }

    /// After a setter changed an attribute of a standard type: `_$didMutate` and `_$attributeDidChange`.
    @inlinable @inline(__always)
    public func _$didChange<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar,
        _ observed: Bool
    ) {
        _$didMutate(keyPath, registrar, observed)
        _$attributeDidChange(property)
    }

    /// After a setter changed an attribute in plain storage: it holds a value now, then `_$didChange`.
    @inlinable @inline(__always)
    public func _$didChangePlain<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar,
        _ observed: Bool
    ) {
        _$persistentState._setLoaded(property)
        _$didChange(property, keyPath, registrar, observed)
    }

    /// Before an in-place change (`+=`, `append`) of an attribute stored as an optional: a read, loading the value
    /// when there is none, then `_$attributeWillChange`; the registrar is told of the change only when the model
    /// was read before, since only a read can make an observer, and one made by this read is installed after the
    /// change. Returns whether it was told, for `_$didChange`.
    @inlinable @inline(__always)
    public func _$willModify<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar,
        _ stored: Value?
    ) -> Bool {
        let observed = _$isObserved
        _$read(property, keyPath, registrar, stored)
        _$attributeWillChange(property)
        if observed { registrar.willSet(self, keyPath: keyPath) }
        return observed
    }

    /// `_$willModify` of an attribute in plain storage.
    @inlinable @inline(__always)
    public func _$willModifyPlain<Value>(
        _ property: Int, _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar
    ) -> Bool {
        let observed = _$isObserved
        _$readPlain(property, keyPath, registrar)
        _$attributeWillChange(property)
        if observed { registrar.willSet(self, keyPath: keyPath) }
        return observed
    }

    // MARK: Property functions

    /// Whether `_$loadRow` reads a row of `count` properties: the class has `properties`.
    @inlinable @inline(__always)
    public func _$readsRow(_ count: Int, _ properties: Int) -> Bool { count == properties }

    /// `_$set` of a property stored as an optional: stores the value (`nil` for `.notLoaded`, so the next read loads
    /// it), having replaced a link, and tells the registrar when the model is observed. A value of another type than
    /// the property's throws, naming both, and changes nothing. One call per property, so that `_$set` is one
    /// statement per case for the type checker.
    @inlinable @inline(__always)
    public func _$assign<Value>(
        _ property: Int, _ value: _PropertyValue, _ storage: inout Value?,
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar
    ) throws {
        let typed = try _storedValue(value, as: Value?.none, of: self, property: property)
        _$unlink(property)
        let observed = _$willMutate(keyPath, registrar)
        storage = typed
        _$didMutate(keyPath, registrar, observed)
    }

    /// `_$assign` of an attribute in plain storage: `.notLoaded` leaves the value and marks the property as without
    /// one (see `_PersistentState._isLoaded(_:)`).
    @inlinable @inline(__always)
    public func _$assignPlain<Value>(
        _ property: Int, _ value: _PropertyValue, _ storage: inout Value,
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, _ registrar: ObservationRegistrar
    ) throws {
        let typed = try _storedValue(value, as: Value?.none, of: self, property: property)
        let observed = _$willMutate(keyPath, registrar)
        if let typed {
            storage = typed
            _$persistentState._setLoaded(property)
        } else {
            _$persistentState._setUnloaded(property)
        }
        _$didMutate(keyPath, registrar, observed)
    }

    /// `_$get` of a property stored as an optional: its value, or a linked relationship's target, or `.notLoaded`.
    @inlinable @inline(__always)
    public func _$value<Value>(_ property: Int, _ stored: Value?) -> _PropertyValue {
        if let stored { return .loaded(stored) }
        return _$linkedValue(property)
    }

    /// `_$get` of a property of an optional type: `_$value`, with an empty optional given as `nil`, not as a value
    /// holding `nil`.
    @inlinable @inline(__always)
    public func _$optionalValue<Wrapped>(_ property: Int, _ stored: Wrapped??) -> _PropertyValue {
        if let stored { return .loaded(stored) }
        return _$linkedValue(property)
    }

    /// `_$get` of an attribute in plain storage: its value, or `.notLoaded`.
    @inlinable @inline(__always)
    public func _$plainValue<Value>(_ property: Int, _ stored: Value) -> _PropertyValue {
        _$persistentState._isLoaded(property) ? .loaded(stored) : .notLoaded
    }
}
