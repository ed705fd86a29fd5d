import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// The term of an arithmetic result of type `type`: integer results are checked against the type's bounds
    /// (Swift traps on overflow, SQLite would switch to floating point), `Double` results are IEEE's, with NaN as
    /// `NULL`. Other types (`Float`'s rounding, `Decimal`, `UInt64`) have no SQL arithmetic.
    func arithmetic(_ expression: SQLExpression, type: Any.Type, operands: [SQLTerm]) throws -> SQLTerm {
        var result = SQLTerm(expression: expression, type: type)
        result.canFail = operands.contains { $0.canFail }
        switch result.kind {
        case .integer(let min, let max):
            result.expression = try call(.checkedInteger, [expression, .value(.integer(min)), .value(.integer(max))])
            result.canFail = true
        case .double:
            break
        default:
            throw unsupported("arithmetic on \(type) has no SQL translation with Swift's results")
        }
        return result
    }

    /// Integer division or remainder through the dialect's checked function.
    func integerDivision(_ function: SQLFunction, _ lhs: Any, _ rhs: Any, type: Any.Type) throws -> SQLTerm {
        let left = try term(lhs)
        let right = try term(rhs)
        guard case .integer(let min, let max) = SQLValueKind(type) else {
            throw unsupported("\(function) of \(type) has no SQL translation")
        }
        var result = SQLTerm(
            expression: try call(
                function, [left.expression, right.expression, .value(.integer(min)), .value(.integer(max))]),
            type: type)
        result.canFail = true
        return result
    }
}

extension PredicateExpressions.Arithmetic: SQLPredicateExpression {
    /// `+`, `-` and `*`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        let op: String
        switch self.op {
        case .add: op = "+"
        case .subtract: op = "-"
        case .multiply: op = "*"
        @unknown default: throw translator.unsupported("the arithmetic operator \(self.op) has no SQL translation")
        }
        return try translator.arithmetic(
            .infix(left.expression, op, right.expression), type: Output.self, operands: [left, right])
    }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression {
    /// Unary `-`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let operand = try translator.term(wrapped)
        // SQL's `-x` is `0 - x`, which turns 0.0 into +0.0 where Swift gives -0.0; `x * -1.0` keeps the sign.
        let negated: SQLExpression =
            SQLValueKind(Output.self) == .double
            ? .infix(operand.expression, "*", .keyword("-1.0")) : .prefix("-", operand.expression)
        return try translator.arithmetic(negated, type: Output.self, operands: [operand])
    }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression {
    /// Integer `/`, truncating toward zero; an error for a zero divisor or an overflow.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.integerDivision(.integerDivide, lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression {
    /// Integer `%`, with the dividend's sign; an error for a zero divisor or an overflow.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.integerDivision(.integerRemainder, lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression {
    /// `Double` division in IEEE arithmetic: SQLite's `/` would give `NULL` for a zero divisor, Swift an infinity.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        guard SQLValueKind(Output.self) == .double else {
            throw translator.unsupported("division of \(Output.self) has no SQL translation with Swift's rounding")
        }
        var result = SQLTerm(
            expression: try translator.call(.realDivide, [left.expression, right.expression]), type: Output.self)
        result.canFail = left.canFail || right.canFail
        return result
    }
}
