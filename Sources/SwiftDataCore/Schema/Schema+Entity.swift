import Foundation

extension Schema {
    /// The description of one model class: its name and persisted properties.
    ///
    /// The entity of a `@Model` subclass of a `@Model` class has the superclass's entity as `superentity`, and is
    /// one of its `subentities`. Its `storedProperties` are the ones its class declares; `inheritedProperties` are
    /// its superentity's `properties`. `attributes`, `relationships` and their `...ByName` dictionaries cover both,
    /// as Core Data's entity descriptions do. `@unchecked Sendable` as `Schema` is: settable only while it is
    /// built, before it is shared.
    public final class Entity: Hashable, CustomDebugStringConvertible, @unchecked Sendable {
        /// The entity's name: the model class's name. Set only while the schema is built, so each read (one per
        /// identifier made) skips the run-time exclusivity check.
        @exclusivity(unchecked) public var name: String
        /// The entities of the model class's `@Model` subclasses that the schema has.
        public var subentities: Set<Entity> = [] {
            didSet { isInHierarchy = superentity != nil || !subentities.isEmpty }
        }
        /// The name of the entity of the model class's superclass, when that class is a `@Model` class.
        public var superentityName: String?
        /// The entity of the model class's superclass, when that class is a `@Model` class (held weakly: the
        /// schema keeps its entities).
        public weak var superentity: Entity? {
            didSet { isInHierarchy = superentity != nil || !subentities.isEmpty }
        }
        /// The properties the model class declares, attributes and relationships, in declaration order.
        public var storedProperties: [any SchemaProperty] = []
        /// The properties inherited from the superentity: its `properties`.
        public var inheritedProperties: [any SchemaProperty] = []
        /// The unique constraints (`#Unique`, `@Attribute(.unique)`): each one the property names whose values,
        /// together, no two models share.
        public var uniquenessConstraints: [[String]] = []
        /// The binary (B-tree) indexes, each a list of property names.
        public var indices: [[String]] = []
        /// The `.rtree` indexes, each a list of numeric attribute names (not in Apple's API, whose `indices` does
        /// not tell index kinds apart).
        package var spatialIndices: [[String]] = []
        /// The `.search` indexes, each a list of `String` attribute names, each searched on its own (not in Apple's
        /// API).
        package var searchIndices: [[String]] = []

        /// The model class, when the entity was built from one.
        package var modelType: (any PersistentModel.Type)?
        /// The model class's superclass, when it is a model class too.
        package var superModelType: (any PersistentModel.Type)?
        /// Whether the entity belongs to a hierarchy: it has a superentity or subentities (a flag kept as they
        /// change, since every fetch and save reads it and most entities are in no hierarchy).
        package private(set) var isInHierarchy = false
        /// Every persisted property by its index (its place in `schemaMetadata`): the inherited ones, then the
        /// entity's own.
        package private(set) var indexedProperties: [any SchemaProperty] = []
        /// `indexedProperties` as relationships and as attributes, position by position (`nil` where it is the
        /// other kind): looking a property's kind up by index is then a read rather than a dynamic cast, which a
        /// fetch does for every property it reads.
        private var relationshipsByPosition: [Relationship?] = []
        private var attributesByPosition: [Attribute?] = []
        /// Persisted attributes in index order, inherited ones included.
        package var orderedAttributes: [Attribute] = []
        /// Relationships in index order, inherited ones included.
        package var orderedRelationships: [Relationship] = []
        /// Problems found while reading the model class or resolving relationships.
        package var foundProblems: [SwiftDataError] = []
        /// What is wrong with the entity: the problems found while it was built, then those of its unique
        /// constraints (see `uniquenessProblems`); the container reports the first when it opens.
        package var problems: [SwiftDataError] { foundProblems + uniquenessProblems }
        private var indexByKeyPath: [AnyKeyPath: Int] = [:]

        /// An entity without properties, for a schema built by hand.
        public init(_ name: String) {
            self.name = name
        }

