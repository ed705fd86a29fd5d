import Foundation

/// One group of `ModelContext.fetchGroups(_:by:aggregates:having:sortBy:)`: the values of its keys (one value, or a
/// tuple of them in the order of the key paths) and of its aggregates (likewise). An addition to Apple's SwiftData.
public struct AggregateGroup<Key, Values> {
    /// The values of the key paths the models were grouped by.
    public let key: Key
    /// The aggregates of the group's models, in the order they were asked for.
    public let values: Values

    /// A group with these keys and aggregates.
    public init(key: Key, values: Values) {
        self.key = key
        self.values = values
    }
}

extension AggregateGroup: Sendable where Key: Sendable, Values: Sendable {}

/// A condition on the aggregates of a group, SQL's `HAVING`: `.sum(\.total) > 100`, `.count >= 2`, combined with
/// `&&`, `||` and `!`. A group whose aggregate is `nil` (an average or minimum over no values) meets no comparison.
/// An addition to Apple's SwiftData.
public struct GroupCondition<Model: PersistentModel> {
    /// The condition as the store evaluates it.
    let condition: AggregateCondition
    /// The condition evaluated on a group's models in memory.
    let evaluate: (_ models: [Model]) throws -> Bool

    /// Whether both conditions hold.
    public static func && (lhs: GroupCondition, rhs: GroupCondition) -> GroupCondition {
        GroupCondition(condition: .and(lhs.condition, rhs.condition)) { try lhs.evaluate($0) && rhs.evaluate($0) }
    }

    /// Whether either condition holds.
    public static func || (lhs: GroupCondition, rhs: GroupCondition) -> GroupCondition {
        GroupCondition(condition: .or(lhs.condition, rhs.condition)) { try lhs.evaluate($0) || rhs.evaluate($0) }
    }

    /// Whether the condition does not hold.
    public static prefix func ! (operand: GroupCondition) -> GroupCondition {
        GroupCondition(condition: .not(operand.condition)) { try !operand.evaluate($0) }
    }
}

extension FetchAggregate where Value: AggregateComparable {
    /// Whether the group's aggregate equals `value`.
    public static func == (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> {
        lhs.compared(.equal, rhs, ==)
    }

    /// Whether the group's aggregate differs from `value`.
    public static func != (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> {
        lhs.compared(.notEqual, rhs, !=)
    }

    /// Whether the group's aggregate is less than `value`.
    public static func < (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> { lhs.compared(.less, rhs, <) }

    /// Whether the group's aggregate is at most `value`.
    public static func <= (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> {
        lhs.compared(.lessOrEqual, rhs, <=)
    }

    /// Whether the group's aggregate is greater than `value`.
    public static func > (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> {
        lhs.compared(.greater, rhs, >)
    }

    /// Whether the group's aggregate is at least `value`.
    public static func >= (lhs: FetchAggregate, rhs: Value) -> GroupCondition<Model> {
        lhs.compared(.greaterOrEqual, rhs, >=)
    }

    private func compared(
        _ comparison: AggregateCondition.Comparison, _ value: Value, _ holds: @escaping (Value, Value) -> Bool
    ) -> GroupCondition<Model> {
        let compute = self.compute
        return GroupCondition(condition: .compare(term, comparison, (try? StoreValue(encoding: value)) ?? .null)) {
            let aggregate = try compute($0)
            return aggregate == aggregate && holds(aggregate, value)
        }
    }
}

extension FetchAggregate {
    /// Whether the group's aggregate is not `nil` and equals `value`.
    public static func == <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.equal, rhs, ==) }

    /// Whether the group's aggregate is not `nil` and differs from `value`.
    public static func != <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.notEqual, rhs, !=) }

    /// Whether the group's aggregate is not `nil` and less than `value`.
    public static func < <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.less, rhs, <) }

    /// Whether the group's aggregate is not `nil` and at most `value`.
    public static func <= <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.lessOrEqual, rhs, <=) }

    /// Whether the group's aggregate is not `nil` and greater than `value`.
    public static func > <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.greater, rhs, >) }

    /// Whether the group's aggregate is not `nil` and at least `value`.
    public static func >= <V: AggregateComparable>(lhs: FetchAggregate, rhs: V) -> GroupCondition<Model>
    where Value == V? { lhs.compared(.greaterOrEqual, rhs, >=) }

    private func compared<V: AggregateComparable>(
        _ comparison: AggregateCondition.Comparison, _ value: V, _ holds: @escaping (V, V) -> Bool
    ) -> GroupCondition<Model> where Value == V? {
        let compute = self.compute
        return GroupCondition(condition: .compare(term, comparison, (try? StoreValue(encoding: value)) ?? .null)) {
            guard let aggregate = try compute($0) else { return false }
            return aggregate == aggregate && holds(aggregate, value)
        }
    }
}

/// How `ModelContext.fetchGroups(_:by:aggregates:having:sortBy:)` orders groups: by one of the keys they were grouped
/// by, or by an aggregate, each forward or in reverse, `nil` first in forward order as in Swift's sorts. Groups that
/// tie come in the order of their keys. An addition to Apple's SwiftData.
public struct GroupSortDescriptor<Model: PersistentModel> {
    /// What the groups are ordered by: a key path (one of the group keys) or an aggregate.
    enum Target {
        case key(AnyKeyPath, (Model) throws -> StoreValue)
        case aggregate(AggregateTerm, ([Model]) throws -> StoreValue)
    }

    let target: Target
    /// The order: forward (ascending) or reverse.
    public let order: SortOrder

    /// Orders groups by the value of one of the key paths they were grouped by.
    public static func key<K>(_ keyPath: KeyPath<Model, K>, order: SortOrder = .forward) -> GroupSortDescriptor {
        GroupSortDescriptor(target: .key(keyPath) { try StoreValue(encoding: $0[keyPath: keyPath]) }, order: order)
    }

    /// Orders groups by an aggregate of their models.
    public static func aggregate<V>(_ aggregate: FetchAggregate<Model, V>, order: SortOrder = .forward)
        -> GroupSortDescriptor
    {
        let compute = aggregate.compute
        return GroupSortDescriptor(
            target: .aggregate(aggregate.term) { try StoreValue(encoding: compute($0)) }, order: order)
    }
}
