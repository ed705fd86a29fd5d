import Foundation
import SwiftData

/// A predicate node of a given output type.
typealias PredicateNode<Output> = any StandardPredicateExpression<Output>

/// Builds random predicates over `Row` from `PredicateExpressions` nodes directly (no macro), covering every
/// construct the store translates, plus a rare part it cannot translate (`String.count`), so that the in-memory
/// fallback is tested with everything else. Arithmetic stays within `Row.small`'s range and divides only by
/// non-zero values, and ranges have ordered constant bounds: Swift traps otherwise, which a test cannot
/// compare with. Conditions also reach related rows (see `PredicateGenerator+Relationships.swift`), where any
/// condition applies again.
struct PredicateGenerator {
    var random: SeededRandom
    /// The row the conditions being built test: the predicate's input, or a closure's parameter.
    var row: PredicateExpressions.Variable<Row>?
    /// The rows of the enclosing scopes, outermost first, while a closure's body is built.
    var outerRows: [PredicateExpressions.Variable<Row>] = []
    /// Identifiers of stored rows (and others), to compare with; none are generated when it is empty.
    var identifiers: [PersistentIdentifier] = []

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A new random predicate.
    mutating func predicate() -> Predicate<Row> {
        Predicate<Row> { variable in
            row = variable
            return condition(depth: 3)
        }
    }

    // MARK: Conditions

