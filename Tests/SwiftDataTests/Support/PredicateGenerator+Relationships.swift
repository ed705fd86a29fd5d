import Foundation
import SwiftData

/// Conditions through `Row`'s relationships: optional chaining through `parent` (with `nil` on the way), tests of
/// `children` (often empty) and of the many-to-many `peers` and `peerOf`, counts, identifiers, and conditions in
/// closures that also read the enclosing rows.
extension PredicateGenerator {
    /// A node whose closure takes a row.
    enum RowClosure {
        case parent, contains, allSatisfy, filterCount
    }

    mutating func relationshipCondition() -> PredicateNode<Bool> {
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1: return closureCondition(.parent)
        case 2, 3: return closureCondition(.contains)
        case 4: return closureCondition(.allSatisfy)
        case 5: return closureCondition(.filterCount)
        case 6:
            let parent = keyPath(\.parent)
            let isNil = PredicateExpressions.NilLiteral<Row>()
            return random.chance(0.5) ? Build.equal(parent, isNil) : Build.notEqual(parent, isNil)
        case 7: return grandparentCondition()
        case 8:
            let members = toMany()
            let count = Build.member(members, \[Row].count)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return Build.member(members, \[Row].isEmpty)
            case 1: return Build.equal(Build.member(members, \[Row].isEmpty), value(false))
            default: return comparison(count, value(Int.random(in: 0...3, using: &random)))
            }
        case 9 where !identifiers.isEmpty: return identifierCondition()
        case 10 where !outerRows.isEmpty: return outerRowCondition()
        default: return closureCondition(random.pick([.parent, .contains, .allSatisfy]))
        }
    }

    /// `$0.children`, `$0.peers` or `$0.peerOf`.
    private mutating func toMany() -> PredicateNode<[Row]> {
        keyPath(random.pick([\Row.children, \Row.peers, \Row.peerOf]))
    }

    /// `$0.parent?.parent?.string == s` or `$0.parent?.parent?.optionalInt == n`: `nil` when either is missing.
    private mutating func grandparentCondition() -> PredicateNode<Bool> {
        let grandparent = PredicateExpressions.OptionalFlatMap(
            PredicateExpressions.KeyPath(root: row!, keyPath: \Row.parent)
        ) {
            (parent: PredicateExpressions.Variable<Row>)
                -> PredicateExpressions.KeyPath<PredicateExpressions.Variable<Row>, Row?> in
            PredicateExpressions.KeyPath(root: parent, keyPath: \Row.parent)
        }
        if random.chance(0.5) {
            let string = Build.flatMap(grandparent) { PredicateExpressions.KeyPath(root: $0, keyPath: \Row.string) }
            return Build.equal(string, value(random.maybe(DifferentialValues.strings)))
        }
        let number = PredicateExpressions.OptionalFlatMap(grandparent) {
            (row: PredicateExpressions.Variable<Row>)
                -> PredicateExpressions.KeyPath<PredicateExpressions.Variable<Row>, Int?> in
            PredicateExpressions.KeyPath(root: row, keyPath: \Row.optionalInt)
        }
        return Build.notEqual(number, value(random.maybe(DifferentialValues.ints)))
    }

    /// Identifiers compared: the row's, its parent's, or the row's among captured ones.
    private mutating func identifierCondition() -> PredicateNode<Bool> {
        let identifier = random.pick(identifiers)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return Build.equal(keyPath(\.persistentModelID), value(identifier))
        case 1:
            let parent = Build.flatMap(keyPath(\.parent)) {
                PredicateExpressions.KeyPath(root: $0, keyPath: \Row.persistentModelID)
            }
            return Build.notEqual(parent, value(random.chance(0.2) ? nil : Optional(identifier)))
        default:
            let list = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.pick(identifiers) }
            return Build.sequenceContains(value(list), keyPath(\.persistentModelID))
        }
    }

    /// In a closure: the row compared with an enclosing one, by value or as a model.
    private mutating func outerRowCondition() -> PredicateNode<Bool> {
        let outer = random.pick(outerRows)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return comparison(keyPath(\.int), PredicateExpressions.KeyPath(root: outer, keyPath: \Row.int))
        case 1: return comparison(keyPath(\.string), PredicateExpressions.KeyPath(root: outer, keyPath: \Row.string))
        case 2: return Build.equal(row!, outer)
        default:
            let isOuter = PredicateExpressions.OptionalFlatMap(
                PredicateExpressions.KeyPath(root: row!, keyPath: \Row.parent)
            ) {
                PredicateExpressions.Equal(lhs: $0, rhs: outer)
            }
            return Build.equal(isOuter, value(Optional(true)))
        }
    }

    /// A closure node whose body is a random condition. `#Predicate` gives a closure's body a static type; a
    /// random body has one only once built, so it is built twice from the same random state: first over a
    /// stand-in row to learn its type, then over the node's own parameter.
    private mutating func closureCondition(_ kind: RowClosure) -> PredicateNode<Bool> {
        let choices = ClosureChoices(
            members: random.pick([\Row.children, \Row.peers, \Row.peerOf]),
            variant: Int.random(in: 0..<3, using: &random),
            count: Int.random(in: 0...2, using: &random), fallback: random.chance(0.5))
        let start = self
        let template = body(over: PredicateExpressions.Variable<Row>())
        self = start
        return closureNode(kind, choices, template)
    }

    /// The random choices of a closure node besides its body, made before the body is built.
    struct ClosureChoices {
        var members: KeyPath<Row, [Row]> & Sendable
        var variant: Int
        var count: Int
        var fallback: Bool
    }

    /// The body of a closure over `parameter`: a small condition, with the current row as an enclosing one.
    private mutating func body(over parameter: PredicateExpressions.Variable<Row>) -> PredicateNode<Bool> {
        let enclosing = row
        outerRows.append(enclosing!)
        row = parameter
        defer {
            row = enclosing
            outerRows.removeLast()
        }
        return condition(depth: 1)
    }

    private mutating func closureNode<Body: StandardPredicateExpression<Bool>>(
        _ kind: RowClosure, _ choices: ClosureChoices, _ template: Body
    ) -> PredicateNode<Bool> {
        var generator = self
        defer { self = generator }
        func body(_ parameter: PredicateExpressions.Variable<Row>) -> Body {
            // The same random state builds the same tree, so of the same type.
            generator.body(over: parameter) as! Body
        }
        let members = PredicateExpressions.KeyPath(root: row!, keyPath: choices.members)
        switch kind {
        case .parent:
            let test = PredicateExpressions.OptionalFlatMap(
                PredicateExpressions.KeyPath(root: row!, keyPath: \Row.parent), body)
            switch choices.variant {
            case 0: return Build.equal(test, value(Optional(true)))
            case 1: return Build.notEqual(test, value(Optional(false)))
            default: return Build.coalesce(test, value(choices.fallback))
            }
        case .contains:
            return PredicateExpressions.SequenceContainsWhere(members, builder: body)
        case .allSatisfy:
            return PredicateExpressions.SequenceAllSatisfy(members, builder: body)
        case .filterCount:
            let count = PredicateExpressions.KeyPath(
                root: PredicateExpressions.Filter(members, body), keyPath: \[Row].count)
            return Build.equal(count, value(choices.count))
        }
    }
}
