/// The registered models of one model type in one context, by primary key: one object per row. It does not keep
/// them alive: a model that nobody holds any more goes away and leaves the map (its `_PersistentState` tells the
/// map as the model is freed), so a context's memory follows what the program uses. Models with unsaved changes are
/// kept alive by the context's pending lists (`ModelRegistry`), not by this map.
///
/// Registering and forgetting a model are on the path of every fetched and every freed model, so both are a few
/// array operations: the entries sit in an array, and each model's state knows its position there. A model that
/// leaves frees its entry, which the next model registered takes (free entries form a list through their `key`),
/// so no other entry moves and no other model's state is written; a map whose models are all gone starts again
/// empty, and one left mostly free is compacted. Lookups by key go through an open-addressing hash table (linear
/// probing, Fibonacci hashing of the key, deletion by backward shift), built on the first lookup and kept up to date
/// after: a first fetch of a type never looks a key up, and primary keys, positive and mostly consecutive, spread
/// evenly without `Hasher`'s cost.
final class IdentityMap {
    private struct Registration {
        let key: Int64
        /// `unowned(unsafe)` because an entry leaves the map as its model goes away (the `deinit` of the model's
        /// `_PersistentState` calls `forgetGone`), so no entry outlives its model; safe `unowned` cost two reference
        /// count updates per model to register and two to forget.
        unowned(unsafe) let model: any PersistentModel
    }

    /// A position in the map: a model with its key, or free. Being an enum case, not a key value, is what tells a
    /// free entry apart (any key may be a row's), and telling it apart reads no reference, so it retains nothing.
    private enum Entry {
        case registered(Registration)
        /// Free, followed in the list of free entries by the one at `next` (`-1` for none).
        case free(next: Int32)

        init(key: Int64, model: any PersistentModel) { self = .registered(Registration(key: key, model: model)) }

        /// The entry's model and key, unless it is free.
        var registration: Registration? {
            if case .registered(let registration) = self { return registration }
            return nil
        }
    }

    /// A place in the hash table: a key and the position of its entry, or `free`.
    private struct Slot {
        var key: Int64
        var entry: Int32
        static let free = Slot(key: 0, entry: -1)
    }

    /// The entries, in no particular order, some of them free. Accesses skip Swift's run-time exclusivity checks:
    /// each is a short operation on the context's thread, and none can re-enter another (entries hold no strong
    /// references, so changing one never releases a model).
    @exclusivity(unchecked) private var entries: ContiguousArray<Entry> = []
    /// The hash table, empty until the first lookup; then its count is a power of two, at most three quarters full.
    @exclusivity(unchecked) private var slots: ContiguousArray<Slot> = []
    /// `64 - log2(slots.count)`: the shift that turns a hash into a slot index.
    @exclusivity(unchecked) private var shift: UInt64 = 64
    /// The position of the first free entry, or `-1`.
    private var firstFree: Int32 = -1

    /// The number of models in the map.
    private(set) var count = 0

    /// An empty map with room for the entries of a first fetch's few dozen models (2 KiB), which it would otherwise
    /// grow to one allocation and copy at a time.
    init() { entries.reserveCapacity(64) }
    var isEmpty: Bool { count == 0 }
    private var isIndexed: Bool { !slots.isEmpty }

