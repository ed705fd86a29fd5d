/// A model's bookkeeping, one object per `@Model` object (internal plumbing; not API): which context manages
/// it, its key in the store, its lifecycle state and which persisted properties changed since the last save.
/// It is a class so that code reaching it through `any PersistentModel` reads and changes it in place: as a
/// struct, every read copied it, retaining and releasing its references, a third of a large save's time.
///
/// Its fields skip Swift's run-time exclusivity checks: the framework changes them one statement at a time, on the
/// context's thread.
public final class _PersistentState {
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

    /// The managing context. Not retained: a context holds its models, and clears this when it goes away, so a
    /// model never points to a freed context.
    @exclusivity(unchecked) @usableFromInline package unowned(unsafe) var context: ModelContext? = nil
    @exclusivity(unchecked) @usableFromInline package var status = Status.unmanaged
    /// Whether the model is in its context's list of changed models.
    @exclusivity(unchecked) package var isInChangedList = false
    /// The primary key while registered; the temporary number while inserted.
    @exclusivity(unchecked) package var key: Int64 = 0
    /// The entity and store of a registered model.
    @exclusivity(unchecked) package var binding: EntityBinding?
    /// The persisted properties changed since the last save.
    @exclusivity(unchecked) @usableFromInline package var changes = PropertyMask()
    /// References to the values of externally stored attributes not read yet, by property index.
    @exclusivity(unchecked) package var externalReferences: [Int: String]?

    public init() {}

    /// Makes this the state of a saved model registered in `context` for the row `key`, forgetting the rest.
    package func register(in context: ModelContext, key: Int64, binding: EntityBinding) {
        self.context = context
        status = .registered
        isInChangedList = false
        self.key = key
        self.binding = binding
        changes = PropertyMask()
        externalReferences = nil
    }
}

/// A set of property indexes, inline for the first 64.
@usableFromInline
package struct PropertyMask: Equatable, Sendable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [UInt64] = []

    package init() {}

    @inlinable
    package var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    @inlinable
    package func contains(_ index: Int) -> Bool {
        if index < 64 { return low & (1 << UInt64(index)) != 0 }
        let word = index / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(index % 64)) != 0
    }

    @inlinable
    package mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 << UInt64(index)
            return
        }
        let word = index / 64 - 1
        if word >= high.count { high += Array(repeating: 0, count: word - high.count + 1) }
        high[word] |= 1 << UInt64(index % 64)
    }

    package mutating func remove(_ index: Int) {
        if index < 64 {
            low &= ~(1 << UInt64(index))
            return
        }
        let word = index / 64 - 1
        if word < high.count { high[word] &= ~(1 << UInt64(index % 64)) }
    }

    package mutating func removeAll() {
        low = 0
        high = []
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
