/// What a key path from a model names in its entity's schema: the one place where key paths that are not a
/// property's own are recognized, for every reader (the SQL translator's sorts through relationships, the fetch's
/// check of what a sort reads).
///
/// Swift cannot take a key path apart or build it from its parts generically, so it is read from its description,
/// which lists its components (each property named, or given by its accessor's address, and `?` for optional
/// chaining): the description of `\Animal.category?.name` is that of `\Animal.category`, `?`, then that of
/// `\AnimalCategory.name` without its root, then `?`. The walk follows to-one relationships, takes the property at
/// the end (an attribute, or a relationship of any kind), then the sort key a model sort descriptor appended to an
/// attribute (see `SortKey`). What follows that it does not know stays in `remainder` (`.city` of a `Codable`
/// attribute, `.count` of a to-many relationship), and a description in a form it does not know recognizes nothing:
/// a reader then works in memory. The description of a property of a class that others inherit from names another
/// accessor than the schema's key path does, so a key path through one is only recognized when it is the property's
/// own.
package struct RecognizedKeyPath {
    /// The property a key path ends at.
    package enum Property {
        /// A stored attribute.
        case attribute(Schema.Attribute)
        /// A relationship, to-one or to-many.
        case relationship(Schema.Relationship)
    }

    /// The to-one relationships followed before the property at the end, from the key path's entity on.
    package private(set) var relationships: [Schema.Relationship] = []
    /// The property at the end, if one was recognized.
    package private(set) var property: Property?
    /// The sort key a model sort descriptor appended to the attribute at the end, if any.
    package private(set) var sortKey: SortKey?
    /// Whether the key path is the model itself (`\Animal.self`).
    package private(set) var isIdentity = false
    /// The components after what was recognized (empty when the whole key path was).
    package private(set) var remainder: Substring

    /// Whether every component of the key path was recognized.
    package var isComplete: Bool { remainder.isEmpty }

    /// The attribute at the end, if the key path ends at one.
    package var attribute: Schema.Attribute? {
        if case .attribute(let attribute)? = property { return attribute }
        return nil
    }

    /// Whether the key path reads other models than its root: it follows a relationship, or ends at one.
    package var readsRelatedModels: Bool {
        if !relationships.isEmpty { return true }
        if case .relationship? = property { return true }
        return false
    }

    /// Recognizes `keyPath`, whose root is the model type of `entity`, against `schema`.
    package init(_ keyPath: AnyKeyPath, from entity: Schema.Entity, in schema: Schema) {
        // A property's own key path is found by equality; only other key paths are read from their descriptions.
        if let index = entity.propertyIndex(for: keyPath) {
            remainder = ""
            if let attribute = entity.attribute(at: index) {
                property = .attribute(attribute)
                return
            }
            if let relationship = entity.relationship(at: index) {
                property = .relationship(relationship)
                return
            }
        }
        guard var rest = Self.components(of: keyPath) else {
            remainder = Substring(String(describing: keyPath))
            return
        }
        remainder = rest
        if keyPath == Self.identity(type(of: keyPath).rootType) {
            isIdentity = true
            remainder = ""
            return
        }
        var current = entity
        var isChained = false
        walking: while true {
            for relationship in current.orderedRelationships where relationship.isToOneRelationship {
                guard let path = relationship.keypath, Self.consume(path, from: &rest),
                    let destination = schema.entitiesByName[relationship.destination]
                else { continue }
                let isOptional = type(of: path).valueType is any _OptionalValue.Type
                guard !rest.isEmpty, !isOptional || rest.first == "?" else {
                    // The relationship itself is the end (`\Animal.category`), or what follows is no chain through it.
                    property = .relationship(relationship)
                    remainder = rest
                    return
                }
                if isOptional {
                    rest.removeFirst()
                    isChained = true
                }
                relationships.append(relationship)
                current = destination
                continue walking
            }
            break
        }
        remainder = rest
        if recognizeAttribute(in: current, from: &rest, isChained: isChained) { return }
        for relationship in current.orderedRelationships where !relationship.isToOneRelationship {
            guard let path = relationship.keypath, Self.consume(path, from: &rest) else { continue }
            property = .relationship(relationship)
            remainder = rest
            return
        }
    }

    /// Takes the attribute of `entity` that `rest` starts with, and the sort key after it; `false` when none.
    private mutating func recognizeAttribute(
        in entity: Schema.Entity, from rest: inout Substring, isChained: Bool
    ) -> Bool {
        for attribute in entity.orderedAttributes {
            guard let path = attribute.keyPath, Self.consume(path, from: &rest) else { continue }
            let valueType = type(of: path).valueType
            if isChained && !(valueType is any _OptionalValue.Type) {
                // Optional chaining wraps a non-optional value in an optional.
                guard rest.first == "?" else { return true }
                rest.removeFirst()
            }
            property = .attribute(attribute)
            remainder = rest
            if !rest.isEmpty, let key = Self.sortKey(ending: rest, valueType: valueType) {
                sortKey = key
                remainder = ""
            }
            return true
        }
        return false
    }

    /// The sort key whose key path, appended to a value of `valueType` or of its optional, has these components.
    private static func sortKey(ending rest: Substring, valueType: Any.Type) -> SortKey? {
        var unwrapped = valueType
        while let optional = unwrapped as? any _OptionalValue.Type { unwrapped = optional._wrappedType }
        let roots = [identity(unwrapped), optionalIdentity(unwrapped)]
        return SortKey.allCases.first { key in
            roots.contains { root in key.keyPath(sorting: root).flatMap(components) == rest }
        }
    }

    /// Removes the components of `keyPath` from the start of `rest`, if they are there as whole components.
    private static func consume(_ keyPath: AnyKeyPath, from rest: inout Substring) -> Bool {
        guard let components = components(of: keyPath), !components.isEmpty, rest.hasPrefix(components) else {
            return false
        }
        let next = rest.dropFirst(components.count).first
        guard next == nil || next == "." || next == "?" || next == "!" else { return false }
        rest.removeFirst(components.count)
        return true
    }

    /// The description of a key path without its root type: `.category?.name`, or with accessor addresses.
    private static func components(of keyPath: AnyKeyPath) -> Substring? {
        let description = String(describing: keyPath)
        let root = String(describing: identity(type(of: keyPath).rootType))
        guard root.hasSuffix(".self") else { return nil }
        let prefix = root.dropLast(".self".count)
        guard description.hasPrefix(prefix) else { return nil }
        return description.dropFirst(prefix.count)
    }

    /// `\Root.self` for a root type known only at run time.
    private static func identity(_ type: Any.Type) -> AnyKeyPath {
        func identity<Root>(_: Root.Type) -> AnyKeyPath { \Root.self }
        return _openExistential(type, do: identity)
    }

    /// `\Wrapped?.self` for a wrapped type known only at run time.
    private static func optionalIdentity(_ type: Any.Type) -> AnyKeyPath {
        func identity<Wrapped>(_: Wrapped.Type) -> AnyKeyPath { \Wrapped?.self }
        return _openExistential(type, do: identity)
    }
}
