// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Foundation's own names are kept verbatim, so the lowerCamelCase rule does not apply here.
import Foundation

#if !canImport(Darwin)
    extension PredicateExpressions {
        /// `root.localizedCompare(other)` in a predicate: an ordering in the current locale, compared with a captured
        /// `ComparisonResult`. Apple's Foundation has this node; Foundation on Linux lacks it, so `#Predicate` code
        /// written for Apple's platforms compiles here unchanged.
        public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>:
            _StringMethodExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// What the node evaluates to: the `ComparisonResult` of `localizedCompare(_:)`.
            public typealias Output = ComparisonResult

            /// The string whose method is called.
            public let root: Root
            /// The method's argument.
            public let other: Other

            /// The node for `root.localizedCompare(other)`.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// Evaluates both sides and calls the string's `localizedCompare(_:)` with the argument.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).localizedCompare(try other.evaluate(bindings))
            }
        }

        /// What `#Predicate` generates for `localizedCompare(_:)`.
        public static func build_localizedCompare<Root, Other>(
            _ root: Root, _ other: Other
        ) -> StringLocalizedCompare<Root, Other> {
            StringLocalizedCompare(root: root, other: other)
        }
    }

    extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

    extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}

    extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {}
#endif
