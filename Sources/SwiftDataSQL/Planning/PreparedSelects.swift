import SwiftDataCore

/// A store's prepared selects, by request shape, over the translations of predicate and sort they share: requests
/// that differ only around their predicate (window, keys, fetched properties, count) translate it once (see
/// `FetchShape.translation`).
package final class PreparedSelects<Translation: Sendable>: Sendable {
    private let selects = PlanCache<PreparedSelect>()
    private let translations = PlanCache<Translation>()

    package init() {}

    /// The select prepared for `request`'s shape, or the one `render` makes of the translation kept for the shape's
    /// predicate and sort (made by `translate` the first time). A request without a shape is translated and
    /// rendered each time.
    package func select<T: PersistentModel>(
        for request: FetchRequest<T>, translate: () -> Translation, render: (Translation) -> PreparedSelect
    ) -> PreparedSelect {
        guard let shape = FetchShape(request) else { return render(translate()) }
        return selects.plan(for: shape) { render(translations.plan(for: shape.translation, prepare: translate)) }
    }
}
