import Foundation

#if !canImport(Darwin)
    /// Compares strings as Apple's Foundation does for its `.localizedStandard` comparator (the Finder's order:
    /// case-insensitive, numbers by value, in the current locale) or its `.localized` one, with ICU's
    /// `localizedStandardCompare` and `localizedCompare`.
    ///
    /// Foundation on Linux has neither comparator, and can make no `String.StandardComparator` but `.lexical`.
    /// So where code written for Apple's platforms writes `.localizedStandard` or `.localized` for a sort
    /// descriptor's `comparator:`, or where a `SortComparator` is expected (`KeyPathComparator`, `sorted(using:)`),
    /// it gets this comparator, and orders as Apple's does. A model sort descriptor built with it sorts in SQL,
    /// in the same order (see `SortDescriptor.init(_:comparator:order:)`). An addition to Apple's API.
    public struct LocalizedStringComparator: SortComparator, Hashable, Codable, Sendable {
        public typealias Compared = String

        /// The order: `.forward` puts smaller strings first.
        public var order: SortOrder
        /// `.localizedStandard` rather than `.localized`.
        package let isStandard: Bool

        package init(isStandard: Bool, order: SortOrder = .forward) {
            self.isStandard = isStandard
            self.order = order
        }

        /// The order of two strings: `localizedStandardCompare` or `localizedCompare`, reversed for `.reverse`.
        public func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
            let result = LocalizedString.compare(lhs, rhs, standard: isStandard)
            guard order == .reverse else { return result }
            switch result {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        }
    }

    extension SortComparator where Self == LocalizedStringComparator {
        /// Compares strings as the Finder does: case-insensitively, numbers by value, in the current locale.
        public static var localizedStandard: LocalizedStringComparator { LocalizedStringComparator(isStandard: true) }

        /// Compares strings in the current locale.
        public static var localized: LocalizedStringComparator { LocalizedStringComparator(isStandard: false) }
    }

    extension String.StandardComparator {
        /// Apple's Foundation's Finder-order comparator. Foundation on Linux can make no `String.StandardComparator`
        /// but `.lexical` (it lacks the localized ones and refuses to decode them), so this value *is* `.lexical`,
        /// and code that stores it in a `String.StandardComparator` and sorts with it later sorts lexically.
        /// Written where a sort descriptor's `comparator:` or a `SortComparator` is expected,
        /// `.localizedStandard` is `LocalizedStringComparator.localizedStandard` instead, which orders as Apple's.
        @_disfavoredOverload
        public static var localizedStandard: String.StandardComparator { .lexical }

        /// Apple's Foundation's localized comparator; on Linux this value is `.lexical`, as `localizedStandard`
        /// explains. Written for a sort descriptor's `comparator:`, `.localized` is
        /// `LocalizedStringComparator.localized`.
        @_disfavoredOverload
        public static var localized: String.StandardComparator { .lexical }
    }
#endif
