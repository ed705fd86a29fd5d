/// The registered models of one model type in one context, by primary key: one object per row. It does not keep
/// them alive: a model that nobody holds any more goes away and leaves the map (its `_PersistentState` tells the
/// map as it is released), so a context's memory follows what the program uses. Models with unsaved changes are
/// kept alive by the context's pending lists (`ModelRegistry`), not by this map.
///
/// An open-addressing hash table (linear probing, Fibonacci hashing of the key, deletion by backward shift): primary
/// keys are positive integers, mostly consecutive, which this spreads evenly at a fraction of the cost of hashing
/// them with `Hasher`, on the path of every fetched and every freed model.
final class IdentityMap {
    private struct Slot {
        /// The row's key; `IdentityMap.empty` for a free slot.
        var key: Int64
        /// The identity of the model's bookkeeping object, which tells an entry from a newer one for the same key.
        var state: ObjectIdentifier
        /// Safe `unowned`: an entry leaves the map when its model's state goes away, before the model's memory is
        /// freed; reading a model that was deinitialized would stop the program, never read freed memory. (Not an
        /// optional: Swift 6.3 miscompiles iteration over arrays of structs holding an optional `unowned`
        /// reference in debug builds; a free slot holds `vacant`.)
        unowned var model: AnyObject

        static var free: Slot {
            Slot(key: IdentityMap.empty, state: ObjectIdentifier(IdentityMap.vacant), model: IdentityMap.vacant)
        }
    }

    /// What a free slot refers to.
    private final class Vacant: Sendable {}
    private static let vacant = Vacant()

    /// The key of a free slot: primary keys are never negative.
    private static let empty = Int64.min
    private static let minimumCapacity = 16

    /// The slots; their count is zero or a power of two. Accesses skip Swift's run-time exclusivity checks: each
    /// is a short operation on the context's thread, and none can re-enter another (slots hold no strong
    /// references, so changing one never releases a model).
    @exclusivity(unchecked) private var slots: [Slot] = []
    /// `64 - log2(slots.count)`: the shift that turns a hash into a slot index.
    @exclusivity(unchecked) private var shift: UInt64 = 64
    /// The number of models in the map.
    @exclusivity(unchecked) private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, if any.
    @inline(__always)
    private func slot(of key: Int64) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var index = home(of: key)
        while true {
            let found = slots[index].key
            if found == key { return index }
            if found == Self.empty { return nil }
            index = (index + 1) & mask
        }
    }

    /// The registered model for the row `key`.
    @inline(__always)
    func model(_ key: Int64) -> AnyObject? {
        slot(of: key).map { slots[$0].model }
    }

    func contains(_ key: Int64) -> Bool { slot(of: key) != nil }

    /// The keys of the registered models.
    var keys: [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        for slot in slots where slot.key != Self.empty { keys.append(slot.key) }
        return keys
    }

    /// Every model in the map, held strongly while the caller uses them.
    func models() -> [AnyObject] {
        var models: [AnyObject] = []
        models.reserveCapacity(count)
        for index in slots.indices where slots[index].key != Self.empty {
            models.append(slots[index].model)
        }
        return models
    }

    /// Makes `model` (whose state is `state`) the object for the row `key`.
    func set(_ model: AnyObject, state: _PersistentState, for key: Int64) {
        if (count + 1) * 4 > slots.count * 3 { resize(to: max(Self.minimumCapacity, slots.count * 2)) }
        let mask = slots.count - 1
        var index = home(of: key)
        while slots[index].key != Self.empty && slots[index].key != key { index = (index + 1) & mask }
        if slots[index].key == Self.empty { count += 1 }
        slots[index] = Slot(key: key, state: ObjectIdentifier(state), model: model)
    }

    /// Forgets the model of the row `key`, if its state is `state`.
    func forget(_ key: Int64, state: ObjectIdentifier) {
        guard let index = slot(of: key), slots[index].state == state else { return }
        remove(at: index)
        // A map that held many models that are gone gives its memory back.
        if slots.count > 1_024 && count * 8 < slots.count { resize(to: slots.count / 4) }
    }

    /// Empties slot `index`, moving later entries of its probe sequence back so that lookups still find them.
    private func remove(at index: Int) {
        let mask = slots.count - 1
        var hole = index
        var next = (index + 1) & mask
        while slots[next].key != Self.empty {
            let home = home(of: slots[next].key)
            // The entry may move into the hole if its home is not in the cyclic range (hole, next].
            let distanceToHole = (hole - home) & mask
            let distanceToNext = (next - home) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .free
        count -= 1
    }

    private func resize(to capacity: Int) {
        let old = slots
        slots = Array(repeating: .free, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        let mask = capacity - 1
        for slot in old where slot.key != Self.empty {
            var index = home(of: slot.key)
            while slots[index].key != Self.empty { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