    mutating func condition(depth: Int) -> PredicateNode<Bool> {
        guard depth > 0, random.chance(0.6) else { return leafCondition() }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Build.and(condition(depth: depth - 1), condition(depth: depth - 1))
        case 1: return Build.or(condition(depth: depth - 1), condition(depth: depth - 1))
        case 2: return Build.not(condition(depth: depth - 1))
        case 3: return Build.conditional(condition(depth: 0), condition(depth: depth - 1), condition(depth: depth - 1))
        default: return leafCondition()
        }
    }

    private mutating func leafCondition() -> PredicateNode<Bool> {
        let builders: [(inout PredicateGenerator) -> PredicateNode<Bool>] = [
            { $0.integerCondition() }, { $0.arithmeticCondition() }, { $0.doubleCondition() },
            { $0.stringCondition() }, { $0.stringMethodCondition() }, { $0.optionalCondition() },
            { $0.boolCondition() }, { $0.otherTypeCondition() }, { $0.rangeCondition() },
            { $0.membershipCondition() }, { $0.codableCondition() }, { $0.arrayCondition() },
        ]
        if random.chance(0.01) { return Build.equal(Build.member(string(depth: 0), \String.count), value(1)) }
        // Relationship paths, at most two closures deep.
        if outerRows.count < 2 && random.chance(0.15) { return relationshipCondition() }
        return random.pick(builders)(&self)
    }

    mutating func comparison<T: Comparable>(
        _ lhs: some StandardPredicateExpression<T>, _ rhs: some StandardPredicateExpression<T>
    ) -> PredicateNode<Bool> {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: Build.equal(lhs, rhs)
        case 1: Build.notEqual(lhs, rhs)
        default: Build.compare(lhs, rhs, random.pick(Build.operators))
        }
    }

    private mutating func integerCondition() -> PredicateNode<Bool> {
        comparison(integer(depth: 1), integer(depth: 1))
    }

    private mutating func arithmeticCondition() -> PredicateNode<Bool> {
        comparison(small(depth: 2), small(depth: 1))
    }

    private mutating func doubleCondition() -> PredicateNode<Bool> {
        comparison(double(depth: 2), double(depth: 1))
    }

    private mutating func stringCondition() -> PredicateNode<Bool> {
        comparison(string(depth: 1), string(depth: 1))
    }

    private mutating func stringMethodCondition() -> PredicateNode<Bool> {
        let text = string(depth: 0)
        let other = value(random.pick(DifferentialValues.strings))
        let order = value(random.pick([ComparisonResult.orderedAscending, .orderedSame, .orderedDescending]))
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return Build.contains(text, other)
        case 1: return Build.startsWith(text, other)
        case 2: return Build.localizedStandardContains(text, other)
        case 3: return Build.equal(Build.caseInsensitiveCompare(text, other), order)
        case 4: return Build.equal(Build.localizedCompare(text, other), order)
        default: return Build.member(text, \String.isEmpty)
        }
    }

    private mutating func optionalCondition() -> PredicateNode<Bool> {
        let optionalString = keyPath(\.optionalString)
        let optionalInt = keyPath(\.optionalInt)
        let text = random.pick(DifferentialValues.strings)
        let number = random.pick(DifferentialValues.ints)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return Build.equal(optionalString, PredicateExpressions.NilLiteral<String>())
        case 1: return Build.notEqual(optionalInt, PredicateExpressions.NilLiteral<Int>())
        case 2: return Build.equal(optionalString, value(random.maybe(DifferentialValues.strings)))
        case 3: return Build.notEqual(optionalInt, value(random.maybe(DifferentialValues.ints)))
        case 4:  // if let value = $0.optionalString { value < text } else { bool }
            let test = Build.flatMap(optionalString) {
                PredicateExpressions.Comparison(lhs: $0, rhs: PredicateExpressions.Value(text), op: .lessThan)
            }
            return Build.coalesce(test, value(random.chance(0.5)))
        case 5:  // $0.optionalInt.flatMap { $0 == number } == true
            let test = Build.flatMap(optionalInt) {
                PredicateExpressions.Equal(lhs: $0, rhs: PredicateExpressions.Value(number))
            }
            return Build.equal(test, value(Optional(true)))
        case 6:  // $0.optionalInt != nil && $0.optionalInt! > number
            return Build.and(
                Build.notEqual(optionalInt, PredicateExpressions.NilLiteral<Int>()),
                comparison(Build.unwrap(optionalInt), value(number)))
        case 7 where random.chance(0.1):  // unguarded: throws where optionalInt is nil, in memory and in SQL
            return comparison(Build.unwrap(optionalInt), value(number))
        default:
            return comparison(Build.coalesce(optionalString, value(text)), string(depth: 0))
        }
    }

    private mutating func boolCondition() -> PredicateNode<Bool> {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: keyPath(\.bool)
        case 1: Build.equal(keyPath(\.optionalBool), value(random.maybe([false, true])))
        case 2: Build.coalesce(keyPath(\.optionalBool), value(random.chance(0.5)))
        default: Build.equal(keyPath(\.bool), condition(depth: 0))
        }
    }

    private mutating func otherTypeCondition() -> PredicateNode<Bool> {
        let values = DifferentialValues.self
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return comparison(keyPath(\.date), value(random.pick(values.dates)))
        case 1: return comparison(keyPath(\.decimal), value(random.pick(values.decimals)))
        case 2: return comparison(keyPath(\.uuid), value(random.pick(values.uuids)))
        case 3: return comparison(keyPath(\.uint64), value(random.pick(values.uint64s)))
        case 4: return comparison(keyPath(\.int8), value(random.pick(values.int8s)))
        case 5: return comparison(keyPath(\.float), value(random.pick(values.floats)))
        case 6: return comparison(keyPath(\.priority), value(random.pick(Priority.allCases)))
        case 7: return Build.equal(keyPath(\.mood), value(random.maybe(Mood.allCases)))
        case 8: return Build.equal(keyPath(\.url), value(random.pick(values.urls)))
        default: return Build.notEqual(keyPath(\.data), value(random.pick(values.datas)))
        }
    }

    private mutating func rangeCondition() -> PredicateNode<Bool> {
        let ints = [random.pick(DifferentialValues.ints), random.pick(DifferentialValues.ints)].sorted()
        let strings = [random.pick(DifferentialValues.strings), random.pick(DifferentialValues.strings)].sorted()
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Build.closedRangeContains(value(ints[0]), value(ints[1]), integer(depth: 0))
        case 1: return Build.rangeContains(value(strings[0]), value(strings[1]), string(depth: 0))
        case 2: return Build.capturedRangeContains(ints[0]...ints[1], integer(depth: 0))
        default: return Build.capturedRangeContains(ints[0]..<ints[1], integer(depth: 0))
        }
    }

    private mutating func membershipCondition() -> PredicateNode<Bool> {
        let values = DifferentialValues.self
        let count = Int.random(in: 0...3, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return Build.sequenceContains(value((0..<count).map { _ in random.pick(values.strings) }), string(depth: 0))
        case 1:
            return Build.sequenceContains(value((0..<count).map { _ in random.pick(values.ints) }), integer(depth: 0))
        case 2:
            let list = (0..<count).map { _ in random.maybe(values.strings) }
            return Build.sequenceContains(value(list), keyPath(\.optionalString))
        case 3:
            return Build.sequenceContains(value((0..<count).map { _ in random.pick(values.doubles) }), double(depth: 0))
        default:
            return Build.sequenceContains(value((0..<count).map { _ in random.maybe(Mood.allCases) }), keyPath(\.mood))
        }
    }

    private mutating func codableCondition() -> PredicateNode<Bool> {
        let city = random.pick(DifferentialValues.cities)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return comparison(Build.member(keyPath(\.address), \Address.city), value(city))
        case 1:  // $0.optionalAddress?.city == city
            let optionalCity = Build.flatMap(keyPath(\.optionalAddress)) {
                PredicateExpressions.KeyPath(root: $0, keyPath: \Address.city)
            }
            return Build.equal(optionalCity, value(random.chance(0.2) ? nil : Optional(city)))
        default: return Build.equal(Build.member(keyPath(\.address), \Address.street), string(depth: 0))
        }
    }

    private mutating func arrayCondition() -> PredicateNode<Bool> {
        let tags = PredicateExpressions.KeyPath(root: row!, keyPath: \Row.tags)
        let tag = random.pick(DifferentialValues.strings)
        let op = random.pick(Build.operators)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Build.sequenceContains(tags, value(tag))
        case 1:
            return PredicateExpressions.SequenceContainsWhere(tags) {
                PredicateExpressions.Comparison(lhs: $0, rhs: PredicateExpressions.Value(tag), op: op)
            }
        case 2:
            return PredicateExpressions.SequenceAllSatisfy(tags) {
                PredicateExpressions.Comparison(lhs: $0, rhs: PredicateExpressions.Value(tag), op: op)
            }
        case 3: return Build.member(tags, \[String].isEmpty)
        default: return Build.equal(Build.member(tags, \[String].count), value(Int.random(in: 0...2, using: &random)))
        }
    }

    // MARK: Values

    /// `Int`s, extreme ones included; no arithmetic.
    mutating func integer(depth: Int) -> PredicateNode<Int> {
        switch Int.random(in: 0..<(depth > 0 ? 5 : 4), using: &random) {
        case 0, 1: keyPath(\.int)
        case 2: value(random.pick(DifferentialValues.ints))
        case 3: Build.coalesce(keyPath(\.optionalInt), value(random.pick(DifferentialValues.ints)))
        default: Build.conditional(condition(depth: 0), integer(depth: depth - 1), integer(depth: depth - 1))
        }
    }

    /// Arithmetic on small `Int32`s: at most two levels deep, so it cannot overflow.
    private mutating func small(depth: Int) -> PredicateNode<Int32> {
        guard depth > 0, random.chance(0.7) else {
            return random.chance(0.6) ? keyPath(\.small) : value(Int32.random(in: -9...9, using: &random))
        }
        let lhs = small(depth: depth - 1)
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return Build.arithmetic(lhs, small(depth: depth - 1), .add)
        case 1: return Build.arithmetic(lhs, small(depth: depth - 1), .subtract)
        case 2: return Build.arithmetic(lhs, small(depth: depth - 1), .multiply)
        case 3: return Build.negate(lhs)
        case 4: return Build.divide(lhs, nonZero())
        case 5: return Build.remainder(lhs, nonZero())
        default: return Build.conditional(condition(depth: 0), lhs, small(depth: depth - 1))
        }
    }

    /// A non-zero divisor: a constant, or `$0.small == 0 ? 1 : $0.small`.
    private mutating func nonZero() -> PredicateNode<Int32> {
        if random.chance(0.5) { return value(random.pick([-3, -1, 1, 2, 7] as [Int32])) }
        return Build.conditional(Build.equal(keyPath(\.small), value(Int32(0))), value(Int32(1)), keyPath(\.small))
    }

    private mutating func double(depth: Int) -> PredicateNode<Double> {
        guard depth > 0, random.chance(0.6) else {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return keyPath(\.double)
            case 1: return value(random.pick(DifferentialValues.doubles))
            default:
                return Build.coalesce(keyPath(\.optionalDouble), value(random.pick(DifferentialValues.doubles)))
            }
        }
        let lhs = double(depth: depth - 1)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Build.arithmetic(lhs, double(depth: depth - 1), .add)
        case 1: return Build.arithmetic(lhs, double(depth: depth - 1), .subtract)
        case 2: return Build.arithmetic(lhs, double(depth: depth - 1), .multiply)
        case 3: return Build.floatDivide(lhs, double(depth: depth - 1))
        default: return Build.negate(lhs)
        }
    }

    mutating func string(depth: Int) -> PredicateNode<String> {
        switch Int.random(in: 0..<(depth > 0 ? 5 : 4), using: &random) {
        case 0, 1: keyPath(\.string)
        case 2: value(random.pick(DifferentialValues.strings))
        case 3: Build.coalesce(keyPath(\.optionalString), value(random.pick(DifferentialValues.strings)))
        default: Build.conditional(condition(depth: 0), string(depth: depth - 1), string(depth: depth - 1))
        }
    }

    func keyPath<T>(_ keyPath: KeyPath<Row, T> & Sendable) -> PredicateNode<T> {
        PredicateExpressions.KeyPath(root: row!, keyPath: keyPath)
    }

    func value<T: Codable & Sendable>(_ value: T) -> PredicateNode<T> {
        PredicateExpressions.Value(value)
    }
}
