import Foundation
import SwiftDataCore

extension PredicateExpressions.OptionalFlatMap: SQLPredicateExpression, SQLNonThrowingExpression {
    /// `x.flatMap { ... }`, optional chaining and `if let`: the closure's SQL with its parameter bound to `x`,
    /// and `NULL` where `x` is `NULL`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let constant = translator.constant(of: wrapped), let optional = constant.value as? LHS.Output {
            return try constantFlatMap(optional, in: translator)
        }
        let optional = try translator.term(wrapped)
        let parameter = optional.retyped(Wrapped.self)
        let transformed = try translator.binding(variable.key, to: parameter).term(transform)
        var result = transformed.retyped(Output.self)
        result.canFail = optional.canFail || transformed.canFail
        result.nullWith = optional.nullWith
        if transformed.nullWith != optional.expression && !translator.readsJSON(transformed, of: optional) {
            result.expression = .when(
                .binary(optional.expression, .identical, .null), then: .null, else: transformed.expression)
        }
        return result
    }

    /// `if let x = captured { ... }`: `nil` for a `nil` constant, otherwise the closure with its parameter bound
    /// to the unwrapped constant.
    private func constantFlatMap(_ optional: Wrapped?, in translator: PredicateTranslator) throws -> SQLTerm {
        guard let value = optional else {
            var term = SQLTerm(expression: .null, type: Output.self, nulls: .nilValue)
            term.constant = Output.none as Any
            return term
        }
        let parameter =
            (try? translator.term(PredicateExpressions.Value(value)))
            ?? .opaqueConstant(value, type: Wrapped.self)
        let transformed = try translator.binding(variable.key, to: parameter).term(transform)
        var result = transformed.retyped(Output.self)
        result.constant = transformed.constant
        return result
    }

    var operandNodes: [Any] { [wrapped, transform] }
}

extension PredicateTranslator {
    /// Whether `term` only reads a member of `optional`'s JSON, and so already is `NULL` where `optional` is.
    fileprivate func readsJSON(_ term: SQLTerm, of optional: SQLTerm) -> Bool {
        guard let document = optional.json?.document, case .jsonValue(let read, _, _) = term.expression else {
            return false
        }
        return read == document
    }
}

extension PredicateExpressions.NilCoalesce: SQLPredicateExpression, SQLNonThrowingExpression {
    /// `x ?? y`: SQL evaluates `y` only where `x` is `NULL` (`CASE` when `y` can fail).
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let optional = try translator.term(lhs)
        let fallback = try translator.term(rhs)
        if optional.isNil { return fallback }
        if let constant = optional.constant as? LHS.Output, let value = constant {
            return try translator.term(PredicateExpressions.Value(value))
        }
        guard optional.kind != .unknown, fallback.kind != .unknown else {
            throw translator.unsupported("?? on \(Output.self) values has no SQL translation")
        }
        var result = SQLTerm(expression: .coalesce([optional.expression, fallback.expression]), type: Output.self)
        if fallback.canFail {
            result.expression = .when(
                .binary(optional.expression, .identical, .null), then: fallback.expression, else: optional.expression)
        }
        result.canFail = optional.canFail || fallback.canFail
        result.isCondition = result.kind == .bool && fallback.nulls == .never && !SQLValueKind.isOptional(Output.self)
        return result
    }

    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.ForcedUnwrap: SQLPredicateExpression {
    /// `x!`: an SQL error where `x` is `NULL`, which the store reports as Swift's `PredicateError.forceUnwrapFailure`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let constant = constant(in: translator), let value = constant.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
        let optional = try translator.term(inner)
        let unwrapped = try translator.call(.unwrap, [optional.expression])
        var result = optional.retyped(Output.self, expression: unwrapped)
        result.canFail = true
        if let location = optional.json { result.json = JSONLocation(document: unwrapped, path: location.path) }
        return result
    }
}