        /// An entity with these properties, for a schema built by hand.
        public convenience init(_ name: String, properties: any SchemaProperty...) {
            self.init(name)
            for property in properties { add(property) }
        }

        /// An entity with these properties and subentities, for a schema built by hand: each subentity inherits
        /// the entity's properties and has it as its `superentity`.
        public convenience init(_ name: String, subentities: Entity..., properties: any SchemaProperty...) {
            self.init(name)
            for property in properties { add(property) }
            for subentity in subentities { subentity.inherit(from: self) }
        }

        /// The entity of a `@Model` class, read from its `schemaMetadata`. For a subclass of a model class, the
        /// properties are its own (those after its superclass's); `inherit(from:)` adds the inherited ones.
        package convenience init(modelType: any PersistentModel.Type) {
            self.init(String(describing: modelType))
            self.modelType = modelType
            let metadata = modelType.schemaMetadata
            superModelType = Schema.superModelType(of: modelType)
            superentityName = superModelType.map { String(describing: $0) }
            let inherited = superModelType?.schemaMetadata.count ?? 0
            if let first = metadata.first, type(of: first.keyPath).rootType != modelType {
                // The class inherited `schemaMetadata` without declaring its own.
                foundProblems.append(
                    SwiftDataError.loadIssueModelContainer.with(
                        reason: "\(name) is a subclass of a model class, but is not marked @Model", model: name,
                        suggestion: "Mark every class of a model hierarchy @Model"))
            }
            for (index, property) in metadata.enumerated() {
                indexByKeyPath[property.keyPath] = index
                guard index >= inherited else { continue }
                add(Entity.property(property, index: index, entity: name, problems: &foundProblems))
            }
            // A subclass that declares no constraints of its own inherits its superclass's list, rooted there.
            let own = { (lists: [[AnyKeyPath]]) in
                lists.filter { $0.allSatisfy { type(of: $0).rootType == modelType } }
            }
            uniquenessConstraints =
                orderedAttributes.filter(\.isUnique).map { [$0.name] }
                + orderedRelationships.filter(\.isUnique).map { [$0.name] }
                + names(of: own(modelType._$uniquenessConstraints), metadata, what: "#Unique")
            indices = names(of: own(modelType._$indices), metadata, what: "#Index")
            spatialIndices = names(of: own(modelType._$spatialIndices), metadata, what: "#Index")
            searchIndices = names(of: own(modelType._$searchIndices), metadata, what: "#Index")
            checkSpatialIndices()
            checkSearchIndices()
        }

        /// Makes this entity a subentity of `parent`: its superclass's entity, which has inherited its own
        /// properties already.
        package func inherit(from parent: Entity) {
            guard superentity !== parent else { return }
            superentity = parent
            superentityName = parent.name
            parent.subentities.insert(self)
            // Numbered after the inherited properties (a model's already are; a decoded entity's are not yet).
            for (offset, property) in storedProperties.enumerated() {
                (property as? Attribute)?.index = parent.indexedProperties.count + offset
                (property as? Relationship)?.index = parent.indexedProperties.count + offset
            }
            inheritedProperties = parent.indexedProperties
            indexedProperties = parent.indexedProperties + storedProperties
            relationshipsByPosition = indexedProperties.map { $0 as? Relationship }
            attributesByPosition = indexedProperties.map { $0 as? Attribute }
            orderedAttributes = parent.orderedAttributes + storedProperties.compactMap { $0 as? Attribute }
            orderedRelationships = parent.orderedRelationships + storedProperties.compactMap { $0 as? Relationship }
        }

