import Synchronization

/// A model's bookkeeping, stored in each `@Model` object (internal plumbing; not API): which context manages it,
/// its key in the store, its lifecycle state and which persisted properties changed since the last save.
///
/// It is a noncopyable struct stored in the model itself, so a model is one allocation: code reaching it through
/// `any PersistentModel` reads and changes it in place through the property's accessors (it cannot be copied out,
/// which would retain and release its references), and its `deinit`, which runs as the model goes away, makes the
/// identity map forget the model. The model's stored property skips Swift's run-time exclusivity checks: the
/// framework changes it one statement at a time, on the context's thread.
public struct _PersistentState: ~Copyable {
    /// Where a model is in its life.
    @usableFromInline
    package enum Status: UInt8 {
        /// Created, never inserted.
        case unmanaged
        /// Inserted into a context, not yet saved.
        case inserted
        /// Saved in the store and registered in a context.
        case registered
        /// Registered, and deleted in its context; the next save removes it.
        case deleted
        /// Deleted and saved, or inserted and rolled back: no longer managed.
        case detached
    }

    /// The managing context, retained: a model keeps its context, and through it the store, alive for as long as
    /// the program holds the model. The context keeps a model alive only while it has unsaved changes (see
    /// `ModelRegistry`), so the two refer to each other only until those changes are saved or rolled back.
    @usableFromInline package var context: ModelContext? {
        @inlinable get { anchor?.context }
        set { anchor = newValue.map { $0.registry.anchor(of: $0) } }
    }
    // The stored fields are declared from the widest to the narrowest, which leaves no padding between them, and
    // the narrowest last, so that the model's `_$isObserved`, declared after the state, takes the byte after them:
    // the state is stored in every model.

