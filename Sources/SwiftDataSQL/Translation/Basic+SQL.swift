import Foundation
import SwiftDataCore

extension PredicateExpressions.Variable: SQLPredicateExpression {
    /// The model being fetched, or a closure's parameter.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        guard let term = translator.variables[key] else {
            throw translator.unsupported("a variable of type \(Output.self) is not in scope")
        }
        return term
    }
}

extension PredicateExpressions.KeyPath: SQLPredicateExpression {
    /// A member of the model (its attribute's column), of a `Codable` value or of a collection.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let member: CollectionMember? =
            switch kind {
            case .collectionCount?: .count
            case .collectionIsEmpty?: .isEmpty
            case .collectionFirst?: .first
            case .bidirectionalCollectionLast?: .last
            default: nil
            }
        let root: SQLTerm
        do {
            root = try translator.term(self.root)
        } catch {
            // A captured value SQL cannot hold (a struct) may still have members it can.
            guard let value = translator.constant(of: self.root)?.value as? Root.Output else { throw error }
            return try translator.term(PredicateExpressions.Value(value[keyPath: keyPath]))
        }
        if root.constant != nil, let value = root.constant as? Root.Output {
            // A member of a constant reads no model: evaluated once, its value is bound.
            return try translator.term(PredicateExpressions.Value(value[keyPath: keyPath]))
        }
        return try translator.member(keyPath, of: root, type: Output.self, collection: member)
    }
}

extension PredicateExpressions.Value: SQLPredicateExpression {
    /// A constant or captured value becomes a bound parameter, encoded as an attribute of its type is stored.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        if let bool = value as? Bool {
            var term = SQLTerm.condition(bool ? .true : .false)
            term.constant = bool
            return term
        }
        let kind = SQLValueKind(Output.self)
        switch kind {
        case .model:
            // A captured identifier (or model): compared by key (see `modelEquality`). Its expression only tells
            // `nil` from a value.
            let isNil = (value as? any _OptionalValue).map { $0._wrapped == nil } ?? false
            var term = SQLTerm(expression: isNil ? .null : .true, type: Output.self, nulls: .nilValue)
            term.constant = value
            return term
        case .unknown:
            throw translator.unsupported("a value of type \(Output.self) cannot be compared with stored values")
        case .url:
            let url = (value as? any _OptionalValue).map { $0._wrapped } ?? value
            if (url as? URL)?.baseURL != nil {
                throw translator.unsupported("a URL relative to a base URL is not equal to any stored URL")
            }
        default: break
        }
        let stored: StoreValue
        do {
            stored = try StoreValue(sqlConstant: value)
        } catch {
            throw translator.unsupported("a value of type \(Output.self) cannot be encoded: \(error)")
        }
        var term = SQLTerm(expression: .null, type: Output.self)
        if stored != .null, let type = SQLType(kind) { term.expression = .bind(stored, type) }
        term.constant = value
        if stored == .null && !term.isNil { term.nulls = .notANumber }
        return term
    }
}

extension PredicateExpressions.NilLiteral: SQLPredicateExpression {
    /// `nil`.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        var term = SQLTerm(expression: .null, type: Output.self, nulls: .nilValue)
        term.constant = Wrapped?.none as Any
        return term
    }
}

extension PredicateExpressions.Variable: SQLNonThrowingExpression {
    var operandNodes: [Any] { [] }
}

extension PredicateExpressions.KeyPath: SQLNonThrowingExpression {
    var operandNodes: [Any] { [root] }
}

extension PredicateExpressions.Value: SQLNonThrowingExpression {
    var operandNodes: [Any] { [] }
}

extension PredicateExpressions.NilLiteral: SQLNonThrowingExpression {
    var operandNodes: [Any] { [] }
}
