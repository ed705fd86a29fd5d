import Foundation

/// A value computed over the models a `FetchDescriptor` selects, or over each group of them: a count, a sum, an
/// average, a minimum or a maximum of an attribute (of the model, or of a model it reaches through to-one
/// relationships, `\.category?.name`). Pass it to `ModelContext.fetchAggregate(_:_:)` or
/// `ModelContext.fetchGroups(_:by:aggregates:having:sortBy:)`, which compute it in the store's SQL.
///
/// The result types are Swift's: a sum has the attribute's type (`Decimal` stays exact), a count is an `Int`, and a
/// minimum, maximum or average is `nil` over no values, as `min()` is in Swift. `nil` values are skipped, and so are
/// floating-point NaNs, which the stores keep as `NULL`.
///
/// An addition to Apple's SwiftData, which offers only `fetchCount(_:)`.
public struct FetchAggregate<Model: PersistentModel, Value> {
    /// The value as a condition or a sort of groups names it.
    let term: AggregateTerm
    /// What the store computes for it, one column each (a `Decimal` average: its sum and count).
    let columns: [AggregateTerm]
    /// The value from the store's columns, the first at `column`.
    let read: (_ reader: any _RowReader, _ column: Int32) throws -> Value
    /// The value computed from models in memory.
    let compute: (_ models: [Model]) throws -> Value

    init(
        _ term: AggregateTerm, columns: [AggregateTerm]? = nil,
        read: @escaping (any _RowReader, Int32) throws -> Value, compute: @escaping ([Model]) throws -> Value
    ) {
        self.term = term
        self.columns = columns ?? [term]
        self.read = read
        self.compute = compute
    }
}

extension FetchAggregate where Value == Int {
    /// The number of models.
    public static var count: FetchAggregate {
        FetchAggregate(AggregateTerm(.count, nil), read: { Int(try $0.int64($1)) }, compute: { $0.count })
    }

    /// The number of models whose attribute is not `nil`.
    public static func count<V>(_ keyPath: KeyPath<Model, V?>) -> FetchAggregate {
        FetchAggregate(
            AggregateTerm(.count, keyPath), read: { Int(try $0.int64($1)) },
            compute: { $0.count(where: { present($0[keyPath: keyPath]) }) })
    }
}

extension FetchAggregate where Value: AggregateSummable {
    /// The sum of the attribute's values; zero over no models, as in Swift. A sum that does not fit in the type
    /// throws.
    public static func sum(_ keyPath: KeyPath<Model, Value>) -> FetchAggregate {
        summing(keyPath) { [$0[keyPath: keyPath]] }
    }

    /// The sum of the attribute's values that are not `nil`; zero without any.
    public static func sum(_ keyPath: KeyPath<Model, Value?>) -> FetchAggregate {
        summing(keyPath) { $0[keyPath: keyPath].map { [$0] } ?? [] }
    }

    /// A sum of the values `values` gives for each model.
    fileprivate static func summing(_ keyPath: AnyKeyPath, _ values: @escaping (Model) -> [Value]) -> FetchAggregate {
        FetchAggregate(
            AggregateTerm(.sum, keyPath),
            read: { reader, column in
                guard let sum = try Value._sum(from: reader, column: column) else {
                    throw overflow(keyPath, Value.self)
                }
                return sum
            },
            compute: { models in
                guard let sum = Value._total(models.flatMap(values).filter { $0 == $0 }) else {
                    throw overflow(keyPath, Value.self)
                }
                return sum
            })
    }
}

extension FetchAggregate {

    /// The mean of the attribute's values as a `Double`, or `nil` over no values.
    public static func average<V: AggregateSummable>(_ keyPath: KeyPath<Model, V>) -> FetchAggregate
    where Value == Double? {
        averaging(keyPath) { [$0[keyPath: keyPath]] }
    }

    /// The mean of the attribute's values that are not `nil`, as a `Double`, or `nil` without any.
    public static func average<V: AggregateSummable>(_ keyPath: KeyPath<Model, V?>) -> FetchAggregate
    where Value == Double? {
        averaging(keyPath) { $0[keyPath: keyPath].map { [$0] } ?? [] }
    }

    /// The mean of the attribute's values, their exact sum divided by their number in `Decimal` arithmetic, or `nil`
    /// over no values.
    public static func average(_ keyPath: KeyPath<Model, Decimal>) -> FetchAggregate where Value == Decimal? {
        decimalAverage(keyPath) { [$0[keyPath: keyPath]] }
    }

