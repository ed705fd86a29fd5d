import Foundation

extension ModelContext {
    /// Whether unsaved changes of models that `predicate` reaches through relationships (other than its own
    /// model's, which every merge re-evaluates) may change what it selects among stored models. The store then
    /// cannot be trusted to select them: they are evaluated in memory, as `evaluate` sees them.
    func relatedModelsChanged<T: PersistentModel>(_ predicate: Predicate<T>?) -> Bool {
        guard let predicate, hasChanges else { return false }
        var types: Set<ObjectIdentifier> = []
        collectRelatedTypes(predicate.expression, into: &types)
        guard !types.isEmpty else { return false }
        types.insert(ObjectIdentifier(T.self))
        func isRelated(_ model: any PersistentModel) -> Bool { types.contains(ObjectIdentifier(type(of: model))) }
        return insertedModelsArray.contains(where: isRelated) || changedModelsArray.contains(where: isRelated)
            || deletedModelsArray.contains(where: isRelated)
            || batchDeletes.contains { types.contains(ObjectIdentifier($0.modelType)) }
    }

    /// Adds the model types at both ends of each relationship key path in a predicate's expression tree.
    private func collectRelatedTypes(_ node: Any, into types: inout Set<ObjectIdentifier>) {
        for child in Mirror(reflecting: node).children {
            if let keyPath = child.value as? AnyKeyPath {
                guard let root = type(of: keyPath).rootType as? any PersistentModel.Type,
                    let entity = container.binding(for: root)?.entity, let index = entity.propertyIndex(for: keyPath),
                    let destination = entity.relationship(at: index)?.destinationType
                else { continue }
                types.insert(ObjectIdentifier(root))
                types.insert(ObjectIdentifier(destination))
            } else if child.value is any PredicateExpression {
                collectRelatedTypes(child.value, into: &types)
            }
        }
    }
}
