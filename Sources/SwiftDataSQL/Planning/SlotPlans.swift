import SwiftDataCore
import Synchronization

/// The selects of requests that differ only in the values of their predicate's slots (the integers and UUIDs they
/// compare with, see `PredicateShape`), by generic shape (`FetchShape.generic`): a program that fetches by a key
/// asks with ever other values, and each would otherwise be translated and rendered anew (about 80,000
/// instructions, against a few thousand to bind).
///
/// Whether the values are only bound, and where, is learned, never assumed: the first request of a generic shape is
/// prepared as usual and kept as a sample; the next one with other values is prepared as usual too, and the two
/// selects are compared. If their SQL, coverage and parameters are the same but for parameters that hold, in each,
/// the value of one slot that changed (each such slot in at least one), the generic shape is *bound*: later
/// requests of it with the same values in the slots that did not change (a literal) get the sample's select with
/// their values in those parameters; others are prepared as usual. If the two differ otherwise (a value changed the
/// SQL, or went into a parameter through a computation), it is *fixed*: its requests are prepared one by one, as
/// before. Holds at most `capacity` generic shapes, and starts over when full.
final class SlotPlans: Sendable {
    private let plans = Mutex<[FetchShape: SlotPlan]>([:])
    private let capacity: Int

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// What is known of a generic shape.
    private enum SlotPlan {
        /// A select prepared for the shape's first request, and that request's values.
        case sample(PreparedSelect, [StoreValue])
        /// A select whose statements bind the slots' values at these parameters.
        case bound(PreparedSelect, PreparedSelect.SlotParameters)
        /// The values change more than parameters: each request is prepared on its own.
        case fixed
    }

    /// The select of a request of the generic `shape` with `values` in its slots, when the shape is bound.
    func select(for shape: FetchShape, binding values: [StoreValue]) -> PreparedSelect? {
        guard case .bound(let select, let parameters)? = plans.withLock({ $0[shape] }),
            parameters.pinned.allSatisfy({ values[$0.slot] == $0.value })
        else { return nil }
        return select.binding(values, at: parameters)
    }

    /// Learns from `prepared`, the select of a request of the generic `shape` with `values` in its slots.
    func learn(_ shape: FetchShape, from prepared: PreparedSelect, values: [StoreValue]) {
        plans.withLock { plans in
            switch plans[shape] {
            case nil:
                if plans.count >= capacity { plans.removeAll(keepingCapacity: true) }
                plans[shape] = .sample(prepared, values)
            case .sample(let sample, let sampleValues)?:
                switch sample.slotParameters(sampleValues, comparedWith: prepared, values) {
                case .bound(let parameters): plans[shape] = .bound(sample, parameters)
                case .undecided: plans[shape] = .sample(prepared, values)
                case .differs: plans[shape] = .fixed
                }
            case .bound?, .fixed?:
                break
            }
        }
    }
}

extension PreparedSelect {
    /// This select with `values` bound in its slots' parameters: the select of another request of its generic shape.
    func binding(_ values: [StoreValue], at parameters: SlotParameters) -> PreparedSelect {
        func bound(_ statement: SQLStatement?, _ slots: [(parameter: Int, slot: Int)]) -> SQLStatement? {
            guard var statement else { return nil }
            for (parameter, slot) in slots { statement.parameters[parameter] = values[slot] }
            return statement
        }
        return PreparedSelect(
            self, statement: bound(statement, parameters.select), count: bound(count, parameters.count))
    }

    /// Where a select's statements bind the slots' values: (parameter, slot) pairs for the select and for its count;
    /// and the slots whose value was the same in both requests compared (a literal, most often), which a request
    /// must hold too to be bound.
    struct SlotParameters: Sendable {
        let select: [(parameter: Int, slot: Int)]
        let count: [(parameter: Int, slot: Int)]
        let pinned: [(slot: Int, value: StoreValue)]
    }

    /// What comparing two selects of one generic shape tells (see `SlotPlans`).
    enum SlotComparison {
        case bound(SlotParameters)
        /// Two slots changed alike, or none did: ask again with other values.
        case undecided
        case differs
    }

    /// Compares this select, prepared for a request with `values` in its slots, with `other`, prepared for a request
    /// of the same generic shape with `otherValues`.
    func slotParameters(_ values: [StoreValue], comparedWith other: PreparedSelect, _ otherValues: [StoreValue])
        -> SlotComparison
    {
        guard values.count == otherValues.count, coverage == other.coverage, statement != nil,
            windowParameters == other.windowParameters
        else { return .differs }
        let changed = values.indices.filter { values[$0] != otherValues[$0] }
        // A parameter must tell which changed slot it holds.
        let pairs = changed.map { [values[$0], otherValues[$0]] }
        guard !changed.isEmpty, Set(pairs).count == pairs.count else { return .undecided }
        guard let select = slots(statement, other.statement, values, otherValues),
            Set(select.map(\.slot)).count == changed.count
        else { return .differs }
        let pinned = values.indices.filter { values[$0] == otherValues[$0] }.map { (slot: $0, value: values[$0]) }
        switch (count, other.count) {
        case (nil, nil):
            return .bound(SlotParameters(select: select, count: [], pinned: pinned))
        case (let count?, let otherCount?):
            guard let counts = slots(count, otherCount, values, otherValues) else { return .differs }
            return .bound(SlotParameters(select: select, count: counts, pinned: pinned))
        default:
            return .differs
        }
    }

    /// The parameters of `statement` (this select's) that hold a slot's value, and which, found by comparing it with
    /// `other`; `nil` when the two differ otherwise. The window's parameters, which each request binds, are left out.
    private func slots(
        _ statement: SQLStatement?, _ other: SQLStatement?, _ values: [StoreValue], _ otherValues: [StoreValue]
    ) -> [(parameter: Int, slot: Int)]? {
        guard let statement, let other, statement.sql == other.sql,
            statement.parameterTypes == other.parameterTypes,
            statement.parameters.count == other.parameters.count
        else { return nil }
        var found: [(parameter: Int, slot: Int)] = []
        for index in 0..<statement.parameters.count - windowParameters {
            let (value, otherValue) = (statement.parameters[index], other.parameters[index])
            guard !value.isIdentical(to: otherValue) else { continue }
            guard let slot = values.indices.first(where: { values[$0] == value && otherValues[$0] == otherValue })
            else { return nil }
            found.append((index, slot))
        }
        return found
    }
}
