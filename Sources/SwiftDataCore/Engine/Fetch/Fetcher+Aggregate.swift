import Foundation

/// Aggregates and groups (`ModelContext.fetchAggregate(_:_:)`, `fetchGroups`): the store computes them in SQL, or,
/// when unsaved changes of the context could change them (as `fetchCount` decides), when the store cannot compute
/// all of it, or for a store of your own, the context computes them from the fetched models.
extension Fetcher {
    /// Runs `query` over the models `descriptor` selects: in the store, passing each group's row to `row` and
    /// returning `nil`, or by returning the models to compute it from in memory.
    func aggregate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, query: AggregateQuery, row: (any _RowReader) throws -> Void
    ) throws -> [T]? {
        context.catchUp()
        let binding = try context.binding(for: T.self)
        try check(query, entity: binding.entity)
        if !mergesPendingChanges(descriptor, entity: binding.entity) {
            var request = try request(descriptor, binding: binding, window: true)
            request.properties = []
            request.subentityProperties = []
            do {
                if try binding.store.fetchAggregates(request, query: query, row: row) { return nil }
            } catch let error as SwiftDataError {
                throw error.with(model: binding.entity.name)
            }
        }
        return try fetch(descriptor)
    }

    /// Throws a named error for a key path that is not a stored attribute of the entity or of a model it reaches
    /// through to-one relationships, or that is stored in a form SQL cannot compute with.
    private func check(_ query: AggregateQuery, entity: Schema.Entity) throws {
        for keyPath in query.groups {
            let attribute = try attribute(keyPath, of: entity, for: "grouped by")
            if attribute.layout == .json {
                throw SwiftDataError.unsupportedKeyPath.with(
                    reason: "\(entity.name) cannot be grouped by \(keyPath), a Codable value stored as JSON",
                    model: entity.name, property: attribute.name,
                    suggestion: "Group by an attribute of a plain type, or group fetched models in memory")
            }
        }
        for term in query.allTerms {
            guard let keyPath = term.keyPath else { continue }
            let attribute = try attribute(keyPath, of: entity, for: "aggregated")
            guard term.function == .count || (attribute.coding == nil && !attribute.isExternal) else {
                throw SwiftDataError.unsupportedKeyPath.with(
                    reason:
                        "\(entity.name).\(attribute.name) is stored in a converted form (transformable, Codable or "
                        + "external), so its \(term.function.rawValue) cannot be computed",
                    model: entity.name, property: attribute.name,
                    suggestion: "Aggregate an attribute stored as a plain value, or compute it from fetched models")
            }
        }
    }

    /// The stored attribute a key path of an aggregate or group names.
    private func attribute(_ keyPath: AnyKeyPath, of entity: Schema.Entity, for use: String) throws
        -> Schema.Attribute
    {
        let recognized = RecognizedKeyPath(keyPath, from: entity, in: context.container.schema)
        guard recognized.isComplete, recognized.sortKey == nil, let attribute = recognized.attribute,
            !attribute.isTransient
        else {
            throw SwiftDataError.unsupportedKeyPath.with(
                reason:
                    "\(keyPath) is not a stored attribute of \(entity.name) or of a model it reaches through to-one "
                    + "relationships, so it cannot be \(use)",
                model: entity.name, property: recognized.attribute?.name ?? "\(keyPath)",
                suggestion: "Use a stored attribute (a relationship, a transient or computed property, or a value "
                    + "inside one has no stored column)")
        }
        return attribute
    }
}

/// The groups of models a query makes in memory, as the stores make them: models with equal keys (as stored) in one
/// group, the groups kept by the condition, ordered by the sort descriptors and then by their keys.
struct MemoryGroups<Model: PersistentModel> {
    /// The stored form of each group key of a model.
    var keys: [(Model) throws -> StoreValue] = []
    var condition: GroupCondition<Model>?
    var sortBy: [GroupSortDescriptor<Model>] = []

    /// The groups of `models`, each in the models' order.
    func groups(of models: [Model]) throws -> [[Model]] {
        var order: [[StoreValue]] = []
        var members: [[StoreValue]: [Model]] = [:]
        for model in models {
            let key = try keys.map { try $0(model) }
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(model)
        }
        var groups: [(key: [StoreValue], models: [Model], sortValues: [StoreValue])] = []
        for key in order {
            let models = members[key] ?? []
            if let condition, try !condition.evaluate(models) { continue }
            let sortValues = try sortBy.map { descriptor in
                switch descriptor.target {
                case .key(_, let value): try value(models[0])
                case .aggregate(_, let value): try value(models)
                }
            }
            groups.append((key, models, sortValues))
        }
        groups.sort { lhs, rhs in
            for (index, descriptor) in sortBy.enumerated() {
                let (a, b) = (lhs.sortValues[index], rhs.sortValues[index])
                if a.precedes(b) { return descriptor.order == .forward }
                if b.precedes(a) { return descriptor.order == .reverse }
            }
            for (a, b) in zip(lhs.key, rhs.key) where a.precedes(b) || b.precedes(a) { return a.precedes(b) }
            return false
        }
        return groups.map(\.models)
    }
}
