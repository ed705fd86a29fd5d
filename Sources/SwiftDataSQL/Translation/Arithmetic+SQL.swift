import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// Arithmetic with Swift's results: integer results are checked against the type's bounds (Swift traps on
    /// overflow), `Double` results are IEEE's, with NaN as `NULL`. Other types (`Float`'s rounding, `Decimal`,
    /// `UInt64`) have no SQL arithmetic.
    func arithmetic(
        integer: SQLFunction, real: SQLFunction, _ operands: [SQLTerm], type: Any.Type
    ) throws -> SQLTerm {
        var result = SQLTerm(expression: .null, type: type)
        result.canFail = operands.contains { $0.canFail }
        let arguments = operands.map(\.expression)
        switch result.kind {
        case .integer(let min, let max):
            result.expression = try call(
                integer, arguments + [.bind(.int64(min), .integer), .bind(.int64(max), .integer)])
            result.canFail = true
        case .double:
            result.expression = try call(real, arguments)
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
                function,
                [left.expression, right.expression, .bind(.int64(min), .integer), .bind(.int64(max), .integer)]),
            type: type)
        result.canFail = true
        return result
    }
}

extension PredicateExpressions.Arithmetic: SQLPredicateExpression, SQLNonThrowingExpression, SQLConstantExpression {
    /// `+`, `-` and `*`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let value = constant(in: translator)?.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        let functions: (integer: SQLFunction, real: SQLFunction)
        switch self.op {
        case .add: functions = (.checkedAdd, .realAdd)
        case .subtract: functions = (.checkedSubtract, .realSubtract)
        case .multiply: functions = (.checkedMultiply, .realMultiply)
        @unknown default: throw translator.unsupported("the arithmetic operator \(self.op) has no SQL translation")
        }
        return try translator.arithmetic(
            integer: functions.integer, real: functions.real, [left, right], type: Output.self)
    }

    /// Constant operands, computed in Swift where that cannot trap.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let a = translator.constant(of: lhs)?.value as? LHS.Output,
            let b = translator.constant(of: rhs)?.value as? RHS.Output,
            let result = ConstantArithmetic.result(op, a, b)
        else { return nil }
        return SQLConstant(value: result)
    }

    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression, SQLNonThrowingExpression, SQLConstantExpression {
    /// Unary `-`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let value = constant(in: translator)?.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
        return try translator.arithmetic(
            integer: .checkedNegate, real: .realNegate, [try translator.term(wrapped)], type: Output.self)
    }

    /// A constant operand, negated in Swift where that cannot trap.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let x = translator.constant(of: wrapped)?.value as? Wrapped.Output,
            let result = ConstantArithmetic.negation(x)
        else { return nil }
        return SQLConstant(value: result)
    }

    var operandNodes: [Any] { [wrapped] }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression, SQLNonThrowingExpression, SQLConstantExpression {
    /// Integer `/`, truncating toward zero; an error for a zero divisor or an overflow.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let value = constant(in: translator)?.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
        return try translator.integerDivision(.integerDivide, lhs, rhs, type: Output.self)
    }

    /// Constant operands, divided in Swift where that cannot trap.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let a = translator.constant(of: lhs)?.value as? LHS.Output,
            let b = translator.constant(of: rhs)?.value as? RHS.Output,
            let result = ConstantArithmetic.division(a, b, remainder: false)
        else { return nil }
        return SQLConstant(value: result)
    }

    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression, SQLNonThrowingExpression, SQLConstantExpression {
    /// Integer `%`, with the dividend's sign; an error for a zero divisor or an overflow.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let value = constant(in: translator)?.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
        return try translator.integerDivision(.integerRemainder, lhs, rhs, type: Output.self)
    }

    /// Constant operands, divided in Swift where that cannot trap.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let a = translator.constant(of: lhs)?.value as? LHS.Output,
            let b = translator.constant(of: rhs)?.value as? RHS.Output,
            let result = ConstantArithmetic.division(a, b, remainder: true)
        else { return nil }
        return SQLConstant(value: result)
    }

    var operandNodes: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression, SQLNonThrowingExpression, SQLConstantExpression {
    /// `Double` division in IEEE arithmetic: infinities for a zero divisor, as in Swift.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let value = constant(in: translator)?.value as? Output {
            return try translator.term(PredicateExpressions.Value(value))
        }
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

    /// Constant operands, divided in Swift.
    func constant(in translator: PredicateTranslator) -> SQLConstant? {
        guard let a = translator.constant(of: lhs)?.value as? LHS.Output,
            let b = translator.constant(of: rhs)?.value as? RHS.Output,
            let result = ConstantArithmetic.floatingPointDivision(a, b)
        else { return nil }
        return SQLConstant(value: result)
    }

    var operandNodes: [Any] { [lhs, rhs] }
}
