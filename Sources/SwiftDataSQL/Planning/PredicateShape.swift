import Foundation
import SwiftDataCore

/// A predicate as a cache key: the type of its expression tree (which names every node and operand type), the
/// key paths, operators and other fields of its nodes, its variables by order of appearance (each `#Predicate`
/// gets new variable identifiers), and its constants by exact value (see `ConstantFingerprint`). Two predicates
/// with equal shapes translate to the same SQL. `nil` when a node holds something without an exact fingerprint.
struct PredicateShape: Hashable {
    private var parts: [AnyHashable] = []

    init?<T>(_ predicate: Predicate<T>) {
        var walk = Walk()
        walk.variable(predicate.variable.key)
        guard walk.node(predicate.expression) else { return nil }
        parts = walk.parts
    }

    /// The walk of an expression tree, through `Mirror`: every node's stored fields, in order.
    private struct Walk {
        var parts: [AnyHashable] = []
        var variables: [PredicateExpressions.VariableID: Int] = [:]

        /// A variable, numbered by first appearance.
        mutating func variable(_ id: PredicateExpressions.VariableID) {
            let number = variables[id] ?? variables.count
            variables[id] = number
            parts.append(VariableNumber(number: number))
        }

        /// Adds a node and its fields; `false` when one has no exact fingerprint.
        mutating func node(_ node: Any) -> Bool {
            parts.append(ObjectIdentifier(type(of: node)))
            if let constant = node as? any ShapedConstant {
                guard let fingerprint = ConstantFingerprint.of(constant.shapedValue) else { return false }
                parts.append(fingerprint)
                return true
            }
            for child in Mirror(reflecting: node).children {
                let field = child.value
                if let id = field as? PredicateExpressions.VariableID {
                    variable(id)
                } else if let keyPath = field as? AnyKeyPath {
                    parts.append(keyPath)
                } else if field is any PredicateExpression {
                    guard self.node(field) else { return false }
                } else if let fingerprint = ConstantFingerprint.of(field) {
                    parts.append(fingerprint)  // an operator, or another plain field
                } else {
                    return false
                }
            }
            return true
        }
    }

    private struct VariableNumber: Hashable {
        var number: Int
    }
}

/// A predicate node that holds a constant.
private protocol ShapedConstant {
    var shapedValue: Any { get }
}

extension PredicateExpressions.Value: ShapedConstant {
    fileprivate var shapedValue: Any { value }
}
