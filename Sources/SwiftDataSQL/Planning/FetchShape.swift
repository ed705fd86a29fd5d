import Foundation
import SwiftDataCore

/// What decides how a store runs a fetch request, as a cache key for its plan: the model type, the predicate's shape
/// (see `PredicateShape`), the sort descriptors' key paths, orders and string comparators, the properties read
/// (its subentities' too, and whether their rows are selected), and whether the request has a limit, an offset or a
/// list of keys (their values are bound when it runs). A
/// store's schema never changes while it is open (a migration runs before, through a store of its own), so a
/// store's plans stay valid as long as it lives. `nil` for a request whose predicate has no shape.
///
/// `@unchecked Sendable`: its parts are immutable values (type identifiers, key paths, numbers and bytes).
package struct FetchShape: Hashable, @unchecked Sendable {
    private let model: ObjectIdentifier
    private var predicate: PredicateShape?
    private let sort: [SortShape]
    private var properties: [Int]
    private var hasLimit: Bool
    private var hasOffset: Bool
    private var hasKeys: Bool
    /// The entity, whether its subentities' rows are selected, and which of their properties are read.
    private let entity: ObjectIdentifier
    private var includesSubentities: Bool
    private var subentityProperties: [SubentityShape]
    /// Whether this is a request's `translation` shape rather than its own.
    private var isTranslation = false
    /// The hash of the fields above, computed once: a cache looks a shape up and may then insert it.
    private var hash = 0

    package init?<T: PersistentModel>(_ request: FetchRequest<T>) {
        if let predicate = request.predicate {
            guard let shape = PredicateShape(predicate) else { return nil }
            self.predicate = shape
        } else {
            self.predicate = nil
        }
        model = ObjectIdentifier(T.self)
        var sort: [SortShape] = []
        sort.reserveCapacity(request.sortBy.count)
        for descriptor in request.sortBy { sort.append(SortShape(descriptor)) }
        self.sort = sort
        properties = request.properties
        hasLimit = request.fetchLimit != nil
        hasOffset = request.fetchOffset != nil
        hasKeys = request.keys != nil
        entity = ObjectIdentifier(request.entity)
        includesSubentities = request.includesSubentities
        var subentities: [SubentityShape] = []
        for level in request.subentityProperties {
            subentities.append(SubentityShape(entity: ObjectIdentifier(level.entity), properties: level.properties))
        }
        subentityProperties = subentities
        hash = wholeHash()
    }

    /// The hash of the whole shape; the translation's hash is computed when it is asked for, on a miss.
    private func wholeHash() -> Int {
        var hasher = Hasher()
        combineTranslation(into: &hasher)
        // The number of properties read tells most shapes apart (requests of one model read all of them, or the few
        // their `propertiesToFetch` name); `==` compares the properties themselves.
        hasher.combine(properties.count)
        hasher.combine(hasLimit)
        hasher.combine(hasOffset)
        hasher.combine(hasKeys)
        hasher.combine(includesSubentities)
        hasher.combine(subentityProperties)
        return hasher.finalize()
    }

    /// The shape of the requests that differ from this one only in the values of its predicate's slots (see
    /// `PredicateShape`), with those values as SQL binds them; `nil` when it has none.
    package var generic: (shape: FetchShape, values: [StoreValue])? {
        guard let predicate = predicate?.generic, let values = self.predicate?.slotValues else { return nil }
        var shape = self
        shape.predicate = predicate
        shape.hash = shape.wholeHash()
        return (shape, values)
    }

    /// Adds the fields that decide the translation (see `translation`).
    private func combineTranslation(into hasher: inout Hasher) {
        hasher.combine(model)
        hasher.combine(entity)
        hasher.combine(predicate)
        hasher.combine(sort)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// What decides a store's translation of the request (its model, entity, predicate and sort), as a key of its
    /// own: requests that differ only in the properties they read, their window or their keys (a fetch, its
    /// `fetchCount`, its pages, its batches) share one translation, around which each gets its own SQL.
    package var translation: FetchShape {
        var shape = self
        shape.properties = []
        shape.hasLimit = false
        shape.hasOffset = false
        shape.hasKeys = false
        shape.includesSubentities = false
        shape.subentityProperties = []
        shape.isTranslation = true
        var hasher = Hasher()
        combineTranslation(into: &hasher)
        shape.hash = hasher.finalize()
        return shape
    }

    /// A subentity whose own properties a fetch of its superentity reads.
    private struct SubentityShape: Hashable {
        let entity: ObjectIdentifier
        let properties: [Int]
    }

    /// What a sort descriptor's SQL depends on.
    private struct SortShape: Hashable {
        let keyPath: AnyKeyPath?
        let reverse: Bool
        let comparator: String.StandardComparator?

        // Inlined: in unspecialized generic code each call of its own looks up the metadata of `SortDescriptor<T>`.
        @inline(__always)
        init<T>(_ descriptor: SortDescriptor<T>) {
            let keyPath: AnyKeyPath? = descriptor.keyPath
            self.keyPath = keyPath
            reverse = descriptor.order == .reverse
            // Only a sort of a `String` or `String?` has a string comparator; for others its getter, which copies
            // the descriptor's comparison, is skipped.
            if let keyPath {
                let value = type(of: keyPath).valueType
                comparator = value == String.self || value == String?.self ? descriptor.stringComparator : nil
            } else {
                comparator = descriptor.stringComparator
            }
        }

        /// Hashes the key path's type rather than the key path, whose hash walks its components: equal key paths
        /// have equal types, and `==` still tells key paths of one type apart.
        func hash(into hasher: inout Hasher) {
            hasher.combine(keyPath.map { ObjectIdentifier(type(of: $0)) })
            hasher.combine(reverse)
            hasher.combine(comparator != nil)
        }
    }
}