        /// An `.rtree` index takes one to five attributes that are numbers or dates; anything else is a problem the
        /// container reports, naming the index.
        private func checkSpatialIndices() {
            let numeric: [Any.Type] = [
                Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt8.self, UInt16.self, UInt32.self,
                Double.self, Float.self, Date.self,
            ]
            for columns in spatialIndices {
                let invalid = columns.first { column in
                    guard let attribute = attributesByName[column], attribute.coding == nil else { return true }
                    let type = (attribute.valueType as? any _OptionalValue.Type)?._wrappedType ?? attribute.valueType
                    return !numeric.contains { $0 == type }
                }
                let reason =
                    if let invalid {
                        "'\(invalid)' is not an attribute of a number or date type"
                    } else if columns.count > 5 {
                        "it has \(columns.count) dimensions, and an R*Tree index has at most five"
                    } else {
                        String?.none
                    }
                guard let reason else { continue }
                foundProblems.append(
                    SwiftDataError.loadIssueModelContainer.with(
                        reason:
                            "the .rtree index on \(columns.joined(separator: ", ")) of \(name) cannot be created: \(reason)",
                        model: name, property: columns.joined(separator: ", "),
                        suggestion:
                            "Index Int, Double, Float or Date attributes (at most five) with .rtree; use .binary for others"
                    ))
            }
        }

        /// A `.search` index takes `String` attributes kept in their column; anything else is a problem the container
        /// reports, naming the index.
        private func checkSearchIndices() {
            for column in searchIndices.joined() {
                let attribute = attributesByName[column]
                let type = attribute.map { ($0.valueType as? any _OptionalValue.Type)?._wrappedType ?? $0.valueType }
                guard attribute?.coding != nil || attribute?.isExternal == true || type != String.self else { continue }
                foundProblems.append(
                    SwiftDataError.loadIssueModelContainer.with(
                        reason:
                            "the .search index on \(column) of \(name) cannot be created: it is not a String attribute",
                        model: name, property: column,
                        suggestion: "Index String attributes without .externalStorage with .search"))
            }
        }

        /// Property names of key-path lists; a key path that is not a persisted property is a problem.
        private func names(of lists: [[AnyKeyPath]], _ metadata: [PropertyMetadata], what: String) -> [[String]] {
            lists.map { keyPaths in
                keyPaths.compactMap { keyPath in
                    if let property = metadata.first(where: { $0.keyPath == keyPath }) { return property.name }
                    foundProblems.append(
                        SwiftDataError.loadIssueModelContainer.with(
                            reason: "\(what) names \(keyPath), which is not a stored property of \(name)", model: name,
                            suggestion: "List stored attributes or to-one relationships"))
                    return nil
                }
            }.filter { !$0.isEmpty }
        }

        /// Adds a stored property; a unique constraint or an index adds to `uniquenessConstraints` or `indices`.
        func add(_ property: any SchemaProperty) {
            if let constraints = property as? any EntityConstraints {
                let names = constraints.propertyNames
                uniquenessConstraints += known(names.unique, in: property)
                indices += known(names.binary, in: property)
                spatialIndices += known(names.spatial, in: property)
                searchIndices += known(names.search, in: property)
                return
            }
            storedProperties.append(property)
            indexedProperties.append(property)
            relationshipsByPosition.append(property as? Relationship)
            attributesByPosition.append(property as? Attribute)
            if let attribute = property as? Attribute { orderedAttributes.append(attribute) }
            if let relationship = property as? Relationship { orderedRelationships.append(relationship) }
        }

        /// The lists of property names that name stored properties; a key path that names none is a problem.
        private func known(_ lists: [[String?]], in property: any SchemaProperty) -> [[String]] {
            lists.map { names in
                if names.contains(nil) {
                    foundProblems.append(
                        SwiftDataError.loadIssueModelContainer.with(
                            reason: "\(property) names a key path that is not a stored property of \(name)",
                            model: name, suggestion: "List stored attributes or to-one relationships"))
                }
                return names.compactMap { $0 }
            }.filter { !$0.isEmpty }
        }

        /// The relationship at a persisted property index, if that property is one.
        package func relationship(at index: Int) -> Relationship? {
            guard relationshipsByPosition.indices.contains(index), let relationship = relationshipsByPosition[index],
                relationship.index == index
            else { return orderedRelationships.first { $0.index == index } }
            return relationship
        }

