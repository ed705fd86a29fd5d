// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Foundation's own names are kept verbatim, so the lowerCamelCase rule does not apply here.
import Foundation

#if !canImport(Darwin)
    extension PredicateExpressions {
        /// `root.caseInsensitiveCompare(other)` in a predicate, compared with a captured `ComparisonResult`. Apple's
        /// Foundation has this node; Foundation on Linux lacks it, so `#Predicate` code written for Apple's platforms
        /// compiles here unchanged.
        public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>:
            _StringMethodExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// What the node evaluates to: the `ComparisonResult` of `caseInsensitiveCompare(_:)`.
            public typealias Output = ComparisonResult

            /// The string whose method is called.
            public let root: Root
            /// The method's argument.
            public let other: Other

            /// The node for `root.caseInsensitiveCompare(other)`.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// Evaluates both sides and calls the string's `caseInsensitiveCompare(_:)` with the argument.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).caseInsensitiveCompare(try other.evaluate(bindings))
            }
        }

        /// What `#Predicate` generates for `caseInsensitiveCompare(_:)`.
        public static func build_caseInsensitiveCompare<Root, Other>(
            _ root: Root, _ other: Other
        ) -> StringCaseInsensitiveCompare<Root, Other> {
            StringCaseInsensitiveCompare(root: root, other: other)
        }
    }

    extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

    extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}

    extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}
#endif