    /// What keeps `context` alive (see `ContextAnchor`).
    @usableFromInline var anchor: ContextAnchor?
    /// The managing context, unretained, for code that only calls it: `context` retains it (see `ContextAnchor`).
    @inlinable var unretainedContext: Unmanaged<ModelContext>? { anchor?.unretainedContext }
    /// The primary key while registered; the temporary number while inserted.
    package var key: Int64 = 0
    /// The entity and store of a registered model.
    package var binding: EntityBinding?
    /// The persisted properties changed since the last save: the first 64 inline (`changedLow`), the others, which
    /// few models have, with the rare fields.
    @usableFromInline package var changes: PropertyMask {
        @inlinable get {
            // Compared with `nil` first, which reads the reference without retaining it.
            guard _slowPath(rare != nil) else { return PropertyMask(low: changedLow, overflow: nil) }
            return PropertyMask(low: changedLow, overflow: rare?.changedHigh)
        }
        @inlinable set {
            changedLow = newValue.low
            if _slowPath(newValue.overflow != nil || rare != nil) { setChangedHigh(newValue.overflow) }
        }
    }
    /// `changes` of the persisted properties `0..<64`.
    @usableFromInline var changedLow: UInt64 = 0
    /// What a save writes of a changed model (its binding, changed properties and key), read in one access to the
    /// state rather than one for each.
    package var update: (binding: EntityBinding?, changes: PropertyMask, key: Int64) { (binding, changes, key) }
    /// Whether persisted property `property` changed since the last save (`changes.contains(property)`, without
    /// making the set).
    @inlinable package func hasChanged(_ property: Int) -> Bool {
        property < 64 ? changedLow & (1 &<< UInt64(property)) != 0 : changes.contains(property)
    }
    /// Whether any persisted property changed since the last save.
    @inlinable package var hasChanges: Bool { changedLow != 0 || (_slowPath(rare != nil) && rare?.changedHigh != nil) }
    /// References to the values of externally stored attributes not read yet, by property index.
    package var externalReferences: [Int: String]? {
        get { rare?.externalReferences }
        set { setRare(\.externalReferences, newValue) }
    }
    /// The fields few models use (`externalReferences`, `moreLinks`, `memberLinks`, the changes of properties
    /// numbered 64 and later), `nil` while all are: a model without any, most of them, releases one empty reference
    /// as it goes away instead of four.
    @usableFromInline var rare: RareState?
    /// The identity map the model is registered in, while it is: the model leaves it when it goes away.
    var identityMap: IdentityMap? {
        get { registeredMap?.takeUnretainedValue() }
        set { registeredMap = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// `identityMap`, not retained: while it is set, `context` is too, and the context's registry holds the map. As
    /// an `Unmanaged` reference `deinit` reaches the map without retaining and releasing it (an `unowned(unsafe)`
    /// one was retained there, for every model that went away).
    private var registeredMap: Unmanaged<IdentityMap>?
    /// The key of the target of the link in `linkProperty`.
    private var linkKey: Int64 = 0
    /// The model's position in its identity map's entries.
    var identityPosition: Int32 = -1
    /// A to-one relationship whose target is not held but found through the context by its key (a "link"), with
    /// that key (`linkKey`); `-1` for none. See `linkedKey(_:)`.
    @usableFromInline var linkProperty: Int32 = -1
    /// Which of the persisted properties `0..<32` kept in plain storage (see `_isLoaded(_:)`) hold a value.
    @usableFromInline var loaded: UInt32
    @usableFromInline package var status = Status.unmanaged
    /// Whether the model is in its context's list of changed models.
    package var isInChangedList = false
    /// Links beyond the first, for models with several linked relationships.
    private var moreLinks: [Int: Int64]? {
        get { rare?.moreLinks }
        set { setRare(\.moreLinks, newValue) }
    }
    /// To-many relationships whose members are not held but found through the context by their keys, in order.
    @usableFromInline var memberLinks: [Int: [Int64]]? {
        @inlinable get { rare?.memberLinks }
        set { setRare(\.memberLinks, newValue) }
    }
    /// Unused; it makes the struct address-only (an atomic has a fixed address), so that the model property's read
    /// accessor, which code reaching the state through `any PersistentModel` calls, lends the state in place. A
    /// loadable struct is lent by value instead: the accessor copied the whole state into a frame it allocated,
    /// about 160 instructions a read.
    private let addressOnly = Atomic<Bool>(false)

    /// The state of a model not inserted yet, whose plain-stored properties hold no value.
    public init() { loaded = 0 }

    /// The state of a model not inserted yet whose plain-stored properties in `loadedProperties` (bit `i` for
    /// property `i`) hold their initial values: `@Model` passes those declared with one.
    public init(loadedProperties: UInt32) { loaded = loadedProperties }

    deinit {
        // The model this state is stored in is going away: its context's identity map must forget it.
        if let registeredMap, identityPosition >= 0 {
            registeredMap._withUnsafeGuaranteedRef { $0.forgetGone(at: Int(identityPosition), key: key) }
        }
    }

    /// Sets the changes of the persisted properties numbered 64 and later.
    @usableFromInline mutating func setChangedHigh(_ words: [UInt64]?) {
        setRare(\.changedHigh, words)
    }

    /// Sets one of the rare fields, making their box when the first is set and dropping it when the last is cleared.
    private mutating func setRare<Value>(_ field: ReferenceWritableKeyPath<RareState, Value?>, _ value: Value?) {
        if let rare {
            rare[keyPath: field] = value
            if rare.isEmpty { self.rare = nil }
        } else if value != nil {
            let made = RareState()
            made[keyPath: field] = value
            rare = made
        }
    }

    // MARK: Plain storage
    //
    // `@Model` keeps a persisted property of a fixed-size type (`Int`, `Double`, `Bool`, `Date`, ...) numbered below
    // 32 in a root model as a plain value rather than an optional one, which would take twice the bytes for a
    // "no value yet" that fits in one bit: the bit is here, in `loaded`. Its generated accessors test and set it
    // where an optional's would compare with and assign `nil`.

    /// Whether plain-stored persisted property `property` holds a value (internal plumbing for `@Model`; not API).
    @inlinable @inline(__always)
    public func _isLoaded(_ property: Int) -> Bool { loaded & (1 &<< UInt32(truncatingIfNeeded: property)) != 0 }

    /// Notes that plain-stored persisted property `property` holds a value now (internal plumbing; not API).
    @inlinable @inline(__always)
    public mutating func _setLoaded(_ property: Int) { loaded |= 1 &<< UInt32(truncatingIfNeeded: property) }

    /// Notes that the plain-stored persisted properties in `properties` (bit `i` for property `i`) hold values now,
    /// as a whole row was read (internal plumbing; not API).
    @inlinable @inline(__always)
    public mutating func _setLoaded(properties: UInt32) { loaded |= properties }

    /// Notes that plain-stored persisted property `property` holds no value, so its next read loads it (internal
    /// plumbing; not API).
    @inlinable @inline(__always)
    public mutating func _setUnloaded(_ property: Int) { loaded &= ~(1 &<< UInt32(truncatingIfNeeded: property)) }

    /// Makes this the state of a model never inserted, as a saved delete leaves it: only which plain-stored
    /// properties hold values stays, as the values do.
    mutating func forgetIdentity() {
        self = _PersistentState(loadedProperties: loaded)
    }

    // MARK: Links
    //
    // A saved model's to-one relationship whose target holds the model back (the target's inverse is loaded and
    // contains it: `category.animals` and `animal.category`) would make the two keep each other alive forever. So
    // such a relationship does not hold its target: it keeps the target's key, and reads find the target through
    // the context's identity map (`PersistentModel._$linked`). The target is alive whenever anything else holds it;
    // when nothing does, it went away with its inverse, and the next read loads it again.
    //
    // Two many-to-many arrays that hold each other's models (`pupil.lessons` and `lesson.pupils`, both loaded) would
    // do the same, so a saved model's many-to-many relationship whose members hold it back keeps their keys instead
    // (`memberLinks`), and reads find the members through the context, loading again those that went away.

    /// Whether `context` manages the model. Compared in place: reading `context` out of the state, which code reaching
    /// it through `any PersistentModel` borrows, would retain and release the context (a weakly referenced object,
    /// so through the runtime's slow path).
    package func isManaged(by context: ModelContext) -> Bool { anchor?.context === context }

    /// Notes that persisted property `property` changed, in one access to the state; returns whether the model was not
    /// in its context's list of changed models yet (it is now marked as in it).
    package mutating func noteChanged(_ property: Int) -> Bool {
        if _fastPath(property < 64) {
            changedLow |= 1 &<< UInt64(property)
        } else {
            noteChangedAfter64(property)
        }
        guard !isInChangedList else { return false }
        isInChangedList = true
        return true
    }

    /// `noteChanged(_:)`'s part for a property numbered 64 or later.
    @inline(never) private mutating func noteChangedAfter64(_ property: Int) {
        changes.insert(property)
    }

    /// Forgets the identity map the model is registered in and its position there, in one access to the state, and
    /// returns them, so that the caller takes the model out of the map; `nil` when it is in none.
    mutating func leaveIdentityMap() -> (map: IdentityMap, position: Int)? {
        guard let map = identityMap else { return nil }
        let position = Int(identityPosition)
        identityMap = nil
        identityPosition = -1
        return (map, position)
    }

    /// Makes the model no longer managed by its context, in one access to the state: detached, without a context
    /// (which it releases) or changes. It must have left its identity map first (`leaveIdentityMap()`).
    mutating func detach() {
        status = .detached
        context = nil
        if hasChanges { changes.removeAll() }
    }

    /// Whether any relationship of the model is linked.
    @inlinable package var hasLinks: Bool { linkProperty >= 0 || memberLinks != nil }

    /// The key of the target of relationship `property`, when it is linked.
    package func linkedKey(_ property: Int) -> Int64? {
        guard linkProperty >= 0 else { return nil }
        if Int(linkProperty) == property { return linkKey }
        return moreLinks?[property]
    }

    /// The keys of the members of to-many relationship `property`, in order, when it is linked.
    package func linkedMembers(_ property: Int) -> [Int64]? {
        memberLinks?[property]
    }

    /// Whether relationship `property` is linked (to-one or to-many).
    package func isLinked(_ property: Int) -> Bool {
        linkedKey(property) != nil || memberLinks?[property] != nil
    }

    /// The linked relationships.
    package var linkedProperties: [Int] {
        var properties = memberLinks.map { Array($0.keys) } ?? []
        guard linkProperty >= 0 else { return properties }
        properties.append(Int(linkProperty))
        return properties + (moreLinks.map { Array($0.keys) } ?? [])
    }

    /// Links relationship `property` to the target with the key `key` (its storage must be empty).
    package mutating func link(_ property: Int, to key: Int64) {
        if linkProperty < 0 || Int(linkProperty) == property {
            linkProperty = Int32(property)
            linkKey = key
        } else {
            moreLinks = (moreLinks ?? [:]).merging([property: key]) { $1 }
        }
    }

    /// Links to-many relationship `property` to the members with the keys `keys` (its storage must be empty).
    package mutating func linkMembers(_ property: Int, to keys: [Int64]) {
        memberLinks = (memberLinks ?? [:]).merging([property: keys]) { $1 }
    }

    /// Removes the link of relationship `property`, if it has one.
    @usableFromInline package mutating func unlink(_ property: Int) {
        if memberLinks != nil {
            memberLinks?[property] = nil
            if memberLinks?.isEmpty == true { memberLinks = nil }
        }
        guard linkProperty >= 0 else { return }
        if Int(linkProperty) == property {
            if let (next, key) = moreLinks?.first {
                moreLinks?[next] = nil
                if moreLinks?.isEmpty == true { moreLinks = nil }
                linkProperty = Int32(next)
                linkKey = key
            } else {
                linkProperty = -1
            }
        } else {
            moreLinks?[property] = nil
            if moreLinks?.isEmpty == true { moreLinks = nil }
        }
    }

    /// Removes every link.
    package mutating func unlinkAll() {
        linkProperty = -1
        memberLinks = nil
        moreLinks = nil
    }

    /// Makes this the state of a new, unsaved model of `context` (in one access to the state, which code reaching it
    /// through `any PersistentModel` pays for each statement). Only `ModelRegistry` calls it.
    mutating func insert(into context: ModelContext) {
        if key == 0 || status == .detached { key = PersistentIdentifier.nextTemporaryKey() }
        binding = nil
        identityMap = nil
        self.context = context
        status = .inserted
    }

    /// `register(in:key:binding:map:)` for the state of a model a fetch has just made, whose other fields still have
    /// their initial values: it sets only what registering changes, with the model's position in `map`, where the
    /// caller then appends it (`IdentityMap.append`).
    mutating func registerNew(in context: ModelContext, key: Int64, binding: EntityBinding, map: IdentityMap) {
        // The anchor, set directly: the `context` setter takes the context as an owned value, which retains it
        // through the runtime's slow path (it is weakly referenced) when the setter is not inlined.
        anchor = context.registry.anchor(of: context)
        status = .registered
        self.key = key
        self.binding = binding
        identityMap = map
        identityPosition = map.nextPosition
    }

    /// `registerNew(in:key:binding:map:)` with a link of relationship `property` to `target` (see `link(_:to:)`).
    mutating func registerNew(
        in context: ModelContext, key: Int64, binding: EntityBinding, map: IdentityMap, link property: Int32,
        to target: Int64
    ) {
        registerNew(in: context, key: key, binding: binding, map: map)
        linkProperty = property
        linkKey = target
    }

    /// Makes this the state of a saved model registered in `context` for the row `key`, forgetting the rest. Only
    /// `ModelRegistry` calls it, with the identity map that now holds the model.
    mutating func register(in context: ModelContext, key: Int64, binding: EntityBinding, map: IdentityMap) {
        self.context = context
        status = .registered
        isInChangedList = false
        self.key = key
        self.binding = binding
        changes.removeAll()
        externalReferences = nil
        identityMap = map
        unlinkAll()
    }
}

/// The fields of a model's state that few models use (see `_PersistentState.rare`).
@usableFromInline
final class RareState {
    var externalReferences: [Int: String]?
    var moreLinks: [Int: Int64]?
    @usableFromInline var memberLinks: [Int: [Int64]]?
    /// The words of `_PersistentState.changes` after the first.
    @usableFromInline var changedHigh: [UInt64]?

    /// Whether no field is set.
    var isEmpty: Bool { externalReferences == nil && moreLinks == nil && memberLinks == nil && changedHigh == nil }
}

/// A set of property indexes, inline for the first 64.
@usableFromInline
package struct PropertyMask: Equatable, Sendable {
    @usableFromInline var low: UInt64 = 0
    /// The words after the first, `nil` when all are zero (it never ends with a zero word).
    @usableFromInline var overflow: [UInt64]?
    /// The words after the first.
    package var high: [UInt64] { overflow ?? [] }

    package init() {}

    @inlinable
    init(low: UInt64, overflow: [UInt64]?) {
        self.low = low
        self.overflow = overflow
    }

    @inlinable
    package var isEmpty: Bool { low == 0 && overflow == nil }

    @inlinable
    package func contains(_ index: Int) -> Bool {
        if index < 64 { return low & (1 << UInt64(index)) != 0 }
        let word = index / 64 - 1
        guard let overflow, word < overflow.count else { return false }
        return overflow[word] & (1 << UInt64(index % 64)) != 0
    }

    @inlinable
    package mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 << UInt64(index)
            return
        }
        let word = index / 64 - 1
        var words = overflow ?? []
        if word >= words.count { words += Array(repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(index % 64)
        overflow = words
    }

    package mutating func remove(_ index: Int) {
        if index < 64 {
            low &= ~(1 << UInt64(index))
            return
        }
        let word = index / 64 - 1
        guard var words = overflow, word < words.count else { return }
        words[word] &= ~(1 << UInt64(index % 64))
        while words.last == 0 { words.removeLast() }
        overflow = words.isEmpty ? nil : words
    }

    package mutating func removeAll() {
        low = 0
        overflow = nil
    }

    /// The indexes in increasing order.
    package var indexes: [Int] {
        var result: [Int] = []
        for bit in 0..<64 where low & (1 << UInt64(bit)) != 0 { result.append(bit) }
        for (word, bits) in high.enumerated() {
            for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 { result.append(64 * (word + 1) + bit) }
        }
        return result
    }
}