        /// The attribute at a persisted property index, if that property is one.
        package func attribute(at index: Int) -> Attribute? {
            guard attributesByPosition.indices.contains(index), let attribute = attributesByPosition[index],
                attribute.index == index
            else { return orderedAttributes.first { $0.index == index } }
            return attribute
        }

        /// Builds the attribute or relationship a metadata entry describes.
        private static func property(
            _ metadata: PropertyMetadata, index: Int, entity: String, problems: inout [SwiftDataError]
        ) -> any SchemaProperty {
            let valueType = type(of: metadata.keyPath).valueType
            if let destination = relationshipDestination(valueType) {
                let relationship = metadata.metadata as? Relationship ?? Relationship()
                relationship.name = metadata.name
                if relationship.originalName.isEmpty { relationship.originalName = metadata.name }
                relationship.keypath = metadata.keyPath
                relationship.valueType = valueType
                relationship.destinationType = destination.type
                relationship.destination = String(describing: destination.type)
                relationship.isToOneRelationship = !destination.isCollection
                relationship.isOptional = valueType is any _OptionalValue.Type
                relationship.index = index
                return relationship
            }
            var attribute = metadata.metadata as? Attribute ?? Attribute()
            if let members = compositeMembers(of: valueType, attribute) {
                attribute.name = metadata.name
                attribute.valueType = valueType
                attribute = CompositeAttribute(attribute, properties: members)
            }
            attribute.name = metadata.name
            if attribute.originalName.isEmpty { attribute.originalName = metadata.name }
            attribute.valueType = valueType
            attribute.defaultValue = metadata.defaultValue
            attribute.keyPath = metadata.keyPath
            attribute.index = index
            if attribute.options.contains(.cascade) {
                problems.append(
                    SwiftDataError.loadIssueModelContainer.with(
                        reason: "'.cascade' is not an attribute option", model: entity, property: metadata.name,
                        suggestion: "Delete rules belong to relationships: use @Relationship(deleteRule: .cascade)"))
            }
            do {
                attribute.coding = try AttributeCoding.of(attribute)
            } catch let error as SwiftDataError {
                problems.append(error.with(model: entity))
            } catch {}
            if attribute.coding != nil {
                attribute.layout = .native(.data)
                attribute.isOptional = valueType is any _OptionalValue.Type
            } else if let (layout, isOptional) = ValueCodec.layout(of: valueType) {
                attribute.layout = layout
                attribute.isOptional = isOptional
            } else {
                problems.append(
                    SwiftDataError.loadIssueModelContainer.with(
                        reason: "\(valueType) cannot be stored", model: entity, property: metadata.name,
                        suggestion: "Make the type Codable or RawRepresentable, or mark the property @Transient"))
            }
            return attribute
        }

        /// The members of an attribute that holds a `Codable` struct as JSON, which makes it a composite attribute.
        private static func compositeMembers(of valueType: Any.Type, _ attribute: Attribute) -> [Attribute]? {
            guard attribute.options.allSatisfy({ $0.transformerName == nil && $0 != .codable }),
                ValueCodec.layout(of: valueType)?.layout == .json
            else { return nil }
            return CompositeMembers.of((valueType as? any _OptionalValue.Type)?._wrappedType ?? valueType)
        }

        /// The model type at the other end when `valueType` is a model, an optional model or a collection of
        /// models.
        static func relationshipDestination(
            _ valueType: Any.Type
        ) -> (type: any PersistentModel.Type, isCollection: Bool)? {
            if let model = valueType as? any PersistentModel.Type { return (model, false) }
            if let collection = valueType as? any RelationshipCollection.Type {
                return (collection._persistentElementType, true)
            }
            if let optional = valueType as? any _OptionalValue.Type,
                let model = optional._wrappedType as? any PersistentModel.Type
            {
                return (model, false)
            }
            return nil
        }

