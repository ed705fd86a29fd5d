import Foundation
import SwiftDataCore

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression {
    /// `x.flatMap { ... }`, optional chaining and `if let`: the closure's SQL with its parameter bound to `x`,
    /// and `NULL` where `x` is `NULL`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let optional = try translator.term(wrapped)
        let parameter = optional.retyped(Wrapped.self)
        let transformed = try translator.binding(variable.key, to: parameter).term(transform)
        var result = transformed.retyped(Output.self)
        result.canFail = optional.canFail || transformed.canFail
        result.nullWith = optional.nullWith
        if transformed.nullWith != optional.expression && !translator.readsJSON(transformed, of: optional) {
            result.expression = .when(
                .infix(optional.expression, "IS", .null), then: .null, else: transformed.expression)
        }
        return result
    }
}

extension PredicateTranslator {
    /// Whether `term` only reads a member of `optional`'s JSON, and so already is `NULL` where `optional` is.
    fileprivate func readsJSON(_ term: SQLTerm, of optional: SQLTerm) -> Bool {
        guard let document = optional.json?.document, case .function(let name, let arguments) = term.expression,
            name == dialect.name(of: .jsonExtract), arguments.count == 2
        else { return false }
        return arguments[0] == document
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression {
    /// `x ?? y`: SQL evaluates `y` only where `x` is `NULL` (`CASE` when `y` can fail).
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let optional = try translator.term(lhs)
        let fallback = try translator.term(rhs)
        if optional.isNil { return fallback }
        var result = SQLTerm(
            expression: .function("coalesce", [optional.expression, fallback.expression]), type: Output.self)
        if fallback.canFail {
            result.expression = .when(
                .infix(optional.expression, "IS", .null), then: fallback.expression, else: optional.expression)
        }
        result.canFail = optional.canFail || fallback.canFail
        result.isCondition = result.kind == .bool && fallback.nulls == .never && !SQLValueKind.isOptional(Output.self)
        return result
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLPredicateExpression {
    /// `x!`: an SQL error where `x` is `NULL`, which the store reports as Swift's `PredicateError.forceUnwrapFailure`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let optional = try translator.term(inner)
        let unwrapped = try translator.call(.unwrap, [optional.expression])
        var result = optional.retyped(Output.self, expression: unwrapped)
        result.canFail = true
        if let location = optional.json { result.json = JSONLocation(document: unwrapped, path: location.path) }
        return result
    }
}
