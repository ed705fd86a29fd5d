import Foundation

/// Arithmetic on constants, computed in Swift where it cannot trap: on fixed-width integers without overflow or
/// a zero divisor, and on binary floating point. Elsewhere (an overflow, `Decimal`) it is left to SQL, which raises
/// an error where Swift traps.
enum ConstantArithmetic {
    /// `a op b`, or `nil` where Swift would trap or the type is neither.
    static func result<T>(_ op: PredicateExpressions.ArithmeticOperator, _ a: T, _ b: T) -> T? {
        if let a = a as? any FixedWidthInteger { return integer(a, b, op: op) as? T }
        if let a = a as? any BinaryFloatingPoint { return floatingPoint(a, b, op: op) as? T }
        return nil
    }

    /// `-x`, or `nil` where Swift would trap.
    static func negation<T>(_ x: T) -> T? {
        if let x = x as? any FixedWidthInteger { return integerNegation(x) as? T }
        if let x = x as? any BinaryFloatingPoint { return negated(x) as? T }
        return nil
    }

    /// Integer `a / b` (or, `remainder`, `a % b`), or `nil` where Swift would trap.
    static func division<T>(_ a: T, _ b: T, remainder: Bool) -> T? {
        guard let a = a as? any FixedWidthInteger else { return nil }
        return integerDivision(a, b, remainder: remainder) as? T
    }

    /// Floating-point `a / b`.
    static func floatingPointDivision<T>(_ a: T, _ b: T) -> T? {
        guard let a = a as? any BinaryFloatingPoint else { return nil }
        return floatingPointQuotient(a, b) as? T
    }

    private static func integer<I: FixedWidthInteger>(
        _ a: I, _ b: Any, op: PredicateExpressions.ArithmeticOperator
    ) -> I? {
        guard let b = b as? I else { return nil }
        let result: (partialValue: I, overflow: Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        @unknown default: return nil
        }
        return result.overflow ? nil : result.partialValue
    }

    private static func integerNegation<I: FixedWidthInteger>(_ x: I) -> I? {
        let result = I.zero.subtractingReportingOverflow(x)
        return result.overflow ? nil : result.partialValue
    }

    private static func integerDivision<I: FixedWidthInteger>(_ a: I, _ b: Any, remainder: Bool) -> I? {
        guard let b = b as? I else { return nil }
        let result = remainder ? a.remainderReportingOverflow(dividingBy: b) : a.dividedReportingOverflow(by: b)
        return result.overflow ? nil : result.partialValue
    }

    private static func floatingPoint<F: BinaryFloatingPoint>(
        _ a: F, _ b: Any, op: PredicateExpressions.ArithmeticOperator
    ) -> F? {
        guard let b = b as? F else { return nil }
        switch op {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        @unknown default: return nil
        }
    }

    private static func negated<F: BinaryFloatingPoint>(_ x: F) -> F { -x }

    private static func floatingPointQuotient<F: BinaryFloatingPoint>(_ a: F, _ b: Any) -> F? {
        (b as? F).map { a / $0 }
    }
}
