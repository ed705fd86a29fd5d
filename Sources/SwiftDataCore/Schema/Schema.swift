import Foundation

/// The entities of a container: one per model class, with their attributes and relationships.
///
/// `Codable`, and saved to or loaded from a file, as Apple's is (see `Schema+Codable.swift` for what a decoded
/// schema lacks).
///
/// `@unchecked Sendable`, as Apple's is `Sendable`: its properties are settable as in Apple's API, but only while a
/// schema is built by hand, before it is shared; the framework never changes a schema a container uses.
public final class Schema: Hashable, @unchecked Sendable, CustomDebugStringConvertible {
    /// The version of the schema encoding.
    public static let schemaEncodingVersion = Version(1, 0, 0)
    /// The version of the schema encoding this schema was made with: `schemaEncodingVersion`.
    public let encodingVersion: Version
    /// The schema's version: the one given, or a `VersionedSchema`'s identifier; `1.0.0` by default.
    public let version: Version
    /// One entity per model class.
    public let entities: [Entity]
    /// The entities by name.
    public let entitiesByName: [String: Entity]

    /// An empty schema.
    public convenience init() {
        self.init(entities: [], version: Version(1, 0, 0))
    }

    /// A schema of the given entities.
    public convenience init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        self.init(entities: entities, version: version)
    }

    /// A schema of the given model types and every model their relationships reach.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// A schema of the given model types, the model classes they inherit from, and every model their
    /// relationships reach. Subclasses of a model class are in the schema when they are listed (or reached), as
    /// Apple's SwiftData requires them to be.
    public convenience init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var entities: [Entity] = []
        var seen = Set<ObjectIdentifier>()
        var pending = types
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let entity = Entity(modelType: type)
            entities.append(entity)
            if let superclass = entity.superModelType { pending.append(superclass) }
            pending += entity.storedProperties.compactMap { ($0 as? Relationship)?.destinationType }
        }
        self.init(entities: entities, version: version)
    }

    /// The schema of a versioned schema's models.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// A schema of already-built entities.
    package init(entities: [Entity], version: Version) {
        Schema.linkHierarchies(entities)
        RelationshipResolver.resolve(entities)
        for relationship in entities.lazy.flatMap(\.orderedRelationships) {
            relationship.inverseName = relationship.inverse?.name
        }
        self.entities = entities
        self.version = version
        self.encodingVersion = Schema.schemaEncodingVersion
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity of a model type, if the schema has it.
    public func entity<T: PersistentModel>(for type: T.Type) -> Entity? {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// The entity name of a model type: its class name.
    public static func entityName<T: PersistentModel>(for type: T.Type) -> String {
        String(describing: type)
    }

    /// The superclass of a model class when it is a model class too.
    package static func superModelType(of type: any PersistentModel.Type) -> (any PersistentModel.Type)? {
        _getSuperclass(type) as? any PersistentModel.Type
    }

    /// Whether `type` is `ancestor` or one of its subclasses.
    package static func inherits(_ type: any PersistentModel.Type, from ancestor: any PersistentModel.Type) -> Bool {
        var current: AnyClass? = type
        while let next = current {
            if ObjectIdentifier(next) == ObjectIdentifier(ancestor) { return true }
            current = _getSuperclass(next)
        }
        return false
    }

    /// Whether models of one type can be models of the other: one inherits from the other.
    package static func typesOverlap(_ one: any PersistentModel.Type, _ other: any PersistentModel.Type) -> Bool {
        inherits(one, from: other) || inherits(other, from: one)
    }

    /// Makes each entity of a model subclass a subentity of its superclass's entity, parents first. An entity
    /// without a model class (decoded, or built by hand) names its superentity.
    private static func linkHierarchies(_ entities: [Entity]) {
        let byType = Dictionary(
            entities.compactMap { entity in entity.modelType.map { (ObjectIdentifier($0), entity) } },
            uniquingKeysWith: { first, _ in first })
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func parent(of entity: Entity) -> Entity? {
            if let superclass = entity.superModelType { return byType[ObjectIdentifier(superclass)] }
            return entity.modelType == nil ? entity.superentityName.flatMap { byName[$0] } : nil
        }
        func link(_ entity: Entity) {
            guard let parent = parent(of: entity), parent !== entity, entity.superentity !== parent else { return }
            link(parent)
            entity.inherit(from: parent)
        }
        entities.forEach(link)
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities)
    }

    public var debugDescription: String {
        "Schema(\(version): \(entities.map(\.debugDescription).joined(separator: ", ")))"
    }
}
