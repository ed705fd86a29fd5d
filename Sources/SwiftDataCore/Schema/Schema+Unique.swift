import Foundation

extension Schema {
    /// The unique constraints of a model, as `#Unique<T>` declares them: each a list of key paths whose values
    /// together are unique among the models. Given to `Schema.Entity(_:properties:)`, it becomes the entity's
    /// `uniquenessConstraints`. Archived by property names.
    public final class Unique<T: PersistentModel>: SchemaProperty, CustomDebugStringConvertible {
        /// `<Entity>_unique`.
        public var name: String
        public var originalName: String
        /// The model type.
        public var valueType: any Any.Type
        public var isUnique: Bool { true }
        /// The constraints: key paths of stored attributes or to-one relationships.
        public let constraints: [[PartialKeyPath<T>]]

        /// Unique constraints, each on a list of properties.
        public init(_ constraints: [PartialKeyPath<T>]...) {
            self.constraints = constraints
            name = "\(Schema.entityName(for: T.self))_unique"
            originalName = name
            valueType = T.self
        }

        /// The keys of the archived form.
        public enum CodingKeys: CodingKey {
            /// The constraints, as property names.
            case constraints
        }

        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let names = try container.decode([[String]].self, forKey: .constraints)
            constraints = try names.map { try $0.map { try PropertyNames.keyPath(named: $0, in: T.self, container) } }
            name = "\(Schema.entityName(for: T.self))_unique"
            originalName = name
            valueType = T.self
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(try PropertyNames.names(of: constraints, encoder), forKey: .constraints)
        }

        public static func == (lhs: Unique<T>, rhs: Unique<T>) -> Bool { lhs.constraints == rhs.constraints }
        public func hash(into hasher: inout Hasher) { hasher.combine(constraints) }

        public var debugDescription: String { "Unique<\(T.self)>(\(constraints))" }
    }
}

/// Property names of a model's key paths, and key paths of its property names, for archiving constraints.
enum PropertyNames {
    /// The stored property of `T` that `keyPath` names, or `nil`.
    static func name<T: PersistentModel>(of keyPath: AnyKeyPath, in type: T.Type) -> String? {
        T.schemaMetadata.first { $0.keyPath == keyPath }?.name
    }

    /// The names of key paths of `T`'s stored properties; another key path cannot be archived.
    static func names<T: PersistentModel>(of lists: [[PartialKeyPath<T>]], _ encoder: any Encoder) throws -> [[String]]
    {
        try lists.map { keyPaths in
            try keyPaths.map { keyPath in
                guard let name = name(of: keyPath, in: T.self) else {
                    throw EncodingError.invalidValue(
                        keyPath,
                        .init(
                            codingPath: encoder.codingPath,
                            debugDescription: "\(keyPath) is not a stored property of \(T.self)"))
                }
                return name
            }
        }
    }

    /// The key path of `T`'s stored property `name`.
    static func keyPath<T: PersistentModel, Key: CodingKey>(
        named name: String, in type: T.Type, _ container: KeyedDecodingContainer<Key>
    ) throws -> PartialKeyPath<T> {
        guard let keyPath = T.schemaMetadata.first(where: { $0.name == name })?.keyPath as? PartialKeyPath<T> else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "\(T.self) has no stored property named '\(name)'"))
        }
        return keyPath
    }
}