    /// The position the next model registered takes: the first free entry, or a new one at the end.
    var nextPosition: Int32 { firstFree >= 0 ? firstFree : Int32(entries.count) }

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
        guard count > 0 else { return nil }
        if !isIndexed { rehash(capacity: Self.capacity(for: count)) }
        return slot(of: key).map { Int(slots[$0].entry) }
    }

    /// The registered model for the row `key`.
    func model(_ key: Int64) -> (any PersistentModel)? {
        position(of: key).flatMap { entries[$0].registration?.model }
    }

    func contains(_ key: Int64) -> Bool { position(of: key) != nil }

    /// The keys of the registered models.
    var keys: [Int64] { entries.compactMap { $0.registration?.key } }

    /// Every model in the map, held strongly while the caller uses them.
    func models() -> [any PersistentModel] { entries.compactMap { $0.registration?.model } }

    /// Makes `model` the object for the row `key`. A caller that knows the key is not in the map (a type's first
    /// fetch) passes `isNew`, which skips the lookup.
    func set(_ model: any PersistentModel, for key: Int64, isNew: Bool = false) {
        if !isNew, let position = position(of: key) {
            entries[position].registration?.model._$persistentState.identityPosition = -1
            entries[position] = Entry(key: key, model: model)
            model._$persistentState.identityPosition = Int32(position)
            return
        }
        model._$persistentState.identityPosition = nextPosition
        append(model, for: key)
    }

    /// Makes `model` the object for the row `key`, which the map does not hold, at `nextPosition`, which the caller
    /// has already stored in the model's state (`identityPosition`) along with its other fields: a fetch's new model
    /// is registered in one access to its state.
    func append(_ model: some PersistentModel, for key: Int64) {
        if firstFree < 0 && !isIndexed {
            // The common case of a fetch's new rows: no free entry to take, no hash table to keep up to date.
            count += 1
            entries.append(Entry(key: key, model: model))
            return
        }
        // A map left mostly free by models that are gone gives its memory back when it is used again.
        let compacts = firstFree >= 0 && entries.count > 1_024 && count * 16 < entries.count
        if compacts { compact() }
        if isIndexed {
            if (count + 1) * 4 > slots.count * 3 {
                rehash(capacity: slots.count * 2)
            } else if slots.count > 1_024 && count * 16 < slots.count {
                rehash(capacity: Self.capacity(for: count))
            }
        }
        count += 1
        let position: Int
        if firstFree >= 0 {
            position = Int(firstFree)
            if case .free(let next) = entries[position] { firstFree = next }
            entries[position] = Entry(key: key, model: model)
        } else {
            position = entries.count
            entries.append(Entry(key: key, model: model))
        }
        if isIndexed { insertSlot(key: key, entry: position) }
        // Compacting moved the position the caller gave the model.
        if compacts { model._$persistentState.identityPosition = Int32(position) }
    }

    /// Forgets `model` (at its state's `identityPosition`), if the map holds it.
    func forget(_ model: any PersistentModel) {
        let position = Int(model._$persistentState.identityPosition)
        guard position >= 0, position < entries.count, entries[position].registration?.model === model else {
            return
        }
        model._$persistentState.identityPosition = -1
        remove(at: position)
    }

    /// Takes `model` out of the map, if the map holds it at `position` (its state's `identityPosition`, which the
    /// caller has cleared).
    func remove(_ model: any PersistentModel, at position: Int) {
        guard position >= 0, position < entries.count, entries[position].registration?.model === model else {
            return
        }
        remove(at: position)
    }

    /// Forgets the model at `position` whose key is `key` as the model goes away (from its state's `deinit`, when
    /// the model can no longer be compared: each key is in the map once, so the key identifies the entry).
    func forgetGone(at position: Int, key: Int64) {
        guard position < entries.count, case .registered(let registration) = entries[position], registration.key == key
        else { return }
        remove(at: position, key: key)
    }

    /// Frees the entry at `position`, which holds a model; the map that is left empty starts again, keeping its
    /// memory for the next models.
    private func remove(at position: Int) {
        if let key = entries[position].registration?.key { remove(at: position, key: key) }
    }

    /// `remove(at:)` for the entry at `position`, which holds the model of the row `key`.
    private func remove(at position: Int, key: Int64) {
        if isIndexed, let slot = slot(of: key) { removeSlot(at: slot) }
        count -= 1
        if count == 0 {
            entries.removeAll(keepingCapacity: true)
            firstFree = -1
            return
        }
        entries[position] = .free(next: firstFree)
        firstFree = Int32(position)
    }

    /// Moves the models to the front of a new array, telling each its new position, and rebuilds the hash table.
    private func compact() {
        var kept = ContiguousArray<Entry>()
        kept.reserveCapacity(count * 2)
        for entry in entries {
            guard let registration = entry.registration else { continue }
            registration.model._$persistentState.identityPosition = Int32(kept.count)
            kept.append(entry)
        }
        entries = kept
        firstFree = -1
        if isIndexed { rehash(capacity: Self.capacity(for: count)) }
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
        for (position, entry) in entries.enumerated() {
            if let key = entry.registration?.key { insertSlot(key: key, entry: position) }
        }
    }
}
