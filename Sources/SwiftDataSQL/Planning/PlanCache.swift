import Synchronization

/// The plans a store prepared, by request shape, shared by every thread that fetches from the store. It holds at
/// most `capacity` plans and starts over when full, so predicates built with ever new constants cannot make it
/// grow without bound.
package final class PlanCache<Plan: Sendable>: Sendable {
    private let plans = Mutex<[FetchShape: Plan]>([:])
    private let capacity: Int

    package init(capacity: Int = 512) {
        self.capacity = capacity
        // Room for a program's usual handful of shapes, made when the store opens rather than by its first fetch.
        plans.withLock { $0.reserveCapacity(32) }
    }

    /// The plan prepared for `shape`, if there is one.
    package func cached(_ shape: FetchShape) -> Plan? {
        plans.withLock { $0[shape] }
    }

    /// The plan prepared for `shape`, or the one `prepare` makes, kept for the next request of that shape.
    package func plan(for shape: FetchShape, prepare: () -> Plan) -> Plan {
        if let plan = plans.withLock({ $0[shape] }) { return plan }
        let plan = prepare()
        plans.withLock { plans in
            if plans.count >= capacity { plans.removeAll(keepingCapacity: true) }
            plans[shape] = plan
        }
        return plan
    }
}
