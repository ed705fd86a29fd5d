import Foundation
import SwiftData

/// Node constructors that open their existential arguments, so random subtrees compose into concrete nodes.
enum Build {
    static let operators: [PredicateExpressions.ComparisonOperator] = [
        .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
    ]

    static func and(
        _ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>
    )
        -> PredicateNode<Bool>
    {
        PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs)
    }

    static func or(
        _ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>
    )
        -> PredicateNode<Bool>
    {
        PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs)
    }

    static func not(_ operand: some StandardPredicateExpression<Bool>) -> PredicateNode<Bool> {
        PredicateExpressions.Negation(operand)
    }

    static func conditional<T>(
        _ test: some StandardPredicateExpression<Bool>, _ whenTrue: some StandardPredicateExpression<T>,
        _ whenFalse: some StandardPredicateExpression<T>
    ) -> PredicateNode<T> {
        PredicateExpressions.Conditional(test: test, trueBranch: whenTrue, falseBranch: whenFalse)
    }

    static func equal<T: Equatable>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
    }

    static func notEqual<T: Equatable>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
    }

    static func compare<T: Comparable>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>,
        _ op: PredicateExpressions.ComparisonOperator
    ) -> PredicateNode<Bool> {
        PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: op)
    }

    static func arithmetic<T: Numeric>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>,
        _ op: PredicateExpressions.ArithmeticOperator
    ) -> PredicateNode<T> {
        PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: op)
    }

    static func negate<T: SignedNumeric>(_ operand: some StandardPredicateExpression<T>) -> PredicateNode<T> {
        PredicateExpressions.UnaryMinus(operand)
    }

    static func divide<T: BinaryInteger>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<T> {
        PredicateExpressions.IntDivision(lhs: lhs, rhs: rhs)
    }

    static func remainder<T: BinaryInteger>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<T> {
        PredicateExpressions.IntRemainder(lhs: lhs, rhs: rhs)
    }

    static func floatDivide<T: FloatingPoint>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<T> {
        PredicateExpressions.FloatDivision(lhs: lhs, rhs: rhs)
    }

    static func coalesce<T>(
        _ optional: some StandardPredicateExpression<T?>, _ fallback: some StandardPredicateExpression<T>
    )
        -> PredicateNode<T>
    {
        PredicateExpressions.NilCoalesce(lhs: optional, rhs: fallback)
    }

    static func unwrap<T>(_ optional: some StandardPredicateExpression<T?>) -> PredicateNode<T> {
        PredicateExpressions.ForcedUnwrap(optional)
    }

    static func flatMap<T, Transformed: StandardPredicateExpression>(
        _ optional: some StandardPredicateExpression<T?>,
        _ transform: (PredicateExpressions.Variable<T>) -> Transformed
    ) -> PredicateNode<Transformed.Output?> {
        PredicateExpressions.OptionalFlatMap(optional, transform)
    }

    static func member<Root, T>(
        _ root: some StandardPredicateExpression<Root>, _ keyPath: KeyPath<Root, T> & Sendable
    )
        -> PredicateNode<T>
    {
        PredicateExpressions.KeyPath(root: root, keyPath: keyPath)
    }

    static func closedRangeContains<T: Comparable>(
        _ lower: some StandardPredicateExpression<T>, _ upper: some StandardPredicateExpression<T>,
        _ element: some StandardPredicateExpression<T>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.RangeExpressionContains(
            range: PredicateExpressions.ClosedRange(lower: lower, upper: upper), element: element)
    }

    static func rangeContains<T: Comparable>(
        _ lower: some StandardPredicateExpression<T>, _ upper: some StandardPredicateExpression<T>,
        _ element: some StandardPredicateExpression<T>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.RangeExpressionContains(
            range: PredicateExpressions.Range(lower: lower, upper: upper), element: element)
    }

    static func capturedRangeContains<R: RangeExpression & Codable & Sendable>(
        _ range: R, _ element: some StandardPredicateExpression<R.Bound>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.Value(range), element: element)
    }

    static func sequenceContains<S: Sequence>(
        _ sequence: some StandardPredicateExpression<S>, _ element: some StandardPredicateExpression<S.Element>
    ) -> PredicateNode<Bool> where S.Element: Equatable {
        PredicateExpressions.SequenceContains(sequence: sequence, element: element)
    }

    static func contains(
        _ text: some StandardPredicateExpression<String>, _ other: some StandardPredicateExpression<String>
    )
        -> PredicateNode<Bool>
    {
        PredicateExpressions.CollectionContainsCollection(base: text, other: other)
    }

    static func startsWith(
        _ text: some StandardPredicateExpression<String>, _ prefix: some StandardPredicateExpression<String>
    )
        -> PredicateNode<Bool>
    {
        PredicateExpressions.SequenceStartsWith(base: text, prefix: prefix)
    }

    static func localizedStandardContains(
        _ text: some StandardPredicateExpression<String>, _ other: some StandardPredicateExpression<String>
    ) -> PredicateNode<Bool> {
        PredicateExpressions.build_localizedStandardContains(text, other)
    }

    static func caseInsensitiveCompare(
        _ text: some StandardPredicateExpression<String>, _ other: some StandardPredicateExpression<String>
    ) -> PredicateNode<ComparisonResult> {
        PredicateExpressions.build_caseInsensitiveCompare(text, other)
    }

    static func localizedCompare(
        _ text: some StandardPredicateExpression<String>, _ other: some StandardPredicateExpression<String>
    ) -> PredicateNode<ComparisonResult> {
        PredicateExpressions.build_localizedCompare(text, other)
    }
}
