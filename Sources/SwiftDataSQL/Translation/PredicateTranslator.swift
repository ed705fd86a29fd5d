import Foundation
import SwiftDataCore

/// Translates a `Predicate` over one entity's models into an SQL condition, by asking each node of the
/// predicate's expression tree for its SQL (every supported `PredicateExpressions` type conforms to
/// `SQLPredicateExpression`, as Foundation's own `NSPredicate` conversion does). The SQL has Swift's
/// semantics: two-valued conditions, `nil` compared as Swift compares it, Swift's string, decimal and unsigned
/// ordering, and an SQL error where Swift would trap or throw.
package struct PredicateTranslator {
    /// The entity of the models the predicate tests.
    package let entity: Schema.Entity
    /// The store's schema, where relationships lead.
    package let schema: Schema
    /// The identifier of the store, which identifiers compared in the predicate must name.
    package let storeIdentifier: String?
    /// The SQL dialect of the store.
    package let dialect: any SQLDialect
    /// The terms of the variables in scope: the model being fetched and the parameters of closures.
    var variables: [PredicateExpressions.VariableID: SQLTerm] = [:]
    /// Names the tables of subqueries, each differently.
    let aliases = SQLAliases()

    /// A translator for predicates and sorts over the models of `entity`.
    package init(entity: Schema.Entity, schema: Schema, storeIdentifier: String?, dialect: any SQLDialect) {
        self.entity = entity
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
    }

    /// The table of the fetched entity, whose columns subqueries qualify with its name.
    var fetchedTable: String { StoreLayout.table(of: entity) }

    /// The fetched model: its key is the `_pk` column, its columns the fetched table's.
    func fetchedModel(_ type: Any.Type) -> SQLTerm {
        var model = SQLTerm(expression: .column(StoreLayout.keyColumn), type: type, nulls: .never)
        model.entity = entity
        return model
    }

    /// The SQL of `predicate`: an exact condition, or, when a part of it has no SQL, a condition that selects a
    /// superset of its models (or none at all), which the caller then filters in memory.
    package static func translate<T: PersistentModel>(
        _ predicate: Predicate<T>, entity: Schema.Entity, schema: Schema, storeIdentifier: String?,
        dialect: any SQLDialect
    ) -> PredicateTranslation {
        let variable: PredicateExpressions.Variable<T> = predicate.variable
        var translator = PredicateTranslator(
            entity: entity, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        translator.variables[variable.key] = translator.fetchedModel(T.self)
        var translation = translator.partial(predicate.expression)
        if !translation.isExact && mayThrow(predicate.expression) {
            // Swift would evaluate every row, and may throw on one that the partial SQL leaves out.
            translation.condition = nil
        }
        return translation
    }

    /// The SQL condition of a Boolean-valued node.
    func condition(_ node: Any) throws -> SQLTerm {
        let term = try term(node)
        guard term.kind == .bool else { throw unsupported("\(Self.nodeName(node)) is not a condition") }
        var condition = SQLTerm.condition(term.asCondition, canFail: term.canFail)
        condition.constant = term.constant
        return condition
    }

    /// The SQL of any node.
    func term(_ node: Any) throws -> SQLTerm {
        guard let convertible = node as? any SQLPredicateExpression else {
            throw unsupported("\(Self.nodeName(node)) has no SQL translation")
        }
        return try convertible.sqlTerm(in: self)
    }

    /// This translator with a closure parameter in scope.
    func binding(_ variable: PredicateExpressions.VariableID, to term: SQLTerm) -> PredicateTranslator {
        var copy = self
        copy.variables[variable] = term
        return copy
    }

    /// The error for a construct the translator cannot express.
    func unsupported(_ reason: String) -> SQLTranslationError {
        SQLTranslationError(reason: reason)
    }

    /// A call of a computation with Swift's semantics, or an error when the dialect cannot express it.
    func call(_ function: SQLFunction, _ arguments: [SQLExpression]) throws -> SQLExpression {
        if let reason = dialect.reasonUnsupported(function) { throw unsupported(reason) }
        return .call(function, arguments)
    }

    /// `expression` as a key compared as `comparison`, or an error when the dialect cannot compare so.
    func collated(_ expression: SQLExpression, _ comparison: ValueComparison) throws -> SQLExpression {
        if let reason = dialect.reasonUnsupported(comparison) { throw unsupported(reason) }
        return .collate(expression, comparison)
    }

    /// A readable name of a node's type, without module prefixes.
    package static func nodeName(_ node: Any) -> String {
        String(reflecting: type(of: node))
            .replacingOccurrences(of: "Foundation.", with: "")
            .replacingOccurrences(of: "FoundationEssentials.", with: "")
            .replacingOccurrences(of: "Swift.", with: "")
            .replacingOccurrences(of: "PredicateExpressions.", with: "")
    }
}

/// Hands out the aliases of a translation's subquery tables: `_r1`, `_r2`, ...
final class SQLAliases {
    private var count = 0

    func next() -> String {
        count += 1
        return "_r\(count)"
    }
}

/// A `PredicateExpressions` node that has an SQL translation.
package protocol SQLPredicateExpression {
    func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm
}

/// Why a part of a predicate or sort has no SQL translation.
package struct SQLTranslationError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
}

/// The SQL a predicate became.
package struct PredicateTranslation {
    /// The condition, or `nil` when every row is a candidate.
    package var condition: SQLExpression?
    /// Whether `condition` selects exactly the predicate's models; otherwise they are a subset of its rows,
    /// to be found by evaluating the predicate in memory.
    package var isExact: Bool
    /// Whether evaluating `condition` can raise an SQL error.
    package var canFail = false
    /// Why a part of the predicate has no SQL translation.
    package var reason: String?
}
