import Foundation
import SwiftDataCore

/// The SQL of a predicate node and what the translator needs to know about its value.
package struct SQLTerm {
    /// The SQL of the node's value.
    package var expression: SQLExpression
    /// The Swift type of the node's value.
    package var type: Any.Type
    /// How values of `type` are stored and compared.
    package var kind: SQLValueKind
    /// What SQL `NULL` means for this value.
    package var nulls: NullMeaning
    /// Whether the expression is an SQL condition (0 or 1) rather than a stored value.
    package var isCondition = false
    /// Whether evaluating the expression can raise an SQL error, standing for a Swift trap or throw. Such a term
    /// is evaluated in SQL only where Swift would evaluate it (behind `CASE`), never ahead of a short circuit.
    package var canFail = false
    /// Where the value lives in a JSON document, for members of `Codable` values and elements of arrays.
    package var json: JSONLocation?
    /// The value, when the node is a constant.
    package var constant: Any?
    /// The entity, when the term is a model (the predicate's input).
    package var entity: Schema.Entity?

    package init(expression: SQLExpression, type: Any.Type, nulls: NullMeaning? = nil) {
        self.expression = expression
        self.type = type
        self.kind = SQLValueKind(type)
        self.nulls = nulls ?? SQLTerm.defaultNulls(type: type, kind: kind)
    }

    /// What `NULL` means for a value of `type`: `nil` for optionals, NaN for floating point, nothing otherwise.
    package static func defaultNulls(type: Any.Type, kind: SQLValueKind) -> NullMeaning {
        if SQLValueKind.isOptional(type) { return .nilValue }
        return kind.isFloatingPoint ? .notANumber : .never
    }

    /// A condition: a `Bool` that is 0 or 1, never `NULL`.
    package static func condition(_ expression: SQLExpression, canFail: Bool = false) -> SQLTerm {
        var term = SQLTerm(expression: expression, type: Bool.self, nulls: .never)
        term.isCondition = true
        term.canFail = canFail
        return term
    }

    /// The expression as a condition: a stored `Bool` is true when it is 1.
    package var asCondition: SQLExpression {
        isCondition ? expression : .infix(expression, "=", .true)
    }

    /// Whether the node is the `nil` literal or a constant `nil`.
    package var isNil: Bool {
        guard let constant else { return false }
        return (constant as? any _OptionalValue).map { $0._wrapped == nil } ?? false
    }
}

/// What SQL `NULL` stands for in a term.
package enum NullMeaning: Sendable {
    /// The term is never `NULL`.
    case never
    /// `NULL` is Swift's `nil`.
    case nilValue
    /// `NULL` is a floating-point NaN, which SQLite cannot store.
    case notANumber
}

/// A value inside a JSON document: `document` is the SQL of the JSON text, `path` an SQLite JSON path.
package struct JSONLocation {
    /// The JSON text's SQL.
    package var document: SQLExpression
    /// The path of the value in the document (`$` for the document itself).
    package var path: String
}
