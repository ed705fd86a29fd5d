import Foundation
import SwiftDataCore

/// Constant folding, as Foundation's `NSPredicate` conversion does it: a node that reads no model (a member of a
/// captured value, `user.id`; the largest of a captured array) is evaluated once, while translating, and its value
/// becomes a bound parameter, so that the rest of the predicate can still run in SQL. Only nodes whose evaluation
/// cannot trap or throw are evaluated this way.
struct SQLConstant {
    /// The node's value (an `Optional`'s `nil` included).
    var value: Any
}

/// A node that can be a constant.
protocol SQLConstantExpression {
    /// The node's value when it reads no model and no variable other than one bound to a constant, and evaluating
    /// it cannot trap or throw; otherwise `nil`.
    func constant(in translator: PredicateTranslator) -> SQLConstant?
}

extension PredicateTranslator {
    /// The value of `node` when it is a constant (see `SQLConstantExpression`).
    func constant(of node: Any) -> SQLConstant? {
        (node as? any SQLConstantExpression)?.constant(in: self)
    }
}

extension PredicateExpressions.Value: SQLConstantExpression {
    func constant(in translator: PredicateTranslator) -> SQLConstant? { SQLConstant(value: value) }
}

extension PredicateExpressions.NilLiteral: SQLConstantExpression {
    func constant(in translator: PredicateTranslator) -> SQLConstant? { SQLConstant(value: Wrapped?.none as Any) }
}

extension PredicateExpressions.Variable: SQLConstantExpression {
    /// A closure's parameter bound to a constant (`if let user = captured { ... }`).
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        translator.variables[key]?.constant.map { SQLConstant(value: $0) }
    }
}

extension PredicateExpressions.KeyPath: SQLConstantExpression {
    /// A member of a constant.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let root = translator.constant(of: root)?.value as? Root.Output else { return nil }
        return SQLConstant(value: root[keyPath: keyPath])
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLConstantExpression {
    /// A constant that is not `nil`, unwrapped (unwrapping `nil` throws, so it is left to SQL's error).
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let optional = translator.constant(of: inner)?.value as? Inner.Output, let wrapped = optional else {
            return nil
        }
        return SQLConstant(value: wrapped)
    }
}

/// A node without an SQL translation of its own whose evaluation cannot trap or throw: with constant operands,
/// it is evaluated once and its value bound.
protocol SQLFoldableExpression: PredicateExpression, SQLPredicateExpression, SQLConstantExpression,
    SQLNonThrowingExpression
{}

extension SQLFoldableExpression {
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard operandNodes.allSatisfy({ translator.constant(of: $0) != nil }),
            let value = try? evaluate(PredicateBindings())
        else { return nil }
        return SQLConstant(value: value)
    }

    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        guard let value = constant(in: translator)?.value as? Output else {
            throw translator.unsupported(
                "\(PredicateTranslator.nodeName(self)) of stored values has no SQL translation")
        }
        return try translator.term(PredicateExpressions.Value(value))
    }
}

extension PredicateExpressions.DictionaryKeySubscript: SQLFoldableExpression {
    var operandNodes: [Any] { [wrapped, key] }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: SQLFoldableExpression {
    var operandNodes: [Any] { [wrapped, key, self.default] }
}

extension PredicateExpressions.SequenceMaximum: SQLFoldableExpression {
    var operandNodes: [Any] { [elements] }
}

extension PredicateExpressions.SequenceMinimum: SQLFoldableExpression {
    var operandNodes: [Any] { [elements] }
}

extension PredicateExpressions.ConditionalCast: SQLNonThrowingExpression {
    var operandNodes: [Any] { [input] }
}

extension PredicateExpressions.TypeCheck: SQLNonThrowingExpression {
    var operandNodes: [Any] { [input] }
}
