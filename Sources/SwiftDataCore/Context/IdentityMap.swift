/// The registered models of one model type in one context, by primary key: one object per row. It does not keep
/// them alive: a model that nobody holds any more goes away and leaves the map (its `_PersistentState` tells the
/// map as the model is freed), so a context's memory follows what the program uses. Models with unsaved changes are
/// kept alive by the context's pending lists (`ModelRegistry`), not by this map.
///
/// Registering and forgetting a model are on the path of every fetched and every freed model, so both are a few
/// array operations: the entries sit in a dense array, and each model's state knows its position there. Lookups by
/// key go through an open-addressing hash table (linear probing, Fibonacci hashing of the key, deletion by backward
/// shift), built on the first lookup and kept up to date after: a first fetch of a type never looks a key up, and
/// primary keys, positive and mostly consecutive, spread evenly without `Hasher`'s cost.
final class IdentityMap {
    private struct Entry {
        let key: Int64
        /// `unowned(unsafe)` because an entry leaves the map as its model goes away (the `deinit` of the model's
        /// `_PersistentState` calls `forgetGone`), so no entry outlives its model; safe `unowned` cost two reference
        /// count updates per model to register and two to forget.
        unowned(unsafe) let model: any PersistentModel
    }

    /// A place in the hash table: a key and the position of its entry, or `free`.
    private struct Slot {
        var key: Int64
        var entry: Int32
        static let free = Slot(key: 0, entry: -1)
    }

    /// The entries, in no particular order. Accesses skip Swift's run-time exclusivity checks: each is a short
    /// operation on the context's thread, and none can re-enter another (entries hold no strong references, so
    /// changing one never releases a model).
    @exclusivity(unchecked) private var entries: ContiguousArray<Entry> = []
    /// The hash table, empty until the first lookup; then its count is a power of two, at most three quarters full.
    @exclusivity(unchecked) private var slots: ContiguousArray<Slot> = []
    /// `64 - log2(slots.count)`: the shift that turns a hash into a slot index.
    @exclusivity(unchecked) private var shift: UInt64 = 64

    /// The number of models in the map.
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    private var isIndexed: Bool { !slots.isEmpty }

    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, if any (the table must be built).
    @inline(__always)
    private func slot(of key: Int64) -> Int? {
        let mask = slots.count - 1
        var index = home(of: key)
        while true {
            let slot = slots[index]
            if slot.entry < 0 { return nil }
            if slot.key == key { return index }
            index = (index + 1) & mask
        }
    }

    /// The position of the entry for `key`, if any.
    private func position(of key: Int64) -> Int? {
        guard !entries.isEmpty else { return nil }
        if !isIndexed { rehash(capacity: Self.capacity(for: entries.count)) }
        return slot(of: key).map { Int(slots[$0].entry) }
    }

    /// The registered model for the row `key`.
    func model(_ key: Int64) -> (any PersistentModel)? {
        position(of: key).map { entries[$0].model }
    }

    func contains(_ key: Int64) -> Bool { position(of: key) != nil }

    /// The keys of the registered models.
    var keys: [Int64] { entries.map(\.key) }

    /// Every model in the map, held strongly while the caller uses them.
    func models() -> [any PersistentModel] { entries.map(\.model) }

    /// Makes `model` the object for the row `key`. A caller that knows the key is not in the map (a type's first
    /// fetch) passes `isNew`, which skips the lookup.
    func set(_ model: any PersistentModel, for key: Int64, isNew: Bool = false) {
        if !isNew, let position = position(of: key) {
            entries[position].model._$persistentState.identityPosition = -1
            entries[position] = Entry(key: key, model: model)
            model._$persistentState.identityPosition = Int32(position)
            return
        }
        model._$persistentState.identityPosition = Int32(entries.count)
        append(model, for: key)
    }

    /// Makes `model` the object for the row `key`, which the map does not hold, at position `count`, which the caller
    /// has already stored in the model's state (`identityPosition`) along with its other fields: a fetch's new model
    /// is registered in one access to its state.
    func append(_ model: any PersistentModel, for key: Int64) {
        if isIndexed {
            if (entries.count + 1) * 4 > slots.count * 3 {
                rehash(capacity: slots.count * 2)
            } else if slots.count > 1_024 && entries.count * 16 < slots.count {
                // A map that held many models that are gone gives its memory back when it is used again.
                var kept = ContiguousArray<Entry>()
                kept.reserveCapacity(entries.count * 2)
                kept.append(contentsOf: entries)
                entries = kept
                rehash(capacity: Self.capacity(for: entries.count))
            }
        }
        entries.append(Entry(key: key, model: model))
        if isIndexed { insertSlot(key: key, entry: entries.count - 1) }
    }

    /// Forgets `model` (at its state's `identityPosition`), if the map holds it.
    func forget(_ model: any PersistentModel) {
        let position = Int(model._$persistentState.identityPosition)
        guard position >= 0, position < entries.count, entries[position].model === model else { return }
        model._$persistentState.identityPosition = -1
        remove(at: position)
    }

    /// Takes `model` out of the map, if the map holds it at `position` (its state's `identityPosition`, which the
    /// caller has cleared).
    func remove(_ model: any PersistentModel, at position: Int) {
        guard position >= 0, position < entries.count, entries[position].model === model else { return }
        remove(at: position)
    }

    /// Forgets the model at `position` whose key is `key` as the model goes away (from its state's `deinit`, when
    /// the model can no longer be compared: each key is in the map once, so the key identifies the entry).
    func forgetGone(at position: Int, key: Int64) {
        guard position < entries.count, entries[position].key == key else { return }
        remove(at: position)
    }

    /// Removes the entry at `position`; the last entry fills the gap.
    private func remove(at position: Int) {
        if isIndexed, let slot = slot(of: entries[position].key) { removeSlot(at: slot) }
        let last = entries.removeLast()
        guard position < entries.count else { return }
        entries[position] = last
        last.model._$persistentState.identityPosition = Int32(position)
        if isIndexed, let moved = slot(of: last.key) { slots[moved].entry = Int32(position) }
    }

    private static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity * 3 < count * 4 + 4 { capacity *= 2 }
        return capacity * 2
    }

    private func insertSlot(key: Int64, entry: Int) {
        let mask = slots.count - 1
        var index = home(of: key)
        while slots[index].entry >= 0 { index = (index + 1) & mask }
        slots[index] = Slot(key: key, entry: Int32(entry))
    }

    /// Empties slot `index`, moving later slots of its probe sequence back so that lookups still find them.
    private func removeSlot(at index: Int) {
        let mask = slots.count - 1
        var hole = index
        var next = (index + 1) & mask
        while slots[next].entry >= 0 {
            let home = home(of: slots[next].key)
            // The slot may move into the hole unless its home lies in the cyclic range (hole, next].
            if (hole - home) & mask < (next - home) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .free
    }

    private func rehash(capacity: Int) {
        slots = ContiguousArray(repeating: .free, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        for (position, entry) in entries.enumerated() { insertSlot(key: entry.key, entry: position) }
    }
}
