import Foundation
import SwiftDataCore

/// A predicate as a cache key: the type of its expression tree (which names every node and operand type), the
/// key paths, operators and other fields of its nodes, its variables by order of appearance (each `#Predicate`
/// gets new variable identifiers), and its constants by exact value (see `ConstantFingerprint`). Two predicates
/// with equal shapes translate to the same SQL. `nil` when a node holds something without an exact fingerprint.
struct PredicateShape: Hashable {
    private var parts: [Part] = []

    init?<T>(_ predicate: Predicate<T>) {
        var walk = PredicateShapeWalk()
        walk.variable(predicate.variable.key)
        guard walk.node(predicate.expression) else { return nil }
        parts = walk.parts
    }

    /// One field of a node, in the order of the walk.
    enum Part: Hashable {
        /// A node's type.
        case node(ObjectIdentifier)
        /// A variable, numbered by first appearance.
        case variable(Int)
        case keyPath(AnyKeyPath)
        /// A constant, or another field that is a plain value (an operator).
        case value(ConstantFingerprint)

        /// Hashes a key path by its type rather than by its components, which is several times cheaper: equal key
        /// paths have equal types, and `==` still tells key paths of one type apart.
        func hash(into hasher: inout Hasher) {
            switch self {
            case .node(let type):
                hasher.combine(0)
                hasher.combine(type)
            case .variable(let number):
                hasher.combine(1)
                hasher.combine(number)
            case .keyPath(let keyPath):
                hasher.combine(2)
                hasher.combine(ObjectIdentifier(Swift.type(of: keyPath)))
            case .value(let fingerprint):
                hasher.combine(3)
                hasher.combine(fingerprint)
            }
        }
    }
}

/// The walk of an expression tree: the common nodes by their fields, any other through `Mirror` (every stored
/// field, in order).
struct PredicateShapeWalk {
    var parts: [PredicateShape.Part] = []
    /// The variables seen so far, numbered by their position: a predicate has a handful (its input, and one per
    /// closure such as `contains(where:)`), which an array searches faster than a dictionary hashes them.
    private var variables: [PredicateExpressions.VariableID] = []

    init() {
        parts.reserveCapacity(16)
    }

    /// A variable, numbered by first appearance.
    mutating func variable(_ id: PredicateExpressions.VariableID) {
        let number = variables.firstIndex(of: id) ?? variables.count
        if number == variables.count { variables.append(id) }
        parts.append(.variable(number))
    }

    /// Adds a field that is a plain value; `false` when it has no exact fingerprint.
    mutating func value(_ value: Any) -> Bool {
        guard let fingerprint = ConstantFingerprint.of(value) else { return false }
        parts.append(.value(fingerprint))
        return true
    }

    /// Adds a node and its fields; `false` when one has no exact fingerprint.
    mutating func node(_ node: Any) -> Bool {
        // A node whose whole subtree is of known kinds is walked without a cast per node.
        if let node = node as? any ShapedNode { return shaped(node) }
        parts.append(.node(ObjectIdentifier(type(of: node))))
        for child in Mirror(reflecting: node).children {
            let field = child.value
            if let id = field as? PredicateExpressions.VariableID {
                variable(id)
            } else if let keyPath = field as? AnyKeyPath {
                parts.append(.keyPath(keyPath))
            } else if field is any PredicateExpression {
                guard self.node(field) else { return false }
            } else {
                guard value(field) else { return false }  // an operator, or another plain field
            }
        }
        return true
    }
}

extension PredicateShapeWalk {
    /// Adds a node of a known kind and its fields, as `node` adds them.
    mutating func shaped<Node: ShapedNode>(_ node: Node) -> Bool {
        parts.append(.node(ObjectIdentifier(Node.self)))
        return node.addFields(to: &self)
    }
}

/// A node whose fields the walk knows, so that it need not find them through `Mirror`: the leaves, and the nodes
/// whose operands are such nodes too (the conformances are conditional), so that their operands' types are known
/// statically.
protocol ShapedNode {
    /// Adds the node's fields (every stored property but none twice) to the walk.
    func addFields(to walk: inout PredicateShapeWalk) -> Bool
}

extension PredicateExpressions.Value: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.value(value) }
}

extension PredicateExpressions.Variable: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool {
        walk.variable(key)
        return true
    }
}

extension PredicateExpressions.KeyPath: ShapedNode where Root: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool {
        walk.parts.append(.keyPath(keyPath))
        return walk.shaped(root)
    }
}

extension PredicateExpressions.Equal: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.shaped(lhs) && walk.shaped(rhs) }
}

extension PredicateExpressions.NotEqual: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.shaped(lhs) && walk.shaped(rhs) }
}

extension PredicateExpressions.Comparison: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool {
        walk.parts.append(.value(ConstantFingerprint.comparison(op)))
        return walk.shaped(lhs) && walk.shaped(rhs)
    }
}

extension PredicateExpressions.Conjunction: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.shaped(lhs) && walk.shaped(rhs) }
}

extension PredicateExpressions.Disjunction: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.shaped(lhs) && walk.shaped(rhs) }
}

extension PredicateExpressions.Negation: ShapedNode where Wrapped: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.shaped(wrapped) }
}

extension PredicateExpressions.NilLiteral: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { true }
}