    /// The mean of the attribute's values that are not `nil`, in `Decimal` arithmetic, or `nil` without any.
    public static func average(_ keyPath: KeyPath<Model, Decimal?>) -> FetchAggregate where Value == Decimal? {
        decimalAverage(keyPath) { $0[keyPath: keyPath].map { [$0] } ?? [] }
    }

    /// The least of the attribute's values, as Swift's `<` orders them, or `nil` over no values.
    public static func minimum<V: AggregateComparable>(_ keyPath: KeyPath<Model, V>) -> FetchAggregate
    where Value == V? {
        extremum(.minimum, keyPath) { $0.min() }
    }

    /// The least of the attribute's values that are not `nil`, or `nil` without any.
    public static func minimum<V: AggregateComparable>(_ keyPath: KeyPath<Model, V?>) -> FetchAggregate
    where Value == V? {
        extremum(.minimum, keyPath) { $0.min() }
    }

    /// The greatest of the attribute's values, as Swift's `<` orders them, or `nil` over no values.
    public static func maximum<V: AggregateComparable>(_ keyPath: KeyPath<Model, V>) -> FetchAggregate
    where Value == V? {
        extremum(.maximum, keyPath) { $0.max() }
    }

    /// The greatest of the attribute's values that are not `nil`, or `nil` without any.
    public static func maximum<V: AggregateComparable>(_ keyPath: KeyPath<Model, V?>) -> FetchAggregate
    where Value == V? {
        extremum(.maximum, keyPath) { $0.max() }
    }

    // MARK: Building

    /// A `Double` average of the values `values` gives for each model.
    private static func averaging<V: AggregateSummable>(
        _ keyPath: AnyKeyPath, _ values: @escaping (Model) -> [V]
    ) -> FetchAggregate where Value == Double? {
        FetchAggregate(
            AggregateTerm(.average, keyPath),
            read: { reader, column in reader.isNull(column) ? nil : try reader.double(column) },
            compute: { models in
                let all = models.flatMap(values).filter { $0 == $0 }
                guard !all.isEmpty else { return nil }
                // Exact while the sum fits, as the stores add integers; in `Double` otherwise.
                let total = V._total(all)?._doubleValue ?? all.reduce(0) { $0 + $1._doubleValue }
                return total / Double(all.count)
            })
    }

    /// A `Decimal` average: the store's exact sum and count, divided here as in memory.
    private static func decimalAverage(_ keyPath: AnyKeyPath, _ values: @escaping (Model) -> [Decimal])
        -> FetchAggregate where Value == Decimal?
    {
        let sum = FetchAggregate<Model, Decimal>.summing(keyPath, values)
        return FetchAggregate(
            AggregateTerm(.average, keyPath), columns: [AggregateTerm(.sum, keyPath), AggregateTerm(.count, keyPath)],
            read: { reader, column in
                let count = try reader.int64(column + 1)
                return count == 0 ? nil : try sum.read(reader, column) / Decimal(count)
            },
            compute: { models in
                let count = models.lazy.flatMap(values).count(where: { $0 == $0 })
                return count == 0 ? nil : try sum.compute(models) / Decimal(count)
            })
    }

    /// A minimum or maximum, `pick` choosing it from the values that are not `nil` or NaN.
    private static func extremum<V: AggregateComparable, Attribute>(
        _ function: AggregateTerm.Function, _ keyPath: KeyPath<Model, Attribute>, _ pick: @escaping ([V]) -> V?
    ) -> FetchAggregate where Value == V? {
        FetchAggregate(
            AggregateTerm(function, keyPath),
            read: { reader, column in try ValueCodec.decode(V?.self, from: reader, column: column) },
            compute: { models in
                pick(models.compactMap { $0[keyPath: keyPath] as? V }.filter { $0 == $0 })
            })
    }

    /// The error of a sum that does not fit in its type, which the context names (see `AggregateOverflow`).
    fileprivate static func overflow(_ keyPath: AnyKeyPath, _ type: Any.Type) -> AggregateOverflow {
        AggregateOverflow(keyPath: keyPath, type: type)
    }
}

/// A sum that does not fit in its type, thrown by an aggregate and reported by the context as a `SwiftDataError`
/// naming the model and the attribute (see `ModelContext.fetchAggregate(_:_:)`).
///
/// `@unchecked Sendable`: a key path is an immutable value, though the standard library does not mark it `Sendable`.
struct AggregateOverflow: Error, @unchecked Sendable {
    let keyPath: AnyKeyPath
    let type: Any.Type
}

/// Whether an optional value holds a value.
private func present<V>(_ value: V?) -> Bool { value != nil }
