import Foundation
import SwiftDataCore

/// What SQL runs of a request in an SQL store: the predicate's translation (exact, or a superset of its rows), and
/// the `ORDER BY` terms, or `nil` when a sort descriptor has none. A part left to memory is reported once per
/// predicate shape, without values.
package struct SelectPlan: SelectTranslation {
    package var predicate: PredicateTranslation?
    package var orderings: [SQLOrdering]?
    /// A condition that bounds the candidates further (SQLite's spatial index, `.search` indexes), if any.
    package var narrowing: SQLExpression?

    package var condition: SQLExpression? {
        guard let predicate = predicate?.condition else { return narrowing }
        return narrowing.map { .and(predicate, $0) } ?? predicate
    }

    package var coverage: FetchCoverage {
        FetchCoverage(predicate: predicate?.isExact ?? true, sort: orderings != nil)
    }

    /// Translates a request's predicate and sort in `dialect` (a fetch uses the plan a store prepared for its shape
    /// instead); `narrowing` is the store's own condition for the predicate, if any.
    package init<T: PersistentModel>(
        _ request: FetchRequest<T>, schema: Schema, storeIdentifier: String, dialect: some SQLDialect,
        narrowing narrow: (Predicate<T>) -> SQLExpression? = { _ in nil }
    ) {
        let entity = request.entity
        predicate = request.predicate.map {
            PredicateTranslator.translate(
                $0, entity: entity, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        }
        if let translation = predicate, !translation.isExact, let predicate = request.predicate {
            var shape = PredicateTranslator.nodeName(predicate.expression)
            if shape.count > 300 { shape = shape.prefix(300) + "…" }
            Log.warningOnce(
                "part of a predicate on \(entity.name) is evaluated in memory (\(translation.reason ?? "no SQL")); "
                    + "predicate shape: \(shape)")
        }
        do {
            orderings = try SortTranslator.orderings(
                for: request.sortBy, entity: entity, schema: schema, dialect: dialect)
        } catch {
            Log.warningOnce("sorting \(entity.name) happens in memory: \(error)")
        }
        narrowing = request.predicate.flatMap { predicate in
            let search = SearchIndex.condition(for: predicate, entity: entity, dialect: dialect)
            return narrow(predicate).map { own in search.map { .and(own, $0) } ?? own } ?? search
        }
    }
}
