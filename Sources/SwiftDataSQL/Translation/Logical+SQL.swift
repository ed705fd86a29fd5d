import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// `lhs && rhs`. When either side can fail, `CASE` keeps Swift's order: `rhs` only where `lhs` holds.
    static func and(_ lhs: SQLExpression, _ rhs: SQLExpression, canFail: Bool) -> SQLExpression {
        canFail ? .when(lhs, then: rhs, else: .false) : .and(lhs, rhs)
    }

    /// `lhs || rhs`. When either side can fail, `CASE` keeps Swift's order: `rhs` only where `lhs` fails.
    static func or(_ lhs: SQLExpression, _ rhs: SQLExpression, canFail: Bool) -> SQLExpression {
        canFail ? .when(lhs, then: .true, else: rhs) : .or(lhs, rhs)
    }

    /// The translation of a Boolean node, exact if possible, otherwise a superset of its models.
    func partial(_ node: Any) -> PredicateTranslation {
        if let logical = node as? any SQLPartialExpression { return logical.partialTranslation(in: self) }
        do {
            let term = try condition(node)
            return PredicateTranslation(condition: term.expression, isExact: true, canFail: term.canFail)
        } catch {
            return PredicateTranslation(condition: nil, isExact: false, reason: "\(error)")
        }
    }
}

extension PredicateTranslator {
    /// Whether evaluating `node` can throw (a force unwrap or cast, a subscript out of bounds, a node this
    /// translator does not know). Rows that a partial translation leaves out are never evaluated in memory, which
    /// is only right if evaluating them could not have thrown.
    static func mayThrow(_ node: Any) -> Bool {
        guard let node = node as? any SQLNonThrowingExpression else { return true }
        return node.operandNodes.contains(where: mayThrow)
    }
}

/// A predicate node whose own evaluation never throws (some trap, as Swift code does): evaluating it throws only
/// where evaluating an operand does. Each node conforms next to its SQL translation; a node that does not conform
/// is taken to throw.
protocol SQLNonThrowingExpression {
    /// The operand nodes that evaluating this node evaluates, closures' bodies included.
    var operandNodes: [Any] { get }
}

/// A logical node whose operands may be translated partly: SQL can then still narrow down the candidates.
protocol SQLPartialExpression {
    func partialTranslation(in translator: PredicateTranslator) -> PredicateTranslation
}

extension PredicateExpressions.Conjunction: SQLPredicateExpression, SQLPartialExpression {
    /// `&&`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let left = try translator.condition(lhs)
        let right = try translator.condition(rhs)
        let canFail = left.canFail || right.canFail
        return .condition(
            PredicateTranslator.and(left.expression, right.expression, canFail: canFail), canFail: canFail)
    }

    /// Rows must pass both sides. A side that cannot fail narrows the candidates even when the other is inexact;
    /// one that can fail is used only behind an exact left side, where Swift would evaluate it too.
    func partialTranslation(in translator: PredicateTranslator) -> PredicateTranslation {
        let left = translator.partial(lhs)
        let right = translator.partial(rhs)
        let reason = left.reason ?? right.reason
        let canFail = left.canFail || right.canFail
        if left.isExact, let leftCondition = left.condition {
            guard let rightCondition = right.condition else {
                return PredicateTranslation(
                    condition: leftCondition, isExact: false, canFail: left.canFail, reason: reason)
            }
            return PredicateTranslation(
                condition: PredicateTranslator.and(leftCondition, rightCondition, canFail: canFail),
                isExact: right.isExact, canFail: canFail, reason: reason)
        }
        let usable = [left, right.canFail ? nil : right].compactMap { $0?.condition }
        let condition = usable.count == 2 ? SQLExpression.and(usable[0], usable[1]) : usable.first
        return PredicateTranslation(condition: condition, isExact: false, canFail: left.canFail, reason: reason)
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression, SQLPartialExpression {
    /// `||`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let left = try translator.condition(lhs)
        let right = try translator.condition(rhs)
        let canFail = left.canFail || right.canFail
        return .condition(PredicateTranslator.or(left.expression, right.expression, canFail: canFail), canFail: canFail)
    }

    /// Rows must pass either side, so both sides must narrow the candidates for the disjunction to.
    func partialTranslation(in translator: PredicateTranslator) -> PredicateTranslation {
        let left = translator.partial(lhs)
        let right = translator.partial(rhs)
        let canFail = left.canFail || right.canFail
        guard let leftCondition = left.condition, let rightCondition = right.condition else {
            return PredicateTranslation(condition: nil, isExact: false, reason: left.reason ?? right.reason)
        }
        return PredicateTranslation(
            condition: PredicateTranslator.or(leftCondition, rightCondition, canFail: canFail),
            isExact: left.isExact && right.isExact, canFail: canFail, reason: left.reason ?? right.reason)
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    /// `!`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let operand = try translator.condition(wrapped)
        return .condition(.not(operand.expression), canFail: operand.canFail)
    }
}

extension PredicateExpressions.Conditional: SQLPredicateExpression {
    /// `test ? a : b` and `if`/`else` expressions: SQL's `CASE` evaluates only the branch it takes, as Swift does.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let condition = try translator.condition(test)
        var whenTrue = try translator.term(trueBranch)
        let whenFalse = try translator.term(falseBranch)
        if whenTrue.kind == .bool && whenFalse.kind == .bool && whenTrue.nulls == .never && whenFalse.nulls == .never {
            return .condition(
                .when(condition.expression, then: whenTrue.asCondition, else: whenFalse.asCondition),
                canFail: condition.canFail || whenTrue.canFail || whenFalse.canFail)
        }
        guard whenTrue.kind == whenFalse.kind, whenTrue.kind != .unknown, whenTrue.json == nil, whenFalse.json == nil
        else {
            throw translator.unsupported("the branches of a conditional are stored differently")
        }
        whenTrue.expression = .when(condition.expression, then: whenTrue.expression, else: whenFalse.expression)
        whenTrue.type = Output.self
        whenTrue.nulls = whenTrue.nulls == .never ? whenFalse.nulls : whenTrue.nulls
        whenTrue.canFail = condition.canFail || whenTrue.canFail || whenFalse.canFail
        whenTrue.constant = nil
        return whenTrue
    }
}

extension PredicateExpressions.Conjunction: SQLNonThrowingExpression {
    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.Disjunction: SQLNonThrowingExpression {
    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.Negation: SQLNonThrowingExpression {
    var operandNodes: [Any] { [wrapped] }
}

extension PredicateExpressions.Conditional: SQLNonThrowingExpression {
    var operandNodes: [Any] { [test, trueBranch, falseBranch] }
}
