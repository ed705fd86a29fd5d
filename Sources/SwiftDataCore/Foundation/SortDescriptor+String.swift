import Foundation

#if !canImport(Darwin)
    extension SortDescriptor {
        /// Sorts by a `String` with `.localizedStandard` or `.localized` (see `LocalizedStringComparator`), as Apple's
        /// Foundation does. The descriptor compares a value derived from the string (`SortKey`), so that
        /// `sorted(using:)` and a store (in SQL) order alike; its `stringComparator` is `nil`.
        public init(_ keyPath: any KeyPath<Compared, String> & Sendable, comparator: LocalizedStringComparator) {
            self.init(keyPath, comparator: comparator, order: comparator.order)
        }

        /// Sorts by a `String` with `.localizedStandard` or `.localized`, in the given order.
        public init(
            _ keyPath: any KeyPath<Compared, String> & Sendable, comparator: LocalizedStringComparator,
            order: SortOrder
        ) {
            if comparator.isStandard {
                self.init(SortKey.sendable(keyPath, \String.localizedStandardSortKey), order: order)
            } else {
                self.init(SortKey.sendable(keyPath, \String.localizedSortKey), order: order)
            }
        }

        /// Sorts by an optional `String` with `.localizedStandard` or `.localized`, `nil` first.
        public init(_ keyPath: any KeyPath<Compared, String?> & Sendable, comparator: LocalizedStringComparator) {
            self.init(keyPath, comparator: comparator, order: comparator.order)
        }

        /// Sorts by an optional `String` with `.localizedStandard` or `.localized`, in the given order.
        public init(
            _ keyPath: any KeyPath<Compared, String?> & Sendable, comparator: LocalizedStringComparator,
            order: SortOrder
        ) {
            if comparator.isStandard {
                self.init(SortKey.sendable(keyPath, \String?.localizedStandardSortKey), order: order)
            } else {
                self.init(SortKey.sendable(keyPath, \String?.localizedSortKey), order: order)
            }
        }
    }
#endif
