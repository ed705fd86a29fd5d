import Foundation
import SwiftDataCore

/// A value that stands for a predicate's constant in a cache key, equal only for constants that no predicate can
/// tell apart: `String`s by their UTF-8 bytes (Swift's `==` equates canonically equivalent ones, whose `utf8.count`
/// differs), floating-point numbers by their bits (`0.0 == -0.0`, but `1 / x` differs), dates by their seconds'
/// bits, `Decimal`s by value and by text. Types it cannot vouch for (structs, classes, dictionaries) have none, and
/// a predicate that holds one is translated every time.
struct ConstantFingerprint: Hashable {
    private let type: ObjectIdentifier
    private let value: Value

    /// A fingerprint's value: the common kinds of constants without boxing them (comparing and hashing an
    /// `AnyHashable` costs several times more), any other kind as an `AnyHashable`.
    private indirect enum Value: Hashable {
        case integer(Int)
        case bits(UInt64)
        case text(ExactText)
        case absent
        case wrapped(ConstantFingerprint)
        case list([ConstantFingerprint])
        case other(AnyHashable)
    }

    private init(_ type: Any.Type, _ value: Value) {
        self.type = ObjectIdentifier(type)
        self.value = value
    }

    private init(_ type: Any.Type, _ value: AnyHashable) {
        self.init(type, .other(value))
    }

    /// The fingerprint of a comparison's operator.
    static func comparison(_ op: PredicateExpressions.ComparisonOperator) -> ConstantFingerprint {
        let number =
            switch op {
            case .lessThan: 0
            case .lessThanOrEqual: 1
            case .greaterThan: 2
            case .greaterThanOrEqual: 3
            }
        return ConstantFingerprint(PredicateExpressions.ComparisonOperator.self, .integer(number))
    }

    /// The fingerprint of a constant, or `nil` when equal fingerprints could not promise equal predicates.
    static func of(_ constant: Any) -> ConstantFingerprint? {
        let type = Swift.type(of: constant)
        // The most common constants first: each test is a dynamic cast.
        if let integer = constant as? Int { return ConstantFingerprint(type, .integer(integer)) }
        if let text = constant as? String { return ConstantFingerprint(type, .text(ExactText(text))) }
        if let optional = constant as? any _OptionalValue {
            guard let wrapped = optional._wrapped else { return ConstantFingerprint(type, .absent) }
            return of(wrapped).map { ConstantFingerprint(type, .wrapped($0)) }
        }
        switch constant {
        case let text as Substring: return ConstantFingerprint(type, .text(ExactText(String(text))))
        case let character as Character: return ConstantFingerprint(type, .text(ExactText(String(character))))
        case let number as Double: return ConstantFingerprint(type, .bits(number.bitPattern))
        case let number as Float: return ConstantFingerprint(type, .bits(UInt64(number.bitPattern)))
        case let date as Date: return ConstantFingerprint(type, .bits(date.timeIntervalSinceReferenceDate.bitPattern))
        case let decimal as Decimal: return ConstantFingerprint(type, [AnyHashable(decimal), decimal.description])
        case let url as URL: return ConstantFingerprint(type, [url.absoluteString, url.baseURL?.absoluteString])
        case let data as Data: return ConstantFingerprint(type, data)
        case let bool as Bool: return ConstantFingerprint(type, .integer(bool ? 1 : 0))
        case let uuid as UUID: return ConstantFingerprint(type, uuid)
        case let identifier as PersistentIdentifier: return ConstantFingerprint(type, identifier)
        case let integer as any BinaryInteger: return ConstantFingerprint(type, AnyHashable(integer))
        default: break
        }
        if let raw = constant as? any RawRepresentable {
            return of(raw.rawValue).map { ConstantFingerprint(type, .wrapped($0)) }
        }
        let mirror = Mirror(reflecting: constant)
        switch mirror.displayStyle {
        case .collection?, .set?:
            // Arrays and sets, element by element (a set's order is its own: equal sets may miss, never collide).
            var elements: [ConstantFingerprint] = []
            for child in mirror.children {
                guard let element = of(child.value) else { return nil }
                elements.append(element)
            }
            return ConstantFingerprint(type, .list(elements))
        case .enum?:
            // A case without a payload is its own value.
            guard mirror.children.isEmpty, let hashable = constant as? any Hashable else { return nil }
            return ConstantFingerprint(type, AnyHashable(hashable))
        default:
            guard constant is any RangeExpression else { return nil }
            // Ranges and partial ranges by their bounds.
            var bounds: [ConstantFingerprint] = []
            for child in mirror.children {
                guard let bound = of(child.value) else { return nil }
                bounds.append(bound)
            }
            return ConstantFingerprint(type, .list(bounds))
        }
    }

    /// A string equal only to one of the same UTF-8 bytes.
    private struct ExactText: Hashable {
        let text: String

        init(_ text: String) {
            self.text = text
        }

        static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
