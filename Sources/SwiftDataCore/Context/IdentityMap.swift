/// The registered models of one model type in one context, by primary key: one object per row. It does not keep
/// them alive: a model that nobody holds any more goes away and leaves the map (its `_PersistentState` tells the
/// map when it is released), so a context's memory follows what the program uses. Models with unsaved changes are
/// kept alive by the context's pending lists (`ModelRegistry`), not by this map.
final class IdentityMap {
    /// A registered model, without a strong reference, and the identity of its bookkeeping object (which tells
    /// an entry from a newer one for the same key).
    struct Entry {
        /// Safe `unowned`: an entry leaves the map when its model's state goes away, before the model's memory is
        /// freed; reading a model that was already deinitialized would stop the program, never read freed memory.
        unowned let model: AnyObject
        let state: ObjectIdentifier
    }

    /// The entries by primary key. Accesses skip Swift's run-time exclusivity checks: each is a single dictionary
    /// operation on the context's thread, and none can re-enter another (entries hold no strong references, so
    /// changing one never releases a model).
    @exclusivity(unchecked) private(set) var entries: [Int64: Entry] = [:]

    /// The registered model for the row `key`.
    @inline(__always)
    func model(_ key: Int64) -> AnyObject? { entries[key]?.model }

    func contains(_ key: Int64) -> Bool { entries[key] != nil }

    var isEmpty: Bool { entries.isEmpty }

    var keys: Dictionary<Int64, Entry>.Keys { entries.keys }

    /// Makes `model` (whose state is `state`) the object for the row `key`.
    @inline(__always)
    func set(_ model: AnyObject, state: _PersistentState, for key: Int64) {
        entries[key] = Entry(model: model, state: ObjectIdentifier(state))
    }

    /// Forgets the model of the row `key`, if its state is `state`.
    func forget(_ key: Int64, state: ObjectIdentifier) {
        if let entry = entries[key], entry.state == state { entries[key] = nil }
    }

    /// Every model in the map, held strongly while the caller uses them.
    func models() -> [AnyObject] { entries.values.map(\.model) }
}
