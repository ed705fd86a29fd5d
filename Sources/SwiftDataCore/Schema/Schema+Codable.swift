import Foundation

/// `Schema` is `Codable` as Apple's is, and saves to and loads from a file. A decoded schema describes the models
/// (entities, attributes with their value types, relationships paired with their inverses by name, constraints and
/// indexes) but holds no model classes or key paths, so it can be compared with another schema or inspected, not
/// used to open a container.
extension Schema: Codable {
    private enum CodingKeys: String, CodingKey { case encodingVersion, version, entities }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entities = try container.decode([Entity].self, forKey: .entities)
        // A hierarchy links its entities by their superentities' names (the copies of subentities nested in their
        // superentities' coding are left out).
        for entity in entities where !entity.subentities.isEmpty { entity.subentities = [] }
        // Pair relationships with the inverses they recorded, before the resolver would infer any.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            for relationship in entity.orderedRelationships {
                guard let inverseName = relationship.inverseName,
                    let inverse = byName[relationship.destination]?.relationshipsByName[inverseName]
                else { continue }
                relationship.inverse = inverse
                inverse.inverse = relationship
            }
        }
        self.init(entities: entities, version: try container.decode(Version.self, forKey: .version))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodingVersion, forKey: .encodingVersion)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }

    /// Writes the schema to a file, as JSON.
    public func save(to toURL: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: toURL, options: .atomic)
        } catch {
            throw SwiftDataError.storeError.with(
                reason: "the schema cannot be written to \(toURL.path): \(error.localizedDescription)",
                suggestion: "Choose a location the program can write to")
        }
    }

    /// Reads a schema that `save(to:)` wrote.
    public static func load(from fromURL: URL) throws -> Schema {
        let data: Data
        do {
            data = try Data(contentsOf: fromURL)
        } catch {
            throw SwiftDataError.storeError.with(
                reason: "the schema file \(fromURL.path) cannot be read: \(error.localizedDescription)",
                suggestion: "Check that the file exists and can be read")
        }
        do {
            return try JSONDecoder().decode(Schema.self, from: data)
        } catch {
            throw SwiftDataError.unknownSchema.with(
                reason: "\(fromURL.path) is not a saved schema: \(error)",
                suggestion: "Load a file that Schema.save(to:) wrote")
        }
    }
}

extension Schema.Entity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, superentityName, subentities, properties, uniquenessConstraints, indices, spatialIndices,
            searchIndices
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .name))
        superentityName = try container.decodeIfPresent(String.self, forKey: .superentityName)
        subentities = Set(try container.decodeIfPresent([Schema.Entity].self, forKey: .subentities) ?? [])
        for (index, coded) in try container.decode([SchemaPropertyCoding].self, forKey: .properties).enumerated() {
            if let attribute = coded.property as? Schema.Attribute { attribute.index = index }
            if let relationship = coded.property as? Schema.Relationship { relationship.index = index }
            add(coded.property)
        }
        uniquenessConstraints = try container.decode([[String]].self, forKey: .uniquenessConstraints)
        indices = try container.decode([[String]].self, forKey: .indices)
        spatialIndices = try container.decodeIfPresent([[String]].self, forKey: .spatialIndices) ?? []
        searchIndices = try container.decodeIfPresent([[String]].self, forKey: .searchIndices) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(superentityName, forKey: .superentityName)
        if !subentities.isEmpty { try container.encode(Array(subentities), forKey: .subentities) }
        try container.encode(storedProperties.map(SchemaPropertyCoding.init), forKey: .properties)
        try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
        try container.encode(indices, forKey: .indices)
        if !spatialIndices.isEmpty { try container.encode(spatialIndices, forKey: .spatialIndices) }
        if !searchIndices.isEmpty { try container.encode(searchIndices, forKey: .searchIndices) }
    }
}

extension Schema.Relationship {
    private enum CodingKeys: String, CodingKey {
        case name, originalName, options, valueType, destination, deleteRule, inverseName, minimumModelCount
        case maximumModelCount, hashModifier, isToOneRelationship, isOptional
    }

    /// A relationship as `encode(to:)` wrote it; its key paths are `nil` (key paths cannot be archived).
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            deleteRule: try container.decode(DeleteRule.self, forKey: .deleteRule),
            minimumModelCount: try container.decodeIfPresent(Int.self, forKey: .minimumModelCount),
            maximumModelCount: try container.decodeIfPresent(Int.self, forKey: .maximumModelCount),
            hashModifier: try container.decodeIfPresent(String.self, forKey: .hashModifier))
        name = try container.decode(String.self, forKey: .name)
        originalName = try container.decode(String.self, forKey: .originalName)
        options = try container.decode([Option].self, forKey: .options)
        valueType = try container.decode(ValueTypeName.self, forKey: .valueType).type
        destination = try container.decode(String.self, forKey: .destination)
        inverseName = try container.decodeIfPresent(String.self, forKey: .inverseName)
        isToOneRelationship = try container.decode(Bool.self, forKey: .isToOneRelationship)
        isOptional = try container.decode(Bool.self, forKey: .isOptional)
        destinationType = Schema.Entity.relationshipDestination(valueType)?.type
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(originalName, forKey: .originalName)
        try container.encode(options, forKey: .options)
        try container.encode(ValueTypeName(valueType), forKey: .valueType)
        try container.encode(destination, forKey: .destination)
        try container.encode(deleteRule, forKey: .deleteRule)
        try container.encodeIfPresent(inverseName, forKey: .inverseName)
        try container.encodeIfPresent(minimumModelCount, forKey: .minimumModelCount)
        try container.encodeIfPresent(maximumModelCount, forKey: .maximumModelCount)
        try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        try container.encode(isToOneRelationship, forKey: .isToOneRelationship)
        try container.encode(isOptional, forKey: .isOptional)
    }
}

/// A property of an entity in archived form: its kind, then its own fields.
struct SchemaPropertyCoding: Codable {
    let property: any SchemaProperty

    init(_ property: any SchemaProperty) { self.property = property }

    private enum Kind: String, Codable { case attribute, composite, relationship }
    private enum CodingKeys: String, CodingKey { case kind }

    init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: CodingKeys.self).decode(Kind.self, forKey: .kind) {
        case .attribute: property = try Schema.Attribute(from: decoder)
        case .composite: property = try Schema.CompositeAttribute(from: decoder)
        case .relationship: property = try Schema.Relationship(from: decoder)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch property {
        case is Schema.CompositeAttribute: try container.encode(Kind.composite, forKey: .kind)
        case is Schema.Attribute: try container.encode(Kind.attribute, forKey: .kind)
        case is Schema.Relationship: try container.encode(Kind.relationship, forKey: .kind)
        default:
            throw EncodingError.invalidValue(
                property, .init(codingPath: encoder.codingPath, debugDescription: "not a stored property"))
        }
        try property.encode(to: encoder)
    }
}

/// A value type in archived form: its mangled name, by which the running program finds it again, and its name as
/// Swift spells it, for people.
struct ValueTypeName: Codable {
    let type: any Any.Type

    init(_ type: any Any.Type) { self.type = type }

    private enum CodingKeys: String, CodingKey { case mangledName, name }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let mangled = try container.decodeIfPresent(String.self, forKey: .mangledName)
        type = mangled.flatMap { _typeByName($0) } ?? Any.self
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(_mangledTypeName(type), forKey: .mangledName)
        try container.encode(String(reflecting: type), forKey: .name)
    }
}
