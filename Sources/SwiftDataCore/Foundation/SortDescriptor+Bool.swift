import Foundation

extension SortDescriptor where Compared: PersistentModel {
    /// Sorts models by a `Bool` attribute, `false` first. Not in Apple's API, where `Bool` is not `Comparable` and
    /// `SortDescriptor(\.isDone)` compiles only for `NSObject` subclasses.
    public init(_ keyPath: any KeyPath<Compared, Bool> & Sendable, order: SortOrder = .forward) {
        self.init(SortKey.sendable(keyPath, \Bool.sortKey), order: order)
    }

    /// Sorts models by an optional `Bool` attribute: `nil`, then `false`, then `true`.
    public init(_ keyPath: any KeyPath<Compared, Bool?> & Sendable, order: SortOrder = .forward) {
        self.init(SortKey.sendable(keyPath, \Bool?.sortKey), order: order)
    }
}

extension Bool {
    /// The value a `Bool` sort descriptor compares: 0 for `false`, 1 for `true`.
    package var sortKey: Int { self ? 1 : 0 }
}

extension Optional where Wrapped == Bool {
    /// The sort key of an optional `Bool`: `nil` stays `nil`, so it sorts first.
    package var sortKey: Int? { self?.sortKey }
}
