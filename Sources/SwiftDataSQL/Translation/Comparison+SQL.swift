import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// `lhs == rhs` (or `!=`) with Swift's semantics: `nil == nil` holds, and `nil` differs from every value.
    func equality(_ lhs: Any, _ rhs: Any, negated: Bool) throws -> SQLTerm {
        let left = try term(lhs)
        let right = try term(rhs)
        let leftExpression = left.isCondition ? left.expression : left.expression
        let nullable = left.isNullable || right.isNullable
        let op = nullable ? (negated ? "IS NOT" : "IS") : (negated ? "<>" : "=")
        var expression = SQLExpression.infix(leftExpression, op, right.expression)
        if let collation = left.collation(in: dialect) ?? right.collation(in: dialect) {
            expression = .infix(.collate(leftExpression, collation), op, right.expression)
        }
        return .condition(expression)
    }
}

extension PredicateExpressions.Equal: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.equality(lhs, rhs, negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.equality(lhs, rhs, negated: true)
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        let op: String
        switch self.op {
        case .lessThan: op = "<"
        case .lessThanOrEqual: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqual: op = ">="
        @unknown default: throw translator.unsupported("the comparison \(self.op) has no SQL translation")
        }
        var leftExpression = left.expression
        if let collation = left.collation(in: translator.dialect) ?? right.collation(in: translator.dialect) {
            leftExpression = .collate(leftExpression, collation)
        }
        return .condition(.infix(leftExpression, op, right.expression))
    }
}
