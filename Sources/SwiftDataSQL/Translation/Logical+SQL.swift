import Foundation
import SwiftDataCore

extension PredicateExpressions.Conjunction: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        .condition(.and(try translator.condition(lhs), try translator.condition(rhs)))
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        .condition(.or(try translator.condition(lhs), try translator.condition(rhs)))
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        .condition(.not(try translator.condition(wrapped)))
    }
}
