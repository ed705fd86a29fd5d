import Foundation

/// A string ordered as Apple's Foundation orders strings for the `.localizedStandard` comparator (Finder's
/// order: case-insensitive, numbers by value, in the current locale) or for `.localized`. Sort descriptors of
/// models built with those comparators sort by this value, so that `sorted(using:)` and the store order alike.
package struct LocalizedString: Comparable, Sendable {
    /// The string ordered.
    package let string: String
    /// `.localizedStandard` rather than `.localized`.
    package let isStandard: Bool

    /// The order of two strings: `localizedStandardCompare` or `localizedCompare`, which Foundation on Linux
    /// implements with ICU. The store's collations call this too.
    package static func compare(_ lhs: String, _ rhs: String, standard: Bool) -> ComparisonResult {
        standard ? lhs.localizedStandardCompare(rhs) : lhs.localizedCompare(rhs)
    }

    package static func < (lhs: LocalizedString, rhs: LocalizedString) -> Bool {
        compare(lhs.string, rhs.string, standard: lhs.isStandard) == .orderedAscending
    }

    package static func == (lhs: LocalizedString, rhs: LocalizedString) -> Bool {
        compare(lhs.string, rhs.string, standard: lhs.isStandard) == .orderedSame
    }
}

extension String {
    /// The value a `.localizedStandard` sort descriptor compares.
    package var localizedStandardSortKey: LocalizedString { LocalizedString(string: self, isStandard: true) }
    /// The value a `.localized` sort descriptor compares.
    package var localizedSortKey: LocalizedString { LocalizedString(string: self, isStandard: false) }
}

extension Optional where Wrapped == String {
    /// The value a `.localizedStandard` sort descriptor compares; `nil` sorts first.
    package var localizedStandardSortKey: LocalizedString? { self?.localizedStandardSortKey }
    /// The value a `.localized` sort descriptor compares; `nil` sorts first.
    package var localizedSortKey: LocalizedString? { self?.localizedSortKey }
}
