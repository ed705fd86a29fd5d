import Foundation
import SwiftDataCore

/// The bounds of a range in a predicate, as terms.
struct SQLRangeBounds {
    var lower: SQLTerm?
    var upper: SQLTerm?
    var includesUpper: Bool
    /// A condition under which Swift traps building the range (`lower > upper`), if it can.
    var invalid: SQLExpression?
}

/// A node or constant that is a range.
protocol SQLRangeExpression {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds
}

extension PredicateTranslator {
    /// The bounds of `lower...upper` or `lower..<upper`. Swift traps when `lower > upper`; so does the SQL.
    func rangeBounds<Bound: Comparable>(
        _ lower: Any, _ upper: Any, _ type: Bound.Type, includesUpper: Bool
    ) throws
        -> SQLRangeBounds
    {
        let low = try term(lower)
        let high = try term(upper)
        var bounds = SQLRangeBounds(lower: low, upper: high, includesUpper: includesUpper)
        if let lowValue = low.constant as? Bound, let highValue = high.constant as? Bound {
            if highValue < lowValue { bounds.invalid = .true }
        } else {
            bounds.invalid = try comparison(low, .greater, high).expression
        }
        return bounds
    }
}

extension PredicateExpressions.ClosedRange: SQLRangeExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [lower, upper] }

    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        try translator.rangeBounds(lower, upper, LHS.Output.self, includesUpper: true)
    }
}

extension PredicateExpressions.Range: SQLRangeExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [lower, upper] }

    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        try translator.rangeBounds(lower, upper, LHS.Output.self, includesUpper: false)
    }
}

extension PredicateExpressions.Value: SQLRangeExpression {
    /// A captured range: its bounds are constants.
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        guard let range = value as? any SQLRangeValue else {
            throw translator.unsupported("a captured \(Output.self) has no SQL translation")
        }
        return try range.bounds(in: translator)
    }
}

/// The standard library's range types, captured in a predicate.
protocol SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds
}

extension ClosedRange: SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        SQLRangeBounds(
            lower: try translator.term(PredicateExpressions.Value(lowerBound)),
            upper: try translator.term(PredicateExpressions.Value(upperBound)), includesUpper: true)
    }
}

extension Range: SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        SQLRangeBounds(
            lower: try translator.term(PredicateExpressions.Value(lowerBound)),
            upper: try translator.term(PredicateExpressions.Value(upperBound)), includesUpper: false)
    }
}

extension PartialRangeFrom: SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        SQLRangeBounds(lower: try translator.term(PredicateExpressions.Value(lowerBound)), includesUpper: false)
    }
}

extension PartialRangeThrough: SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        SQLRangeBounds(upper: try translator.term(PredicateExpressions.Value(upperBound)), includesUpper: true)
    }
}

extension PartialRangeUpTo: SQLRangeValue {
    func bounds(in translator: PredicateTranslator) throws -> SQLRangeBounds {
        SQLRangeBounds(upper: try translator.term(PredicateExpressions.Value(upperBound)), includesUpper: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [range, element] }

    /// `range.contains(x)`: `lower <= x` and `x <= upper` (or `x < upper`), with Swift's comparisons.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        guard let range = range as? any SQLRangeExpression else {
            throw translator.unsupported("\(PredicateTranslator.nodeName(self.range)) is not a range SQL can test")
        }
        let bounds = try range.bounds(in: translator)
        let element = try translator.term(element)
        var conditions: [SQLTerm] = []
        if let lower = bounds.lower { conditions.append(try translator.comparison(lower, .lessOrEqual, element)) }
        if let upper = bounds.upper {
            conditions.append(try translator.comparison(element, bounds.includesUpper ? .lessOrEqual : .less, upper))
        }
        var expression =
            conditions.map(\.expression).reduce(nil) { partial, next in partial.map { .and($0, next) } ?? next }
            ?? .true
        var canFail = conditions.contains { $0.canFail }
        if let invalid = bounds.invalid {
            let failure = try translator.call(.fail, [.bind(.string("Range requires lowerBound <= upperBound"), .text)])
            expression = invalid == .true ? failure : .when(invalid, then: failure, else: expression)
            canFail = true
        }
        return .condition(expression, canFail: canFail)
    }
}
