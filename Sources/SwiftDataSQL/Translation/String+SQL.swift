import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// A function of two strings that Swift defines by `Character`s (or a locale), computed by the store with
    /// Swift's own implementation.
    func stringFunction(_ function: SQLFunction, _ lhs: Any, _ rhs: Any, type: Any.Type) throws -> SQLTerm {
        let left = try term(lhs)
        let right = try term(rhs)
        guard left.kind == .string, right.kind == .string else {
            throw unsupported("\(function) of \(left.type) and \(right.type) has no SQL translation")
        }
        var result = SQLTerm(expression: try call(function, [left.expression, right.expression]), type: type)
        result.canFail = left.canFail || right.canFail
        result.isCondition = result.kind == .bool
        return result
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [base, other] }

    /// `$0.name.contains("x")`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.stringFunction(.contains, base, other, type: Bool.self)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [base, prefix] }

    /// `$0.name.starts(with: "x")`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.stringFunction(.startsWith, base, prefix, type: Bool.self)
    }
}

#if !canImport(Darwin)
    extension PredicateExpressions.StringLocalizedStandardContains: SQLPredicateExpression, SQLNonThrowingExpression {
        var operandNodes: [Any] { [root, other] }

        /// `$0.name.localizedStandardContains(text)`.
        package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
            try translator.stringFunction(.localizedStandardContains, root, other, type: Bool.self)
        }
    }

    extension PredicateExpressions.StringCaseInsensitiveCompare: SQLPredicateExpression, SQLNonThrowingExpression {
        var operandNodes: [Any] { [root, other] }

        /// `$0.name.caseInsensitiveCompare(text)`, as the raw value of its `ComparisonResult`.
        package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
            try translator.stringFunction(.caseInsensitiveCompare, root, other, type: ComparisonResult.self)
        }
    }

    extension PredicateExpressions.StringLocalizedCompare: SQLPredicateExpression, SQLNonThrowingExpression {
        var operandNodes: [Any] { [root, other] }

        /// `$0.name.localizedCompare(text)`, as the raw value of its `ComparisonResult`.
        package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
            try translator.stringFunction(.localizedCompare, root, other, type: ComparisonResult.self)
        }
    }
#endif
