import Foundation

extension Schema {
    // @unchecked Sendable as `Attribute` is (restated, as Swift asks of a subclass): its `properties` are set while
    // a schema is built, before the schema is shared.

    /// An attribute whose value is a `Codable` struct, described by the attributes of its members. A model's
    /// property of such a type is one: `properties` lists the struct's coding keys with their types (nested structs
    /// are composite attributes in turn). The store keeps the value in one column, as JSON text with sorted keys, so
    /// that predicates reach its members (`$0.address.city == "Paris"`) and it round-trips exactly.
    public final class CompositeAttribute: Attribute, @unchecked Sendable {
        /// The attributes of the members.
        public var properties: [Attribute]

        /// A composite attribute of a `Codable` struct type, with its members found from the type.
        public override init(
            name: String, originalName: String? = nil, options: [Option] = [], valueType: any Any.Type,
            defaultValue: Any? = nil, hashModifier: String? = nil
        ) {
            let wrapped = (valueType as? any _OptionalValue.Type)?._wrappedType ?? valueType
            properties = CompositeMembers.of(wrapped) ?? []
            super.init(
                name: name, originalName: originalName, options: options, valueType: valueType,
                defaultValue: defaultValue, hashModifier: hashModifier)
        }

        /// A composite attribute with the given members.
        init(name: String, valueType: any Any.Type, properties: [Attribute]) {
            self.properties = properties
            super.init(name: name, valueType: valueType)
        }

        /// `attribute` as a composite of `properties`, with its options, names and default value.
        init(_ attribute: Attribute, properties: [Attribute]) {
            self.properties = properties
            super.init(
                name: attribute.name, originalName: attribute.originalName, options: attribute.options,
                valueType: attribute.valueType, defaultValue: attribute.defaultValue,
                hashModifier: attribute.hashModifier)
        }

        private enum CodingKeys: String, CodingKey { case properties }

        /// A composite attribute as `encode(to:)` wrote it, with its members.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            properties = try container.decode([SchemaPropertyCoding].self, forKey: .properties).compactMap {
                $0.property as? Attribute
            }
            try super.init(from: decoder)
        }

        public override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(properties.map(SchemaPropertyCoding.init), forKey: .properties)
        }

        override var members: [Attribute]? { properties }

        public override var debugDescription: String {
            "CompositeAttribute(\(name): \(valueType) { \(properties.map(\.debugDescription).joined(separator: ", ")) })"
        }
    }
}
