import Foundation

extension Schema {
    /// A persisted value property of a model class.
    ///
    /// `Codable` as Apple's is, except that the default value is kept only when it is `Codable` itself, and the
    /// value type is found again by its mangled name in the running program (`Any` when it has none).
    /// `@unchecked Sendable` as `Schema` is: settable only while it is built, before it is shared.
    public class Attribute: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        /// The property's name in the model class.
        public var name: String
        /// The name the property had in an earlier version of the schema (`@Attribute(originalName:)`); its own
        /// name when it was not renamed.
        public var originalName: String
        /// The `@Attribute` options.
        public var options: [Option]
        /// The property's type.
        public var valueType: any Any.Type
        /// The property's initial value in the class, which stores also use as the column's default.
        public var defaultValue: Any?
        /// Whether the property's type is optional.
        public var isOptional: Bool
        /// `@Attribute(hashModifier:)`, kept in the schema; unlike Apple's, changing it alone does not migrate a store.
        public var hashModifier: String?

        /// The property's position in `schemaMetadata`.
        package var index = 0
        /// The model's key path to the property.
        package var keyPath: AnyKeyPath?
        /// How values are laid out in a column; `nil` when the type cannot be stored.
        package var layout: ValueCodec.Layout?
        /// The conversion of a `.transformable` or `.codable` attribute.
        package var coding: AttributeCoding?
        /// Whether the store keeps the value apart from the row (`.externalStorage` on data).
        package var isExternal: Bool { options.contains(.externalStorage) && layout == .native(.data) }

        /// The form `@Attribute(...)` takes: options and names, with the rest filled in from the property.
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.isOptional = false
            self.hashModifier = hashModifier
        }

        /// A complete description of an attribute, as a schema built by hand has it.
        public init(
            name: String, originalName: String? = nil, options: [Option] = [], valueType: any Any.Type,
            defaultValue: Any? = nil, hashModifier: String? = nil
        ) {
            self.name = name
            self.originalName = originalName ?? name
            self.options = options
            self.valueType = valueType
            self.defaultValue = defaultValue
            self.hashModifier = hashModifier
            let layout = ValueCodec.layout(of: valueType)
            self.layout = layout?.layout
            self.isOptional = layout?.isOptional ?? false
        }

        private enum CodingKeys: String, CodingKey {
            case name, originalName, options, valueType, defaultValue, isOptional, hashModifier
        }

        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decode(String.self, forKey: .originalName)
            options = try container.decode([Option].self, forKey: .options)
            valueType = try container.decode(ValueTypeName.self, forKey: .valueType).type
            isOptional = try container.decode(Bool.self, forKey: .isOptional)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            if container.contains(.defaultValue), let type = valueType as? any Decodable.Type {
                defaultValue = try container.decode(type, forKey: .defaultValue)
            }
            coding = try? AttributeCoding.of(self)
            layout = coding == nil ? ValueCodec.layout(of: valueType)?.layout : .native(.data)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encode(ValueTypeName(valueType), forKey: .valueType)
            if let value = defaultValue.flatMap(ValueCodec.unwrapped), let encodable = value as? any Encodable {
                try container.encode(encodable, forKey: .defaultValue)
            }
            try container.encode(isOptional, forKey: .isOptional)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        }

        /// `true`: an attribute is a value stored with the model.
        public var isAttribute: Bool { true }
        /// `false`: an attribute is not a relationship.
        public var isRelationship: Bool { false }
        /// Whether the attribute is `.ephemeral`: tracked in the context, not stored.
        public var isTransient: Bool { options.contains(.ephemeral) }
        /// Whether the attribute is `.unique`.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the attribute is stored through a `ValueTransformer` (`.transformable(by:)`).
        public var isTransformable: Bool { options.contains { $0.transformerName != nil } }
        /// Whether the attribute is stored as its `Codable` encoding (`.codable`).
        public var isCodable: Bool { options.contains(.codable) }

        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.valueType == rhs.valueType && lhs.isOptional == rhs.isOptional
                && lhs.hashModifier == rhs.hashModifier && lhs.members == rhs.members
        }

        /// The attributes a composite attribute is made of; `nil` for others.
        var members: [Attribute]? { nil }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(ObjectIdentifier(valueType))
        }

        public var debugDescription: String {
            "Attribute(\(name): \(valueType)\(options.isEmpty ? "" : ", \(options)"))"
        }
    }
}

extension Schema.Attribute {
    /// An option of an attribute.
    public struct Option: Hashable, Codable, Sendable, CustomDebugStringConvertible {
        private let kind: String
        package let transformerName: String?

        private init(_ kind: String, transformerName: String? = nil) {
            self.kind = kind
            self.transformerName = transformerName
        }

        /// The value is unique among all models of the entity.
        public static var unique: Option { Option("unique") }
        /// The value is stored in a file beside the store.
        public static var externalStorage: Option { Option("externalStorage") }
        /// Accepted for compatibility; has no effect on Linux.
        public static var allowsCloudEncryption: Option { Option("allowsCloudEncryption") }
        /// Keep the value in the history when the model is deleted: a `HistoryDelete`'s `tombstone` holds it.
        public static var preserveValueOnDeletion: Option { Option("preserveValueOnDeletion") }
        /// Track changes to the value, but never store it.
        public static var ephemeral: Option { Option("ephemeral") }
        /// Accepted for compatibility; has no effect on Linux.
        public static var spotlight: Option { Option("spotlight") }
        /// Store the value in its `Codable` form.
        public static var codable: Option { Option("codable") }
        /// Store the value through the value transformer registered under this name.
        public static func transformable(by transformerName: String) -> Option {
            Option("transformable", transformerName: transformerName)
        }

        /// Store the value through a transformer of this class (registered under its class name when it is not
        /// registered yet).
        public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
            let name = NSValueTransformerName(String(describing: transformerType))
            if ValueTransformer.named(name) == nil {
                ValueTransformer.setValueTransformer(transformerType.init(), forName: name)
            }
            return Option("transformable", transformerName: name.rawValue)
        }

        /// Not an attribute option: delete rules belong to `@Relationship(deleteRule:)`. It exists so that
        /// `@Attribute(.cascade)` reaches `@Model`, which rejects it with a fix-it; a container refuses a schema
        /// that still has it.
        public static var cascade: Option { Option("cascade") }

        public var debugDescription: String { transformerName.map { "\(kind)(\($0))" } ?? kind }
    }
}

extension Schema.Attribute {
    /// The stored form of a value of the attribute, as its row holds it: encoded by its coding (`.transformable`,
    /// `.codable`) when it has one, `null` for `nil` or an empty optional.
    package func storedValue(of value: Any?) throws -> StoreValue {
        try coding?.encode(value) ?? (value.map { try StoreValue(encoding: $0) } ?? .null)
    }
}
