import Foundation

/// How an attribute with a custom stored form is converted: through a value transformer (`.transformable`), or
/// as its encoded `Codable` form (`.codable`). Both are stored as data, encoded and decoded here, in Core.
///
/// `@unchecked Sendable` because a `ValueTransformer` is a class: transformers are registered once and only read
/// after, as Foundation's are.
package enum AttributeCoding: @unchecked Sendable {
    case transformer(ValueTransformer)
    case codable(any Codable.Type)

    /// The coding an attribute's options ask for, or `nil` when it is stored as usual.
    static func of(_ attribute: Schema.Attribute) throws -> AttributeCoding? {
        if let name = attribute.options.lazy.compactMap(\.transformerName).first {
            guard let transformer = ValueTransformer.named(NSValueTransformerName(name)) else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "no value transformer is registered under the name '\(name)'", property: attribute.name,
                    suggestion:
                        "Register one with ValueTransformer.setValueTransformer(_:forName:) before creating the container"
                )
            }
            return .transformer(transformer)
        }
        if attribute.options.contains(.codable) {
            let type = (attribute.valueType as? any _OptionalValue.Type)?._wrappedType ?? attribute.valueType
            guard let codable = type as? any Codable.Type else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(type) is not Codable, so the .codable option cannot store it", property: attribute.name,
                    suggestion: "Make the type Codable, or remove the option")
            }
            return .codable(codable)
        }
        return nil
    }

    /// The stored form of a property's value: data, or `null` for `nil` or an empty optional.
    package func encode(_ value: Any?) throws -> StoreValue {
        guard let value = value.flatMap(ValueCodec.unwrapped) else { return .null }
        switch self {
        case .transformer(let transformer):
            guard let data = transformer.transformedValue(value) as? Data else {
                throw SwiftDataError.modelValidationFailure.with(
                    reason: "\(type(of: transformer)) did not turn a \(type(of: value)) into Data",
                    suggestion: "Return Data from transformedValue(_:)")
            }
            return .data(data)
        case .codable:
            guard let encodable = value as? any Encodable else { return .null }
            return .data(try JSONEncoder().encode(encodable))
        }
    }

    /// The property value of a stored form (`nil` when there is no data, or the transformer returns none).
    package func decode(_ stored: Data?) throws -> Any? {
        guard let data = stored else { return nil }
        switch self {
        case .transformer(let transformer):
            return transformer.reverseTransformedValue(data)
        case .codable(let type):
            do {
                return try JSONDecoder().decode(type, from: data)
            } catch {
                throw SwiftDataError.corruptValue("the stored data is not a valid \(type): \(error)")
            }
        }
    }
}

extension ValueCodec {
    /// The value inside any number of optionals, or `nil` when one of them is empty.
    static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any _OptionalValue else { return value }
        return optional._wrapped.flatMap(unwrapped)
    }
}
