import Foundation

/// Aggregates and groups: additions to Apple's SwiftData, which offers only `fetchCount(_:)`.
extension ModelContext {
    /// Computes aggregates over the models `descriptor` selects (its predicate, and its sort, limit and offset when it
    /// has a limit or an offset), in the store's SQL: one value, or a tuple of them in the order given.
    ///
    /// ```swift
    /// let total = try context.fetchAggregate(FetchDescriptor<Order>(), .sum(\.total))  // Decimal
    /// let (count, latest) = try context.fetchAggregate(
    ///     FetchDescriptor<Order>(predicate: #Predicate { $0.total > 100 }), .count, .maximum(\.date))
    /// ```
    ///
    /// With `includePendingChanges` (the default), unsaved inserts, changes and deletes that could change the result
    /// are included, as `fetchCount(_:)` includes them: the values are then computed from the fetched models. A store
    /// of your own (`DataStore`) computes them that way too.
    public func fetchAggregate<Model: PersistentModel, each Value>(
        _ descriptor: FetchDescriptor<Model>, _ aggregates: repeat FetchAggregate<Model, each Value>
    ) throws -> (repeat each Value) {
        var query = AggregateQuery()
        for aggregate in repeat each aggregates { query.terms += aggregate.columns }
        var result: (repeat each Value)?
        let models = try fetcher.aggregate(descriptor, query: query) { reader in
            var column: Int32 = 0
            result = (repeat try read(each aggregates, from: reader, column: &column))
        }
        if let models { return (repeat try compute(each aggregates, of: models)) }
        guard let result else {
            throw SwiftDataError.storeError.with(
                reason: "the store returned no row for an aggregate of \(Model.self)",
                suggestion: "Report this as a bug of the store")
        }
        return result
    }

    /// Groups the models `descriptor` selects by the values of `keys` (attributes of the model, or of a model it
    /// reaches through to-one relationships, `\.category?.name`) and computes `aggregates` for each group, in the
    /// store's SQL. `condition` keeps the groups whose aggregates meet it (SQL's `HAVING`); the groups come in the
    /// order of `sortBy`, then of their keys (`nil` first).
    ///
    /// ```swift
    /// let perCategory = try context.fetchGroups(
    ///     FetchDescriptor<Order>(), by: \.category?.name, aggregates: .count, .sum(\.total),
    ///     having: .count >= 2, sortBy: [.aggregate(.sum(\.total), order: .reverse)])
    /// for group in perCategory {
    ///     print(group.key ?? "none", group.values.0, group.values.1)
    /// }
    /// ```
    ///
    /// Keys group as stored: strings by their text, numbers by value. Unsaved changes and stores of your own are
    /// handled as by `fetchAggregate(_:_:)`.
    public func fetchGroups<Model: PersistentModel, each Key, each Value>(
        _ descriptor: FetchDescriptor<Model>, by keys: repeat KeyPath<Model, each Key>,
        aggregates: repeat FetchAggregate<Model, each Value>, having condition: GroupCondition<Model>? = nil,
        sortBy: [GroupSortDescriptor<Model>] = []
    ) throws -> [AggregateGroup<(repeat each Key), (repeat each Value)>] {
        var query = AggregateQuery()
        var memory = MemoryGroups<Model>(condition: condition, sortBy: sortBy)
        for keyPath in repeat each keys {
            query.groups.append(keyPath)
            memory.keys.append { try StoreValue(encoding: $0[keyPath: keyPath]) }
        }
        guard !query.groups.isEmpty else {
            throw SwiftDataError.unsupportedKeyPath.with(
                reason: "groups of \(Model.self) need a key path to group by",
                model: Schema.entityName(for: Model.self),
                suggestion: "Pass one or more key paths, or use fetchAggregate for one group of every model")
        }
        for aggregate in repeat each aggregates { query.terms += aggregate.columns }
        query.condition = condition?.condition
        query.orderings = try sortBy.map { descriptor in
            switch descriptor.target {
            case .aggregate(let term, _):
                return AggregateOrdering(.term(term), descending: descriptor.order == .reverse)
            case .key(let keyPath, _):
                guard let index = query.groups.firstIndex(of: keyPath) else {
                    throw SwiftDataError.unsupportedSortDescriptor.with(
                        reason: "groups of \(Model.self) are sorted by \(keyPath), which is not one of their keys",
                        model: Schema.entityName(for: Model.self),
                        suggestion: "Sort groups by one of the key paths they are grouped by, or by an aggregate")
                }
                return AggregateOrdering(.group(index), descending: descriptor.order == .reverse)
            }
        }
        var groups: [AggregateGroup<(repeat each Key), (repeat each Value)>] = []
        let models = try fetcher.aggregate(descriptor, query: query) { reader in
            var column: Int32 = 0
            let key = (repeat try Self.read(each keys, from: reader, column: &column))
            groups.append(
                AggregateGroup(key: key, values: (repeat try read(each aggregates, from: reader, column: &column)))
            )
        }
        guard let models else { return groups }
        return try memory.groups(of: models).map { members in
            AggregateGroup(
                key: (repeat members[0][keyPath: each keys]), values: (repeat try compute(each aggregates, of: members))
            )
        }
    }

    /// A group key's value from the store's column, moving `column` past it.
    private static func read<Model, Key>(
        _ keyPath: KeyPath<Model, Key>, from reader: any _RowReader, column: inout Int32
    ) throws -> Key {
        defer { column += 1 }
        return try ValueCodec.decode(Key.self, from: reader, column: column)
    }

    /// An aggregate's value from the store's columns, moving `column` past them.
    private func read<Model, Value>(
        _ aggregate: FetchAggregate<Model, Value>, from reader: any _RowReader, column: inout Int32
    ) throws -> Value {
        defer { column += Int32(aggregate.columns.count) }
        return try naming(Model.self) { try aggregate.read(reader, column) }
    }

    /// An aggregate's value computed from models.
    private func compute<Model, Value>(_ aggregate: FetchAggregate<Model, Value>, of models: [Model]) throws -> Value {
        try naming(Model.self) { try aggregate.compute(models) }
    }

    /// Runs `body`, reporting a sum that does not fit in its type as an error naming the model and the attribute.
    private func naming<Model: PersistentModel, Result>(_ type: Model.Type, _ body: () throws -> Result) throws
        -> Result
    {
        do {
            return try body()
        } catch let overflow as AggregateOverflow {
            let entity = try binding(for: Model.self).entity
            let name = RecognizedKeyPath(overflow.keyPath, from: entity, in: container.schema).attribute?.name
            throw SwiftDataError.storeError.with(
                reason: "the sum of \(entity.name).\(name ?? "\(overflow.keyPath)") does not fit in \(overflow.type)",
                model: entity.name, property: name, suggestion: "Sum a wider attribute type, or select fewer models")
        }
    }
}
