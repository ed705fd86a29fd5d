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
    /// Whether the expression is an SQL condition (true or false, never `NULL`) rather than a stored value.
    package var isCondition = false
    /// Whether evaluating the expression can raise an SQL error, standing for a Swift trap or throw. Such a term
    /// is evaluated in SQL only where Swift would evaluate it (behind `CASE`), never ahead of a short circuit.
    package var canFail = false
    /// Where the value lives in a JSON document, for members of `Codable` values and elements of arrays.
    package var json: JSONLocation?
    /// The value, when the node is a constant.
    package var constant: Any?
    /// The entity, when the term is a model: the predicate's input, a related model or a closure's parameter. The
    /// expression is then the model's key (`NULL` for no model).
    package var entity: Schema.Entity?
    /// Where a model term's columns are read.
    package var row = ModelRow.fetched
    /// The entity whose models this term identifies, when it is a `persistentModelID`; the expression is the key.
    package var identifies: Schema.Entity?
    /// The related rows, when the term is a to-many relationship (or a `filter` of one); the expression is then
    /// the owner's key.
    package var related: RelatedRows?
    /// An expression that is `NULL` wherever this term is, so that optional chaining needs no `CASE` around it.
    package var nullWith: SQLExpression?

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

    /// A condition: a `Bool` that is true or false, never `NULL`.
    package static func condition(_ expression: SQLExpression, canFail: Bool = false) -> SQLTerm {
        var term = SQLTerm(expression: expression, type: Bool.self, nulls: .never)
        term.isCondition = true
        term.canFail = canFail
        return term
    }

    /// The expression as a condition: a stored `Bool` is true when it equals `true`.
    package var asCondition: SQLExpression {
        isCondition ? expression : .binary(expression, .equal, .true)
    }

    /// A constant that has no SQL value of its own (a captured struct, bound to a closure's parameter): only its
    /// members can be used, folded into constants. Its kind is `unknown`, so no comparison or computation uses it.
    package static func opaqueConstant(_ value: Any, type: Any.Type) -> SQLTerm {
        var term = SQLTerm(expression: .null, type: type, nulls: .never)
        term.kind = .unknown
        term.constant = value
        return term
    }

    /// This term as a value of another type (a closure's parameter, an unwrapped optional), keeping what it refers
    /// to: its model, identifier, related rows or place in a JSON document.
    package func retyped(_ type: Any.Type, expression: SQLExpression? = nil) -> SQLTerm {
        var term = SQLTerm(expression: expression ?? self.expression, type: type)
        term.json = json
        term.canFail = canFail
        term.entity = entity
        term.row = row
        term.identifies = identifies
        term.related = related
        if entity != nil || identifies != nil || related != nil || kind == .unknown { term.kind = kind }
        return term
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
    /// `NULL` is a floating-point NaN, which the stores keep as `NULL`.
    case notANumber
}

/// A value inside a JSON document.
package struct JSONLocation {
    /// The JSON document's SQL.
    package var document: SQLExpression
    /// The keys of the value in the document, outermost first (none for the document itself).
    package var path: [String]
}

/// Where the columns of a model term's row are read.
package enum ModelRow: Equatable {
    /// The fetched row: its columns are the fetched table's (`SQLExpression.column`).
    case fetched
    /// A row of a subquery's source, under an alias.
    case alias(String)
    /// The row whose key is the term's expression: each column is read by a subquery, `NULL` without a row.
    case lookup
}