        /// The persisted property index of a key path of the model, if it names a persisted property.
        package func propertyIndex(for keyPath: AnyKeyPath) -> Int? { indexByKeyPath[keyPath] }

        /// Every property: the inherited ones, then the stored ones.
        public var properties: [any SchemaProperty] { inheritedProperties + storedProperties }
        /// The attributes, inherited ones included. Setting it, while a schema is built by hand, replaces the
        /// entity's own attributes (those of its superentity stay): the attributes it already had keep their
        /// place, new ones follow in order of name.
        public var attributes: Set<Attribute> {
            get { Set(properties.compactMap { $0 as? Attribute }) }
            set { replaceStoredProperties(of: Attribute.self, with: Array(newValue)) }
        }
        /// The relationships, inherited ones included. Setting it, while a schema is built by hand, replaces the
        /// entity's own relationships, as setting `attributes` replaces its attributes.
        public var relationships: Set<Relationship> {
            get { Set(properties.compactMap { $0 as? Relationship }) }
            set { replaceStoredProperties(of: Relationship.self, with: Array(newValue)) }
        }

        /// Replaces the stored properties of one kind, keeping the other kind and the inherited properties.
        private func replaceStoredProperties<Kind: SchemaProperty>(of kind: Kind.Type, with given: [Kind]) {
            let inherited = Set(inheritedProperties.map(\.name))
            let wanted = given.filter { !inherited.contains($0.name) }
            let wantedNames = Set(wanted.map(\.name))
            let oldNames = Set(storedProperties.map(\.name))
            var kept = storedProperties.filter { !($0 is Kind) || wantedNames.contains($0.name) }
            // A property given again replaces the one of the same name, in its place.
            let byName = Dictionary(wanted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            kept = kept.map { property in property is Kind ? byName[property.name] ?? property : property }
            let added = wanted.filter { !oldNames.contains($0.name) }.sorted { $0.name < $1.name }
            storedProperties = []
            indexedProperties = inheritedProperties
            relationshipsByPosition = indexedProperties.map { $0 as? Relationship }
            attributesByPosition = indexedProperties.map { $0 as? Attribute }
            orderedAttributes = inheritedProperties.compactMap { $0 as? Attribute }
            orderedRelationships = inheritedProperties.compactMap { $0 as? Relationship }
            for property in kept + added { add(property) }
        }
        /// The attributes by name, inherited ones included.
        public var attributesByName: [String: Attribute] {
            Dictionary(orderedAttributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The relationships by name, inherited ones included.
        public var relationshipsByName: [String: Relationship] {
            Dictionary(orderedRelationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The stored properties by name.
        public var storedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(storedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The inherited properties by name.
        public var inheritedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(inheritedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.superentityName == rhs.superentityName
                && lhs.storedProperties.count == rhs.storedProperties.count
                && zip(lhs.storedProperties, rhs.storedProperties).allSatisfy { $0.isEqual(to: $1) }
                && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
                && lhs.spatialIndices == rhs.spatialIndices && lhs.searchIndices == rhs.searchIndices
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        public var debugDescription: String {
            let parent = superentityName.map { " < \($0)" } ?? ""
            return
                "Entity(\(name)\(parent): \(storedProperties.map { String(describing: $0) }.joined(separator: ", ")))"
        }
    }
}

extension SchemaProperty {
    fileprivate func isEqual(to other: any SchemaProperty) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A collection of related models: the type of a to-many relationship.
public protocol RelationshipCollection {
    /// The model type the collection holds.
    associatedtype PersistentElement: PersistentModel
}

extension RelationshipCollection {
    static var _persistentElementType: any PersistentModel.Type { PersistentElement.self }
}

extension Array: RelationshipCollection where Element: PersistentModel {
    /// The array's model type.
    public typealias PersistentElement = Element
}

extension Optional: RelationshipCollection where Wrapped: Sequence, Wrapped.Element: PersistentModel {
    /// The model type of the wrapped collection.
    public typealias PersistentElement = Wrapped.Element
}
