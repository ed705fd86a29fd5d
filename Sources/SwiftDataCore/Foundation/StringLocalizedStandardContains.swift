// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Foundation's own names are kept verbatim, so the lowerCamelCase rule does not apply here.
import Foundation

#if !canImport(Darwin)
    extension PredicateExpressions {
        /// `root.localizedStandardContains(other)` in a predicate: a case- and diacritic-insensitive substring test in
        /// the current locale. Apple's Foundation has this node; Foundation on Linux lacks it, so `#Predicate` code
        /// written for Apple's platforms compiles here unchanged.
        public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
            _StringMethodExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// What the node evaluates to: the `Bool` of `localizedStandardContains(_:)`.
            public typealias Output = Bool

            /// The string whose method is called.
            public let root: Root
            /// The method's argument.
            public let other: Other

            /// The node for `root.localizedStandardContains(other)`.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// Evaluates both sides and calls the string's `localizedStandardContains(_:)` with the argument.
            public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
                try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
            }
        }

        /// What `#Predicate` generates for `localizedStandardContains(_:)`.
        public static func build_localizedStandardContains<Root, Other>(
            _ root: Root, _ other: Other
        ) -> StringLocalizedStandardContains<Root, Other> {
            StringLocalizedStandardContains(root: root, other: other)
        }
    }

    extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

    extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}

    extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
#endif
