import Foundation

#if !canImport(Darwin)
    extension SortDescriptor where Compared: PersistentModel {
        /// Sorts models by a `String` attribute with a standard comparator. For `.localizedStandard` and `.localized`
        /// the descriptor orders as Apple's does (Foundation on Linux cannot: its comparator ignores the locale and
        /// traps on case-insensitive comparisons of non-ASCII text), by comparing the attribute's `LocalizedString`;
        /// its `stringComparator` is then `nil`. `.lexical` gives Foundation's own descriptor.
        public init(_ keyPath: any KeyPath<Compared, String> & Sendable, comparator: String.StandardComparator) {
            self.init(keyPath, comparator: comparator, order: comparator.order)
        }

        /// Sorts models by a `String` attribute with a standard comparator, in the given order.
        public init(
            _ keyPath: any KeyPath<Compared, String> & Sendable, comparator: String.StandardComparator, order: SortOrder
        ) {
            switch String.StandardComparator(comparator, order: .forward) {
            case .localizedStandard:
                self.init(SortKey.sendable(keyPath, \String.localizedStandardSortKey), order: order)
            case .localized: self.init(SortKey.sendable(keyPath, \String.localizedSortKey), order: order)
            default: self = .foundation(keyPath, comparator: comparator, order: order)
            }
        }

        /// Sorts models by an optional `String` attribute with a standard comparator, `nil` first.
        public init(_ keyPath: any KeyPath<Compared, String?> & Sendable, comparator: String.StandardComparator) {
            self.init(keyPath, comparator: comparator, order: comparator.order)
        }

        /// Sorts models by an optional `String` attribute with a standard comparator, in the given order.
        public init(
            _ keyPath: any KeyPath<Compared, String?> & Sendable, comparator: String.StandardComparator,
            order: SortOrder
        ) {
            switch String.StandardComparator(comparator, order: .forward) {
            case .localizedStandard:
                self.init(SortKey.sendable(keyPath, \String?.localizedStandardSortKey), order: order)
            case .localized: self.init(SortKey.sendable(keyPath, \String?.localizedSortKey), order: order)
            default: self = .foundation(keyPath, comparator: comparator, order: order)
            }
        }
    }

    extension SortDescriptor {
        /// Foundation's own descriptor (in a context where the model initializers above do not apply).
        fileprivate static func foundation(
            _ keyPath: any KeyPath<Compared, String> & Sendable, comparator: String.StandardComparator, order: SortOrder
        ) -> SortDescriptor {
            SortDescriptor(keyPath, comparator: comparator, order: order)
        }

        /// Foundation's own descriptor for an optional `String`.
        fileprivate static func foundation(
            _ keyPath: any KeyPath<Compared, String?> & Sendable, comparator: String.StandardComparator,
            order: SortOrder
        ) -> SortDescriptor {
            SortDescriptor(keyPath, comparator: comparator, order: order)
        }
    }
#endif
