import Foundation

/// What a predicate reads beyond its model's own attributes, found from the key paths in its expression tree: the
/// relationships it follows and whether it reads identifiers. A store holds such values in other rows (or holds
/// none), so in memory they must be read from the context's models, which unsaved changes may have changed.
package struct PredicateReach {
    /// The model types at both ends of the relationships the predicate follows.
    private(set) var relatedTypes: Set<ObjectIdentifier> = []
    /// Whether the predicate reads a model's `persistentModelID` (or its `id`, when that is the identifier).
    private(set) var readsIdentifiers = false

    init<T: PersistentModel>(_ predicate: Predicate<T>, in container: ModelContainer) {
        visit(predicate.expression, container)
    }

    /// Whether the predicate reads anything but its model's attributes.
    var readsOtherRows: Bool { !relatedTypes.isEmpty || readsIdentifiers }

    private mutating func visit(_ node: Any, _ container: ModelContainer) {
        for child in Mirror(reflecting: node).children {
            if let keyPath = child.value as? AnyKeyPath {
                guard let root = type(of: keyPath).rootType as? any PersistentModel.Type else { continue }
                if Self.identifierKeyPaths(root).contains(keyPath) { readsIdentifiers = true }
                guard let entity = container.binding(for: root)?.entity, let index = entity.propertyIndex(for: keyPath),
                    let destination = entity.relationship(at: index)?.destinationType
                else { continue }
                relatedTypes.insert(ObjectIdentifier(root))
                relatedTypes.insert(ObjectIdentifier(destination))
            } else if child.value is any PredicateExpression {
                visit(child.value, container)
            }
        }
    }

    /// The key paths that read a model's identifier: `persistentModelID`, and `id` when it is the identifier.
    package static func identifierKeyPaths(_ type: any PersistentModel.Type) -> [AnyKeyPath] {
        func keyPaths<M: PersistentModel>(_: M.Type) -> [AnyKeyPath] {
            M.ID.self == PersistentIdentifier.self ? [\M.persistentModelID, \M.id] : [\M.persistentModelID]
        }
        return keyPaths(type)
    }
}
