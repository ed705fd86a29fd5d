import Foundation
import SwiftDataCore

/// A predicate as a cache key: the type of its expression tree (which names every node and operand type), the
/// key paths, operators and other fields of its nodes, its variables by order of appearance (each `#Predicate`
/// gets new variable identifiers), and its constants by exact value (see `ConstantFingerprint`). Two predicates
/// with equal shapes translate to the same SQL. `nil` when a node holds something without an exact fingerprint.
///
/// Its *slots* are the integers and UUIDs it compares with (a value node that is an operand of `==`, `!=`, `<`, ...
/// whose type is one of those): a fetch by a key the program captured. `generic` leaves their values out, so that
/// requests that differ only in them can share a plan, with each one's values bound (see `SlotPlans`).
struct PredicateShape: Hashable {
    private var parts: [Part] = []
    /// The slots' values, in the order of the walk.
    private var slots: [Any] = []
    /// The position of each slot's part in `parts`.
    private var slotParts: [Int] = []

    init?<T>(_ predicate: Predicate<T>) {
        var walk = PredicateShapeWalk()
        walk.variable(predicate.variable.key)
        guard walk.node(predicate.expression) else { return nil }
        parts = walk.parts
        slots = walk.slots
        slotParts = walk.slotParts
    }

    static func == (a: PredicateShape, b: PredicateShape) -> Bool { a.parts == b.parts }

    func hash(into hasher: inout Hasher) {
        hasher.combine(parts)
    }

    /// The shape with its slots' values left out (their types stay); `nil` when it has no slots.
    var generic: PredicateShape? {
        guard !slotParts.isEmpty else { return nil }
        var shape = PredicateShape(parts: parts)
        for index in slotParts { shape.parts[index] = .slot }
        return shape
    }

    /// The slots' values as SQL binds them, in the order of the walk: as `StoreValue(sqlConstant:)` makes them, without
    /// its encoder, which cost a fetch by a key 2,500 instructions (a type it would bind otherwise could only make the
    /// two requests compared in `SlotPlans` disagree, never bind a wrong value).
    var slotValues: [StoreValue] {
        slots.map { slot in
            switch slot {
            case let value as Int: .int64(Int64(value))
            case let value as Int64: .int64(value)
            case let value as Int32: .int64(Int64(value))
            case let value as UUID: .uuid(value)
            default: .null
            }
        }
    }

    private init(parts: [Part]) {
        self.parts = parts
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
        /// A slot of a generic shape: a constant of the type its node names, whatever its value.
        case slot

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
            case .slot:
                hasher.combine(4)
            }
        }
    }
}

/// The walk of an expression tree: the common nodes by their fields, any other through `Mirror` (every stored
/// field, in order).
struct PredicateShapeWalk {
    var parts: [PredicateShape.Part] = []
    /// The slots found so far (see `PredicateShape`), and their parts' positions.
    var slots: [Any] = []
    var slotParts: [Int] = []
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

    /// Adds the operands of a comparison, as `shaped` adds them; a value node among them may be a slot.
    mutating func compared<LHS: ShapedNode, RHS: ShapedNode>(_ lhs: LHS, _ rhs: RHS) -> Bool {
        parts.append(.node(ObjectIdentifier(LHS.self)))
        guard lhs.addComparedFields(to: &self) else { return false }
        parts.append(.node(ObjectIdentifier(RHS.self)))
        return rhs.addComparedFields(to: &self)
    }

    /// Adds a compared constant, noted as a slot when it is an integer or a UUID, whose SQL is one bound parameter
    /// whatever its value (an exact type: an `Optional` holding one may be `nil`, which SQL compares otherwise).
    mutating func comparedValue(_ value: Any) -> Bool {
        guard self.value(value) else { return false }
        let type = Swift.type(of: value)
        guard type == Int.self || type == Int64.self || type == Int32.self || type == UUID.self else { return true }
        slotParts.append(parts.count - 1)
        slots.append(value)
        return true
    }
}

/// A node whose fields the walk knows, so that it need not find them through `Mirror`: the leaves, and the nodes
/// whose operands are such nodes too (the conformances are conditional), so that their operands' types are known
/// statically.
protocol ShapedNode {
    /// Adds the node's fields (every stored property but none twice) to the walk.
    func addFields(to walk: inout PredicateShapeWalk) -> Bool
    /// Adds the node's fields as an operand of a comparison: as `addFields`, but a value node's constant may be a
    /// slot.
    func addComparedFields(to walk: inout PredicateShapeWalk) -> Bool
}

extension ShapedNode {
    func addComparedFields(to walk: inout PredicateShapeWalk) -> Bool { addFields(to: &walk) }
}

extension PredicateExpressions.Value: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.value(value) }
    func addComparedFields(to walk: inout PredicateShapeWalk) -> Bool { walk.comparedValue(value) }
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
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.compared(lhs, rhs) }
}

extension PredicateExpressions.NotEqual: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool { walk.compared(lhs, rhs) }
}

extension PredicateExpressions.Comparison: ShapedNode where LHS: ShapedNode, RHS: ShapedNode {
    func addFields(to walk: inout PredicateShapeWalk) -> Bool {
        walk.parts.append(.value(ConstantFingerprint.comparison(op)))
        return walk.compared(lhs, rhs)
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
