import Foundation

/// A value as it crosses the seam between Core and a store: what it means, not how the store keeps it. Each store
/// picks the physical form (the SQLite store keeps a date as seconds since 2001, a UUID as 16 bytes and NaN as
/// NULL; another store may use native types). Values travel this way apart from a model: predicate constants,
/// default values, unique-constraint values, coded attributes and snapshots.
package enum StoreValue: Hashable, Sendable {
    /// No value: `nil`.
    case null
    case bool(Bool)
    /// Every signed integer width, and unsigned ones below 64 bits.
    case int64(Int64)
    /// `UInt` and `UInt64`.
    case uint64(UInt64)
    /// `Double` and `Float`.
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    case url(URL)
    /// A `Codable` value as JSON text with sorted keys, so that equal values have equal text.
    case json(String)

    /// Encodes any storable Swift value as a model's attribute of that type is stored (`RawRepresentable` values as
    /// their raw value, other `Codable` values as JSON).
    package init<Value>(encoding value: Value) throws {
        let capture = StoreValueCapture()
        try ValueCodec.encode(value, to: capture, parameter: 0)
        self = capture.value
    }

    /// The value's type, or `nil` for `null`.
    package var type: StoreValueType? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .data: .data
        case .date: .date
        case .uuid: .uuid
        case .url: .url
        case .json: .json
        }
    }

    /// Whether two values are the same bits: unlike `==`, `-0.0` differs from `0.0`, and NaN equals NaN.
    package func isIdentical(to other: StoreValue) -> Bool {
        if case .double(let left) = self, case .double(let right) = other { return left.bitPattern == right.bitPattern }
        return self == other
    }
}

/// The types of `StoreValue`: what a store's column of an attribute holds, by meaning.
package enum StoreValueType: String, Hashable, Sendable, Codable, CaseIterable {
    case bool, int64, uint64, double, decimal, string, data, date, uuid, url, json
}

extension StoreValue: CustomStringConvertible {
    package var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): String(value)
        case .int64(let value): String(value)
        case .uint64(let value): String(value)
        case .double(let value): String(value)
        case .decimal(let value): value.description
        case .string(let value): "'\(value)'"
        case .data(let value): "<\(value.count) bytes>"
        case .date(let value): value.description
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .json(let value): value
        }
    }
}

/// A writer that keeps the single value written to it.
final class StoreValueCapture: _RowWriter {
    var value = StoreValue.null
    func bindNull(_ parameter: Int32) throws { value = .null }
    func bind(_ value: Bool, _ parameter: Int32) throws { self.value = .bool(value) }
    func bind(_ value: Int64, _ parameter: Int32) throws { self.value = .int64(value) }
    func bind(_ value: UInt64, _ parameter: Int32) throws { self.value = .uint64(value) }
    func bind(_ value: Double, _ parameter: Int32) throws { self.value = .double(value) }
    func bind(_ value: Decimal, _ parameter: Int32) throws { self.value = .decimal(value) }
    func bind(_ value: String, _ parameter: Int32) throws { self.value = .string(value) }
    func bind(_ value: Data, _ parameter: Int32) throws { self.value = .data(value) }
    func bind(_ value: Date, _ parameter: Int32) throws { self.value = .date(value) }
    func bind(_ value: UUID, _ parameter: Int32) throws { self.value = .uuid(value) }
    func bind(_ value: URL, _ parameter: Int32) throws { self.value = .url(value) }
    func bindJSON(_ text: String, _ parameter: Int32) throws { value = .json(text) }
    func bindExternal(_ data: Data, _ parameter: Int32) throws { value = .data(data) }
}
