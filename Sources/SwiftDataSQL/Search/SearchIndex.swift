import Foundation
import SwiftDataCore

/// `.search` indexes (`#Index<Note>(.search([\.body]))`): what a fetch adds to its condition so that the index
/// selects its candidates. A predicate whose top-level conjunction tests an indexed attribute with `contains`,
/// `localizedStandardContains` or `starts(with:)` and a constant needle gets `SQLExpression.search` for each such
/// test the dialect can serve (see `SQLDialect.searches`); the predicate's own condition still decides, so the
/// rows are the same with and without the index.
package enum SearchIndex {
    /// The name of the index of `column` in `table` (see `Schema.indexName`).
    package static func name(of table: String, _ column: String) -> String {
        Schema.indexName(.search, of: table, [column])
    }

    /// The conditions that select a predicate's candidates through the entity's `.search` indexes, or `nil`.
    package static func condition<T: PersistentModel>(
        for predicate: Predicate<T>, entity: Schema.Entity, dialect: some SQLDialect
    ) -> SQLExpression? {
        let columns = Set(entity.selfAndAncestors.flatMap(\.searchIndices).joined())
        guard !columns.isEmpty else { return nil }
        var needles = SearchNeedles(entity: entity, variable: predicate.variable.key, columns: columns)
        needles.add(predicate.expression)
        let table = StoreLayout.table(of: entity)
        let conditions = needles.found.compactMap { column, needle -> SQLExpression? in
            let folded = SearchText.folded(needle)
            guard dialect.searches(folded), !SearchText.expands(needle) else { return nil }
            return .search(
                key: .column(StoreLayout.keyColumn), column: .column(column), index: name(of: table, column),
                needle: folded)
        }
        guard let first = conditions.first else { return nil }
        return conditions.dropFirst().reduce(first, SQLExpression.and)
    }
}

/// The needles a predicate's top-level conjunction looks for in indexed attributes.
struct SearchNeedles {
    let entity: Schema.Entity
    let variable: PredicateExpressions.VariableID
    let columns: Set<String>
    /// Each test found: the attribute's column and the needle.
    var found: [(column: String, needle: String)] = []

    /// Adds the needles of `expression` if it is a search test or a conjunction of them.
    mutating func add(_ expression: Any) {
        (expression as? any SearchExpression)?.addNeedles(to: &self)
    }

    /// Adds `needle` when `term` is an indexed attribute of the fetched model and `needle` a constant string.
    mutating func add(_ term: Any, _ needle: Any) {
        guard let keyPath = term as? any PredicateKeyPathTerm, keyPath.variableKey == variable,
            let index = entity.propertyIndex(for: keyPath.anyKeyPath), let attribute = entity.attribute(at: index),
            columns.contains(attribute.name), let text = (needle as? any SearchValueTerm)?.text
        else { return }
        found.append((attribute.name, text))
    }
}

/// A predicate node that may test indexed attributes.
protocol SearchExpression {
    func addNeedles(to needles: inout SearchNeedles)
}

/// A key path in a predicate, from the predicate's variable or another node (`.search` and `.rtree` indexes look for
/// those of the fetched model).
package protocol PredicateKeyPathTerm {
    /// The variable the key path starts from, if it starts from one.
    var variableKey: PredicateExpressions.VariableID? { get }
    /// The key path.
    var anyKeyPath: AnyKeyPath { get }
}

/// A predicate's variable.
package protocol PredicateVariableTerm {
    /// The variable's identifier.
    var variableKey: PredicateExpressions.VariableID { get }
}

/// A constant, when it is a string.
protocol SearchValueTerm {
    var text: String? { get }
}

extension PredicateExpressions.KeyPath: PredicateKeyPathTerm {
    package var variableKey: PredicateExpressions.VariableID? { (root as? any PredicateVariableTerm)?.variableKey }
    package var anyKeyPath: AnyKeyPath { keyPath }
}

extension PredicateExpressions.Variable: PredicateVariableTerm {
    package var variableKey: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.Value: SearchValueTerm {
    var text: String? { value as? String }
}

extension PredicateExpressions.Conjunction: SearchExpression {
    func addNeedles(to needles: inout SearchNeedles) {
        needles.add(lhs)
        needles.add(rhs)
    }
}

extension PredicateExpressions.CollectionContainsCollection: SearchExpression {
    func addNeedles(to needles: inout SearchNeedles) { needles.add(base, other) }
}

extension PredicateExpressions.SequenceStartsWith: SearchExpression {
    func addNeedles(to needles: inout SearchNeedles) { needles.add(base, prefix) }
}

#if !canImport(Darwin)
    extension PredicateExpressions.StringLocalizedStandardContains: SearchExpression {
        func addNeedles(to needles: inout SearchNeedles) { needles.add(root, other) }
    }
#endif
