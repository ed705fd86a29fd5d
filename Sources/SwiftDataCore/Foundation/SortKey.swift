import Foundation

/// How the sort descriptors this module builds for models order an attribute: by a value derived from it,
/// through a key path appended to the attribute's. A store recognizes these key paths to sort in SQL.
package enum SortKey: CaseIterable, Sendable {
    /// `Bool` attributes: `false` before `true` (see `SortDescriptor.init(_:order:)` for `Bool`s).
    case bool
    /// `String` attributes with the `.localizedStandard` comparator.
    case localizedStandard
    /// `String` attributes with the `.localized` comparator.
    case localized

    /// The sort key path of an attribute's key path, when the attribute has the type this sort key orders.
    package func keyPath(sorting attribute: AnyKeyPath) -> AnyKeyPath? {
        switch self {
        case .bool: attribute.appending(path: \Bool.sortKey) ?? attribute.appending(path: \Bool?.sortKey)
        case .localizedStandard:
            attribute.appending(path: \String.localizedStandardSortKey)
                ?? attribute.appending(path: \String?.localizedStandardSortKey)
        case .localized:
            attribute.appending(path: \String.localizedSortKey) ?? attribute.appending(path: \String?.localizedSortKey)
        }
    }

    /// `keyPath` extended by `suffix`, as the `Sendable` key path `SortDescriptor` takes. Key paths built from
    /// `Sendable` key paths are immutable and safe to share.
    static func sendable<Root, Value, Key>(
        _ keyPath: any KeyPath<Root, Value> & Sendable, _ suffix: KeyPath<Value, Key>
    )
        -> any KeyPath<Root, Key> & Sendable
    {
        unsafeBitCast(keyPath.appending(path: suffix), to: (any KeyPath<Root, Key> & Sendable).self)
    }
}
