extension FetchPlan {
    /// The part of a fetch that the store left to the context, done on the models of the rows it returned: the
    /// predicate evaluated, the models sorted and, with `window`, the descriptor's offset and limit applied. This
    /// is the only place where a fetch's predicate or sort runs in memory on stored models.
    func runRemainder<T: PersistentModel>(on models: [T], of descriptor: FetchDescriptor<T>, window: Bool) throws
        -> [T]
    {
        guard !coverage.isComplete else { return models }
        var models = models
        if !coverage.predicate, let predicate = descriptor.predicate { models = try models.filter(predicate.evaluate) }
        if !coverage.sort { models.sort(using: descriptor.sortBy) }
        return window ? descriptor.window(models) : models
    }
}

extension FetchDescriptor {
    /// The models within the descriptor's offset and limit.
    func window(_ models: [T]) -> [T] {
        let offset = min(max(fetchOffset ?? 0, 0), models.count)
        let end = fetchLimit.map { min(offset + max($0, 0), models.count) } ?? models.count
        return Array(models[offset..<end])
    }
}
