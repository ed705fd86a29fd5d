extension Schema {
    /// One persisted property of a model class, as `@Model` describes it in `schemaMetadata`.
    public struct PropertyMetadata {
        package let name: String
        package let keyPath: AnyKeyPath
        package let defaultValue: Any?
        package let metadata: (any SchemaProperty)?

        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil)
        {
            self.name = name
            self.keyPath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}

/// A property of an entity: an attribute or a relationship.
public protocol SchemaProperty: Hashable {
    var name: String { get set }
    var originalName: String { get set }
    var valueType: any Any.Type { get set }
    var isAttribute: Bool { get }
    var isRelationship: Bool { get }
    var isTransient: Bool { get }
    var isOptional: Bool { get }
    var isUnique: Bool { get }
}

extension SchemaProperty {
    public var isAttribute: Bool { false }
    public var isRelationship: Bool { false }
    public var isTransient: Bool { false }
    public var isOptional: Bool { false }
}
