import Foundation
import SwiftDataCore

/// Translates a `Predicate` over one entity's models into an SQL condition, by asking each node of the
/// predicate's expression tree for its SQL (every supported `PredicateExpressions` type conforms to
/// `SQLPredicateExpression`, as Foundation's own `NSPredicate` conversion does).
package struct PredicateTranslator {
    package let entity: Schema.Entity
    let dialect: any SQLDialect
    /// The identifier of the predicate's input variable: the model being tested.
    let modelVariable: PredicateExpressions.VariableID

    /// The SQL condition equivalent to `predicate`, or `unsupportedPredicate` naming the node that has none.
    package static func condition<T: PersistentModel>(
        for predicate: Predicate<T>, entity: Schema.Entity, dialect: any SQLDialect
    ) throws -> SQLExpression {
        let variable: PredicateExpressions.Variable<T> = predicate.variable
        let translator = PredicateTranslator(entity: entity, dialect: dialect, modelVariable: variable.key)
        return try translator.condition(predicate.expression)
    }

    /// The SQL condition of a Boolean-valued node.
    func condition(_ node: Any) throws -> SQLExpression {
        try term(node).asCondition
    }

    /// The SQL of any node.
    func term(_ node: Any) throws -> SQLTerm {
        guard let convertible = node as? any SQLPredicateExpression else {
            throw unsupported("\(Self.nodeName(node)) has no SQL translation yet")
        }
        return try convertible.sqlTerm(in: self)
    }

    /// The error for a construct the translator cannot express.
    func unsupported(_ reason: String) -> SwiftDataError {
        SwiftDataError.unsupportedPredicate.with(
            reason: reason, model: entity.name,
            suggestion: "Rewrite the predicate with comparisons of attributes, &&, || and !, or filter the fetched models in Swift")
    }

    /// A readable name of a node's type, without module prefixes.
    static func nodeName(_ node: Any) -> String {
        String(reflecting: type(of: node))
            .replacingOccurrences(of: "Foundation.", with: "")
            .replacingOccurrences(of: "FoundationEssentials.", with: "")
            .replacingOccurrences(of: "Swift.", with: "")
    }
}

/// A `PredicateExpressions` node that has an SQL translation.
package protocol SQLPredicateExpression {
    func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm
}

/// The SQL of a predicate node and what the translator needs to know about its value.
package struct SQLTerm {
    package var expression: SQLExpression
    /// The Swift type of the node's value.
    package var valueType: Any.Type
    /// Whether the value can be `nil` (SQL `NULL`).
    package var isNullable: Bool
    /// Whether the expression already is an SQL condition (a comparison, `AND`, ...).
    package var isCondition = false

    /// The expression as a condition: a stored `Bool` is true when it is 1.
    package var asCondition: SQLExpression {
        isCondition ? expression : .infix(expression, "=", .true)
    }

    /// The collation comparisons and orderings of this value need in `dialect`, if any.
    func collation(in dialect: any SQLDialect) -> String? {
        let type = (valueType as? any _OptionalValue.Type)?._wrappedType ?? valueType
        guard type == Decimal.self, let name = dialect.collation(for: .decimal), !name.isEmpty else { return nil }
        return name
    }

    static func condition(_ expression: SQLExpression) -> SQLTerm {
        SQLTerm(expression: expression, valueType: Bool.self, isNullable: false, isCondition: true)
    }
}
