import Foundation
import SwiftDataCore

/// A sort descriptor's key path through to-one relationships to an attribute, `\Animal.category?.name`. Swift
/// cannot take such a key path apart or build it from its parts generically, so it is recognized by its
/// description, which lists its components (each property named, or given by its accessor's address, and `?`
/// for optional chaining): the description of `\Animal.category?.name` is that of `\Animal.category`, `?`, then
/// that of `\AnimalCategory.name` without its root, then `?`. A description in a form this does not know is not
/// recognized, and the descriptor sorts in memory.
struct RelationshipKeyPath {
    /// The relationships followed, from the sorted entity on.
    var relationships: [Schema.Relationship]
    /// The attribute at the end.
    var attribute: Schema.Attribute
    /// The sort key a model sort descriptor appended to the attribute (see `SortKey`), if any.
    var sortKey: SortKey?

    /// The chain that `keyPath` follows from `entity`, or `nil` when it is not one.
    init?(_ keyPath: AnyKeyPath, from entity: Schema.Entity, in schema: Schema) {
        guard var rest = Self.components(of: keyPath) else { return nil }
        var current = entity
        var relationships: [Schema.Relationship] = []
        var isChained = false
        walking: while true {
            for relationship in current.orderedRelationships where relationship.isToOneRelationship {
                guard let path = relationship.keypath, Self.consume(path, from: &rest),
                    let destination = schema.entitiesByName[relationship.destination]
                else { continue }
                if SQLValueKind.isOptional(type(of: path).valueType) {
                    guard rest.first == "?" else { return nil }
                    rest.removeFirst()
                    isChained = true
                }
                relationships.append(relationship)
                current = destination
                continue walking
            }
            break
        }
        guard !relationships.isEmpty else { return nil }
        for attribute in current.orderedAttributes {
            guard let path = attribute.keyPath, Self.consume(path, from: &rest) else { continue }
            let valueType = type(of: path).valueType
            if isChained && !SQLValueKind.isOptional(valueType) {
                // Optional chaining wraps a non-optional value in an optional.
                guard rest.first == "?" else { return nil }
                rest.removeFirst()
            }
            self.relationships = relationships
            self.attribute = attribute
            if rest.isEmpty {
                sortKey = nil
                return
            }
            guard let key = Self.sortKey(ending: rest, valueType: valueType) else { return nil }
            sortKey = key
            return
        }
        return nil
    }

    /// The sort key whose key path, appended to a value of `valueType` or of its optional, has these components.
    private static func sortKey(ending rest: Substring, valueType: Any.Type) -> SortKey? {
        let unwrapped = SQLValueKind.unwrapped(valueType)
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
