import SwiftDataCore

extension RowStore {
    /// The number of models a request for given keys selects, counted as its fetch selects them (keys whose rows
    /// are gone, or that the predicate leaves out, do not count).
    package func countByFetching<T: PersistentModel>(_ request: FetchRequest<T>, plan: FetchPlan) throws -> Int {
        var count = 0
        try fetch(request, plan: plan) { _, _ in count += 1 }
        return count
    }
}
