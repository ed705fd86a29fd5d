import Foundation
import SwiftDataCore

/// What SQL generation needs to know about a Swift value type to compare values of it as Swift does: how the
/// store lays the type out, and which Swift comparison its `==` and `<` are.
package indirect enum SQLValueKind: Equatable, Sendable {
    case bool
    /// A fixed-width integer whose values fit in 64-bit signed SQL integers, with the type's bounds.
    case integer(min: Int64, max: Int64)
    /// `UInt` and `UInt64`, stored as their bit pattern.
    case unsigned64
    /// `Double`; SQL `NULL` stands for NaN.
    case double
    /// `Float`, stored as the `Double` of the same value.
    case float
    /// `Decimal`, stored as decimal text.
    case decimal
    case string
    /// `Date`, stored as seconds since 2001.
    case date
    /// `UUID`, stored as its 16 bytes.
    case uuid
    case data
    /// `URL`, stored as its absolute string.
    case url
    /// A `RawRepresentable` type stored as its raw value.
    case rawValue(SQLValueKind)
    /// A `Codable` type stored as JSON text.
    case json
    /// A persistent model or its `PersistentIdentifier`, compared by key.
    case model
    /// A type the store cannot hold.
    case unknown

    /// The kind of `type`, looking through `Optional`.
    package init(_ type: Any.Type) {
        let type = SQLValueKind.unwrapped(type)
        if let kind = SQLValueKind.natives[ObjectIdentifier(type)] {
            self = kind
        } else if let integer = type as? any FixedWidthInteger.Type, let kind = SQLValueKind.integer(integer) {
            self = kind
        } else if type is any PersistentModel.Type {
            self = .model
        } else if case .rawValue(let inner)? = ValueCodec.layout(of: type)?.layout,
            let representable = type as? any RawRepresentable.Type
        {
            let rawKind = SQLValueKind(SQLValueKind.rawType(representable))
            self = inner == .json ? .unknown : .rawValue(rawKind)
        } else if ValueCodec.layout(of: type)?.layout == .json {
            self = .json
        } else {
            self = .unknown
        }
    }

    /// `type` without `Optional`s around it.
    package static func unwrapped(_ type: Any.Type) -> Any.Type {
        if let optional = type as? any _OptionalValue.Type { return unwrapped(optional._wrappedType) }
        return type
    }

    /// Whether `type` is an `Optional`.
    package static func isOptional(_ type: Any.Type) -> Bool { type is any _OptionalValue.Type }

    /// The kind of the values that compare as this kind's values do (a raw value's kind for enums).
    package var comparable: SQLValueKind {
        if case .rawValue(let inner) = self { return inner.comparable }
        return self
    }

    /// Whether SQL `NULL` of this non-optional kind stands for NaN.
    package var isFloatingPoint: Bool { self == .double || self == .float }

    private static let natives: [ObjectIdentifier: SQLValueKind] = [
        ObjectIdentifier(Bool.self): .bool, ObjectIdentifier(UInt.self): .unsigned64,
        ObjectIdentifier(UInt64.self): .unsigned64, ObjectIdentifier(Double.self): .double,
        ObjectIdentifier(Float.self): .float, ObjectIdentifier(Decimal.self): .decimal,
        ObjectIdentifier(String.self): .string, ObjectIdentifier(Date.self): .date,
        ObjectIdentifier(UUID.self): .uuid, ObjectIdentifier(Data.self): .data, ObjectIdentifier(URL.self): .url,
        ObjectIdentifier(PersistentIdentifier.self): .model,
    ]

    private static func integer<T: FixedWidthInteger>(_ type: T.Type) -> SQLValueKind? {
        guard let min = Int64(exactly: T.min), let max = Int64(exactly: T.max) else { return nil }
        return .integer(min: min, max: max)
    }

    private static func rawType<R: RawRepresentable>(_ type: R.Type) -> Any.Type { R.RawValue.self }
}
