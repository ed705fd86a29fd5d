import Foundation

extension SortDescriptor where Compared: PersistentModel {
    /// Sorts models by a `Bool` attribute, `false` first. Not in Apple's API, where `Bool` is not `Comparable` and
    /// `SortDescriptor(\.isDone)` compiles only for `NSObject` subclasses.
    public init(_ keyPath: KeyPath<Compared, Bool> & Sendable, order: SortOrder = .forward) {
        self.init(Bool.sortKeyPath(keyPath), order: order)
    }

    /// Sorts models by an optional `Bool` attribute: `nil`, then `false`, then `true`.
    public init(_ keyPath: KeyPath<Compared, Bool?> & Sendable, order: SortOrder = .forward) {
        self.init(Bool.sortKeyPath(keyPath), order: order)
    }
}

extension Bool {
    /// The value a `Bool` sort descriptor compares: 0 for `false`, 1 for `true`.
    package var sortKey: Int { self ? 1 : 0 }

    /// `keyPath` extended to the sort key of its `Bool`; a store recognizes it to sort in SQL.
    package static func sortKeyPath<Root>(_ keyPath: KeyPath<Root, Bool>) -> KeyPath<Root, Int> & Sendable {
        unsafeBitCast(keyPath.appending(path: \Bool.sortKey), to: (KeyPath<Root, Int> & Sendable).self)
    }

    /// `keyPath` extended to the sort key of its optional `Bool`.
    package static func sortKeyPath<Root>(_ keyPath: KeyPath<Root, Bool?>) -> KeyPath<Root, Int?> & Sendable {
        unsafeBitCast(keyPath.appending(path: \Bool?.sortKey), to: (KeyPath<Root, Int?> & Sendable).self)
    }

    /// The sort key path of a `Bool` or `Bool?` attribute's key path, as `sortKeyPath` builds it.
    package static func sortKeyPath(forAttribute keyPath: AnyKeyPath) -> AnyKeyPath? {
        keyPath.appending(path: \Bool.sortKey) ?? keyPath.appending(path: \Bool?.sortKey)
    }
}

extension Optional where Wrapped == Bool {
    /// The sort key of an optional `Bool`: `nil` stays `nil`, so it sorts first.
    package var sortKey: Int? { self?.sortKey }
}
