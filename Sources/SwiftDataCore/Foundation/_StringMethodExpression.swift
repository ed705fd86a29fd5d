import Foundation

#if !canImport(Darwin)
    /// What the string-method nodes this module adds to `PredicateExpressions` share: the string, the argument, a
    /// description and the archived form (plumbing for those nodes; not API).
    public protocol _StringMethodExpression: PredicateExpression, CustomStringConvertible {
        associatedtype Root: PredicateExpression
        associatedtype Other: PredicateExpression
        var root: Root { get }
        var other: Other { get }
        init(root: Root, other: Other)
    }

    extension _StringMethodExpression {
        public var description: String {
            "\(String(describing: Self.self).prefix { $0 != "<" })(root: \(root), other: \(other))"
        }
    }

    extension _StringMethodExpression where Root: Encodable, Other: Encodable {
        /// Archives the node as its string expression and its argument expression, in that order.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(root)
            try container.encode(other)
        }
    }

    extension _StringMethodExpression where Root: Decodable, Other: Decodable {
        /// Reads a node that `encode(to:)` archived.
        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            let root = try container.decode(Root.self)
            self.init(root: root, other: try container.decode(Other.self))
        }
    }
#endif
