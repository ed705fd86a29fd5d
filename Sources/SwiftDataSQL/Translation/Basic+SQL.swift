import Foundation
import SwiftDataCore

extension PredicateExpressions.KeyPath: SQLPredicateExpression {
    /// A persisted attribute of the model being tested becomes its column.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        guard let variable = root as? any ModelVariable, variable.variableKey == translator.modelVariable else {
            throw translator.unsupported("the key path \(keyPath) does not start at the model being fetched")
        }
        guard let index = translator.entity.propertyIndex(for: keyPath),
            let attribute = translator.entity.orderedAttributes.first(where: { $0.index == index })
        else {
            throw translator.unsupported("\(keyPath) is not a stored attribute of \(translator.entity.name)")
        }
        return SQLTerm(expression: .column(attribute.name), valueType: Output.self, isNullable: attribute.isOptional)
    }
}

/// The predicate's variables, whatever their type.
protocol ModelVariable {
    var variableKey: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: ModelVariable {
    var variableKey: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.Value: SQLPredicateExpression {
    /// A constant or captured value becomes a bound parameter, encoded as an attribute of its type is stored.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let stored: StoredValue
        do {
            stored = try StoredValue(encoding: value)
        } catch {
            throw translator.unsupported("a value of type \(Output.self) cannot be compared with stored values")
        }
        if Output.self == Bool.self {
            return SQLTerm.condition(stored == .integer(1) ? .true : .false)
        }
        return SQLTerm(expression: .value(stored), valueType: Output.self, isNullable: stored == .null)
    }
}

extension PredicateExpressions.NilLiteral: SQLPredicateExpression {
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        SQLTerm(expression: .keyword("NULL"), valueType: Output.self, isNullable: true)
    }
}
