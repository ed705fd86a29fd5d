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

    /// A schema of the given model types and every model their relationships reach.
    public convenience init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var entities: [Entity] = []
        var seen = Set<ObjectIdentifier>()
        var pending = types
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let entity = Entity(modelType: type)
            entities.append(entity)
            pending += entity.relationships.compactMap(\.destinationType)
        }
        self.init(entities: entities, version: version)
    }

    /// The schema of a versioned schema's models.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// A schema of already-built entities.
    package init(entities: [Entity], version: Version) {
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
