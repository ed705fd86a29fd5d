extension Schema {
    /// One persisted property of a model class, as `@Model` describes it in `schemaMetadata`.
    public struct PropertyMetadata {
        package let name: String
        package let keyPath: AnyKeyPath
        package let defaultValue: Any?
        package let metadata: (any SchemaProperty)?

        /// A property named `name` at `keypath`, with its initial value and its `@Attribute` or `@Relationship`
        /// description, if it has one.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil)
        {
            self.name = name
            self.keyPath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}

/// A property of an entity: an attribute or a relationship (or a unique constraint or an index, which an entity
/// keeps as its `uniquenessConstraints` and `indices`).
public protocol SchemaProperty: Codable, Hashable {
    /// The property's name in the model class.
    var name: String { get set }
    /// The name the property had in an earlier version of the schema, which a migration renames; the property's
    /// own name when it was not renamed.
    var originalName: String { get set }
    /// The property's type.
    var valueType: any Any.Type { get set }
    /// Whether the property is an attribute: a value stored with the model.
    var isAttribute: Bool { get }
    /// Whether the property is a relationship to other models.
    var isRelationship: Bool { get }
    /// Whether the property is not stored (`.ephemeral` attributes).
    var isTransient: Bool { get }
    /// Whether the property's type is optional.
    var isOptional: Bool { get }
    /// Whether no two models may have the same value of the property (`.unique`).
    var isUnique: Bool { get }
}

extension SchemaProperty {
    /// `false` unless the property says otherwise.
    public var isAttribute: Bool { false }
    /// `false` unless the property says otherwise.
    public var isRelationship: Bool { false }
    /// `false` unless the property says otherwise.
    public var isTransient: Bool { false }
    /// `false` unless the property says otherwise.
    public var isOptional: Bool { false }
}
