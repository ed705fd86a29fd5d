import SwiftDataCore

/// A store's translation of a request's predicate and sort, around which `PreparedSelect` renders its statements.
package protocol SelectTranslation: Sendable {
    /// The `WHERE` condition (`nil` selects every row of the entity).
    var condition: SQLExpression? { get }
    /// The `ORDER BY` terms, or `nil` when a sort descriptor has none.
    var orderings: [SQLOrdering]? { get }
    /// Which parts of the request the condition and orderings run.
    var coverage: FetchCoverage { get }
}

/// A store's prepared selects, by request shape, over the translations of predicate and sort they share: requests
/// that differ only around their predicate (window, keys, fetched properties, count) translate it once (see
/// `FetchShape.translation`), and requests that differ only in the integers and UUIDs they compare with (a fetch
/// by a key: ever other values) bind their values into a select prepared for others (see `SlotPlans`). What an SQL
/// store's `prepare` and its fetches share; only the translation is the store's own.
package final class PreparedSelects<Translation: SelectTranslation>: Sendable {
    private let selects = PlanCache<PreparedSelect>()
    private let translations = PlanCache<Translation>()
    private let slotPlans = SlotPlans()
    private let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The plan of `request` (`RowStore.prepare`): the select prepared for its shape, or the one rendered from the
    /// translation kept for its predicate and sort (made by `translate` the first time); such a plan is shared. A
    /// request without a shape is translated and rendered each time.
    package func plan<T: PersistentModel>(for request: FetchRequest<T>, translate: () -> Translation) -> FetchPlan {
        guard let shape = FetchShape(request) else {
            let prepared = render(request, translate())
            return FetchPlan(coverage: prepared.coverage, prepared: prepared)
        }
        if let prepared = selects.cached(shape) {
            return FetchPlan(coverage: prepared.coverage, prepared: prepared, isShared: true)
        }
        // Not prepared for these very values: perhaps for others, in which case this request's are bound instead.
        let generic = request.keys == nil ? shape.generic : nil
        if let generic, let bound = slotPlans.select(for: generic.shape, binding: generic.values) {
            return FetchPlan(coverage: bound.coverage, prepared: bound, isShared: true)
        }
        let prepared = selects.plan(for: shape) {
            render(request, translations.plan(for: shape.translation, prepare: translate))
        }
        if let generic { slotPlans.learn(generic.shape, from: prepared, values: generic.values) }
        return FetchPlan(coverage: prepared.coverage, prepared: prepared, isShared: true)
    }

    /// What `plan(for:translate:)` made of a request, or, for a plan another store made, what `translate` makes of
    /// it now.
    package func select<T: PersistentModel>(
        for request: FetchRequest<T>, plan: FetchPlan, translate: () -> Translation
    ) -> PreparedSelect {
        plan.prepared as? PreparedSelect ?? render(request, translate())
    }

    /// Renders a request's statements around its translation.
    private func render<T: PersistentModel>(_ request: FetchRequest<T>, _ translation: Translation) -> PreparedSelect {
        PreparedSelect(
            request, condition: translation.condition, orderings: translation.orderings,
            coverage: translation.coverage, dialect: dialect)
    }
}
