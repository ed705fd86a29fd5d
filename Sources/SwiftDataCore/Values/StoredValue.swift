import Foundation

/// One value as a store holds it: the five SQLite storage classes. Used where values travel apart from a
/// model: predicate constants, default values, schema descriptions.
public enum StoredValue: Hashable, Sendable, CustomStringConvertible {
    /// No value: `nil`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// Encodes any storable Swift value the way a model's attribute of that type is stored.
    public init<Value>(encoding value: Value) throws {
        let capture = StoredValueCapture()
        try ValueCodec.encode(value, to: capture, parameter: 0)
        self = capture.value
    }

    /// Whether two values are the same bits: unlike `==`, `-0.0` differs from `0.0`, and NaN equals NaN.
    package func isIdentical(to other: StoredValue) -> Bool {
        if case .real(let left) = self, case .real(let right) = other { return left.bitPattern == right.bitPattern }
        return self == other
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

/// A writer that keeps the single value written to it.
final class StoredValueCapture: _RowWriter {
    var value = StoredValue.null
    func bindNull(_ parameter: Int32) throws { value = .null }
    func bind(_ value: Int64, _ parameter: Int32) throws { self.value = .integer(value) }
    func bind(_ value: Double, _ parameter: Int32) throws { self.value = value.isNaN ? .null : .real(value) }
    func bind(_ value: String, _ parameter: Int32) throws { self.value = .text(value) }
    func bind(_ value: Data, _ parameter: Int32) throws { self.value = .blob(value) }
}
