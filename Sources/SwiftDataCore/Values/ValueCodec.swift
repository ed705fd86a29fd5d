import Foundation

/// Encodes and decodes attribute types that are not stored natively, decided at run time:
/// optionals, `RawRepresentable` types (stored as their raw value) and any other `Codable` value (stored as
/// JSON text with sorted keys, so equal values have equal text).
@usableFromInline
package enum ValueCodec {
    /// How a Swift type is laid out in a store's column, by meaning.
    package enum Layout: Sendable, Equatable {
        /// A type every store holds as a value of its own meaning.
        case native(StoreValueType)
        /// A `RawRepresentable` type stored as its raw value's layout.
        indirect case rawValue(Layout)
        /// A `Codable` value stored as JSON.
        case json

        /// The meaning of the values a column of this layout holds.
        package var valueType: StoreValueType {
            switch self {
            case .native(let type): type
            case .rawValue(let inner): inner.valueType
            case .json: .json
            }
        }
    }

    /// The layout of `type` and whether it is optional, or `nil` when the type cannot be stored.
    package static func layout(of type: Any.Type) -> (layout: Layout, isOptional: Bool)? {
        if let optional = type as? any _OptionalValue.Type {
            return layout(of: optional._wrappedType).map { ($0.layout, true) }
        }
        if let native = nativeTypes[ObjectIdentifier(type)] { return (.native(native), false) }
        if let raw = type as? any RawRepresentable.Type, let inner = rawLayout(raw) { return (.rawValue(inner), false) }
        if type is any Codable.Type { return (.json, false) }
        return nil
    }

    /// The value type of each type every store holds natively (`_PersistentValue`'s conformances).
    private static let nativeTypes: [ObjectIdentifier: StoreValueType] = [
        ObjectIdentifier(Bool.self): .bool, ObjectIdentifier(Int.self): .int64, ObjectIdentifier(Int8.self): .int64,
        ObjectIdentifier(Int16.self): .int64, ObjectIdentifier(Int32.self): .int64,
        ObjectIdentifier(Int64.self): .int64,
        ObjectIdentifier(UInt8.self): .int64, ObjectIdentifier(UInt16.self): .int64,
        ObjectIdentifier(UInt32.self): .int64, ObjectIdentifier(UInt.self): .uint64,
        ObjectIdentifier(UInt64.self): .uint64, ObjectIdentifier(Double.self): .double,
        ObjectIdentifier(Float.self): .double, ObjectIdentifier(Decimal.self): .decimal,
        ObjectIdentifier(String.self): .string, ObjectIdentifier(Data.self): .data, ObjectIdentifier(Date.self): .date,
        ObjectIdentifier(UUID.self): .uuid, ObjectIdentifier(URL.self): .url,
    ]

    private static func rawLayout<R: RawRepresentable>(_ type: R.Type) -> Layout? {
        guard let (inner, isOptional) = layout(of: R.RawValue.self), !isOptional else { return nil }
        return inner
    }

    /// Decodes `Value` from the column.
    @usableFromInline
    package static func decode<Value>(_ type: Value.Type, from reader: some _RowReader, column: Int32) throws -> Value {
        if let optional = type as? any _OptionalValue.Type {
            if reader.isNull(column) { return optional._none as! Value }
            return try decodeWrapped(optional, from: reader, column: column) as! Value
        }
        return try decodeAny(type, from: reader, column: column) as! Value
    }

    private static func decodeWrapped<O: _OptionalValue>(
        _ type: O.Type, from reader: some _RowReader, column: Int32
    ) throws -> O {
        O._wrap(try decodeAny(O._wrappedType, from: reader, column: column))
    }

    private static func decodeAny(_ type: Any.Type, from reader: some _RowReader, column: Int32) throws -> Any {
        if let native = type as? any _PersistentValue.Type {
            return try native._decode(from: reader, column: column)
        }
        if let raw = type as? any RawRepresentable.Type {
            return try decodeRaw(raw, from: reader, column: column)
        }
        if let decodable = type as? any Decodable.Type {
            return try decodeJSON(decodable, text: reader.json(column))
        }
        throw SwiftDataError.unsupportedType(String(describing: type))
    }

    private static func decodeRaw<R: RawRepresentable>(
        _ type: R.Type, from reader: some _RowReader, column: Int32
    ) throws -> R {
        let raw = try decode(R.RawValue.self, from: reader, column: column)
        guard let value = R(rawValue: raw) else {
            throw SwiftDataError.corruptValue("\(raw) is not a raw value of \(R.self)")
        }
        return value
    }

    private static func decodeJSON<D: Decodable>(_ type: D.Type, text: String) throws -> D {
        do {
            return try JSONDecoder().decode(D.self, from: Data(text.utf8))
        } catch {
            throw SwiftDataError.corruptValue("the stored JSON is not a valid \(D.self): \(error)")
        }
    }

    /// Encodes `value` into the parameter.
    @usableFromInline
    package static func encode<Value>(_ value: Value, to writer: some _RowWriter, parameter: Int32) throws {
        if let optional = value as? any _OptionalValue {
            guard let wrapped = optional._wrapped else { return try writer.bindNull(parameter) }
            return try encodeAny(wrapped, to: writer, parameter: parameter)
        }
        try encodeAny(value, to: writer, parameter: parameter)
    }

    private static func encodeAny(_ value: Any, to writer: some _RowWriter, parameter: Int32) throws {
        if let native = value as? any _PersistentValue {
            return try native._encode(to: writer, parameter: parameter)
        }
        if let raw = value as? any RawRepresentable {
            return try encode(raw.rawValue, to: writer, parameter: parameter)
        }
        if let encodable = value as? any Encodable {
            return try writer.bindJSON(try jsonText(encodable), parameter)
        }
        throw SwiftDataError.unsupportedType(String(describing: type(of: value)))
    }

    /// The JSON text stored for a `Codable` value.
    package static func jsonText(_ value: any Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// Lets the codec see through `Optional` without knowing its wrapped type statically (internal plumbing; not API).
public protocol _OptionalValue {
    static var _wrappedType: Any.Type { get }
    static var _none: Self { get }
    static func _wrap(_ value: Any) -> Self
    var _wrapped: Any? { get }
}

extension Optional: _OptionalValue {
    public static var _wrappedType: Any.Type { Wrapped.self }
    public static var _none: Wrapped? { nil }
    public static func _wrap(_ value: Any) -> Wrapped? { value as? Wrapped }
    public var _wrapped: Any? { self.map { $0 as Any } }
}
