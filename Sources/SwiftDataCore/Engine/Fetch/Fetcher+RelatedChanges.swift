import Foundation

extension Fetcher {
    /// Whether unsaved changes of models that `predicate` reaches through relationships (its own model's included)
    /// may change what it selects among stored models. The store's view of the predicate is then stale: stored
    /// models are evaluated in memory, as `evaluate` sees them.
    func relatedModelsChanged<T: PersistentModel>(_ predicate: Predicate<T>?) -> Bool {
        guard let predicate, context.hasChanges else { return false }
        let types = PredicateReach(predicate, in: context.container).relatedTypes
        guard !types.isEmpty else { return false }
        // A model of a subclass is a model of each class above it.
        func isRelated(_ type: any PersistentModel.Type) -> Bool {
            var current: (any PersistentModel.Type)? = type
            while let next = current {
                if types.contains(ObjectIdentifier(next)) { return true }
                current = Schema.superModelType(of: next)
            }
            return false
        }
        func isRelated(_ model: any PersistentModel) -> Bool { isRelated(type(of: model)) }
        return context.insertedModelsArray.contains(where: isRelated)
            || context.changedModelsArray.contains(where: isRelated)
            || context.deletedModelsArray.contains(where: isRelated)
            || context.deletedRows.keys.contains { name in
                // Rows deleted as a superclass's may be of a subclass the predicate reaches.
                context.container.binding(forEntityName: name)?.entity.selfAndDescendants.contains {
                    $0.modelType.map(isRelated) ?? false
                } ?? false
            }
    }

    /// Whether the descriptor sorts by an attribute of a related model (`\Animal.category?.name`) while the context
    /// has unsaved changes: the store's order may be stale, so the models are sorted in memory, as `sorted(using:)`
    /// orders the context's objects. Such key paths are recognized as a store recognizes them (`RecognizedKeyPath`).
    func sortMayReadChangedModels<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: Schema.Entity) -> Bool {
        guard context.hasChanges else { return false }
        return descriptor.sortBy.contains { sort in
            sort.keyPath.map {
                RecognizedKeyPath($0, from: entity, in: context.container.schema).readsRelatedModels
            } ?? false
        }
    }
}
