import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// `lhs == rhs` (or `!=`) with Swift's semantics: `nil == nil` holds, `nil` differs from every value, NaN
    /// equals nothing, strings are equal when they are canonically equivalent.
    func equality(_ left: SQLTerm, _ right: SQLTerm, negated: Bool) throws -> SQLTerm {
        let canFail = left.canFail || right.canFail
        if left.isNil || right.isNil {
            let other = left.isNil ? right : left
            if other.isNil { return .condition(negated ? .false : .true) }
            guard other.kind != .unknown else {
                throw unsupported("== on \(SQLValueKind.unwrapped(other.type)) values has no SQL translation")
            }
            return .condition(.binary(other.expression, negated ? .notIdentical : .identical, .null), canFail: canFail)
        }
        if left.kind == .model || right.kind == .model || left.related != nil || right.related != nil {
            return try modelEquality(left, right, negated: negated)
        }
        let lhs = try equalityKey(left, comparedWith: [right.constant])
        // Both sides have the same kind, so they compare the same way.
        var rhs = right.expression
        if case .collate(_, let comparison) = lhs { rhs = .collate(rhs, comparison) }
        let expression: SQLExpression
        if left.nulls == .notANumber || right.nulls == .notANumber {
            // NaN (NULL) is unequal to everything, itself included.
            expression = .coalesce([.binary(lhs, negated ? .notEqual : .equal, rhs), negated ? .true : .false])
        } else if left.nulls == .nilValue || right.nulls == .nilValue {
            expression = .binary(lhs, negated ? .notIdentical : .identical, rhs)
        } else {
            expression = .binary(lhs, negated ? .notEqual : .equal, rhs)
        }
        return .condition(expression, canFail: canFail)
    }

    /// A side of an equality, as a key whose SQL `=` is Swift's `==` for the kind. Values stored as JSON compare
    /// only with enum cases without payloads (`constants`, the other side's values when constant).
    func equalityKey(_ term: SQLTerm, comparedWith constants: [Any?]) throws -> SQLExpression {
        switch term.kind.comparable {
        case .string, .url: return try collated(term.expression, .string)
        case .decimal: return try collated(term.expression, .decimal)
        case .bool, .integer, .unsigned64, .double, .float, .date, .uuid, .data: return term.expression
        case .json
        where EnumCases.isCaseWithoutPayload(term.constant)
            || (!constants.isEmpty && constants.allSatisfy(EnumCases.isCaseWithoutPayload)):
            // Distinct cases without payloads have distinct JSON.
            return term.expression
        default:
            throw unsupported("== on \(SQLValueKind.unwrapped(term.type)) values has no SQL translation")
        }
    }

    /// `lhs op rhs` for `<`, `<=`, `>`, `>=`: false when either side is NaN, as in Swift.
    func comparison(_ left: SQLTerm, _ op: SQLBinaryOperator, _ right: SQLTerm) throws -> SQLTerm {
        var expression = SQLExpression.binary(try orderingKey(left), op, try orderingKey(right))
        if left.nulls != .never || right.nulls != .never { expression = .coalesce([expression, .false]) }
        return .condition(expression, canFail: left.canFail || right.canFail)
    }

    /// An expression whose SQL order is the Swift `<` order of the term's values: the value itself, collated
    /// for strings and decimals, shifted for unsigned 64-bit integers, or an enum case's rank.
    func orderingKey(_ term: SQLTerm) throws -> SQLExpression {
        switch term.kind {
        case .integer, .double, .float, .date, .uuid: return term.expression
        case .string: return try collated(term.expression, .string)
        case .decimal: return try collated(term.expression, .decimal)
        case .unsigned64:
            // SQL keeps unsigned 64-bit integers as their bit pattern (both dialects), and orders the bit pattern minus
            // 2^63 as Swift orders the values.
            if case .value(let binding) = term.expression, case .uint64(let value) = binding.value {
                return .bind(.int64(Int64(bitPattern: value) ^ Int64.min), .integer)
            }
            // The bit pattern minus 2^63, in steps that cannot overflow.
            let x = term.expression
            return .when(
                .binary(x, .less, .integer(0)),
                then: .binary(.binary(x, .add, .integer(.max)), .add, .integer(1)),
                else: .binary(.binary(x, .subtract, .integer(.max)), .subtract, .integer(1)))
        case .rawValue, .json:
            return try EnumCases.rank(of: term, in: self)
        default:
            throw unsupported("< on \(SQLValueKind.unwrapped(term.type)) values has no SQL translation")
        }
    }

    /// The SQL operator of a comparison.
    static func sqlOperator(_ op: PredicateExpressions.ComparisonOperator) -> SQLBinaryOperator? {
        switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        @unknown default: nil
        }
    }
}

extension PredicateExpressions.Equal: SQLPredicateExpression {
    /// `==`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.equality(try translator.term(lhs), try translator.term(rhs), negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    /// `!=`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.equality(try translator.term(lhs), try translator.term(rhs), negated: true)
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    /// `<`, `<=`, `>`, `>=`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        guard let op = PredicateTranslator.sqlOperator(op) else {
            throw translator.unsupported("the comparison \(self.op) has no SQL translation")
        }
        return try translator.comparison(try translator.term(lhs), op, try translator.term(rhs))
    }
}

extension PredicateExpressions.Equal: SQLNonThrowingExpression {
    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.NotEqual: SQLNonThrowingExpression {
    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.Comparison: SQLNonThrowingExpression {
    var operandNodes: [Any] { [lhs, rhs] }
}
