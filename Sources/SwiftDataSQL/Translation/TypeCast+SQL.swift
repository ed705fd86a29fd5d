import Foundation
import SwiftDataCore

extension PredicateExpressions.TypeCheck: SQLPredicateExpression {
    /// `model is Subclass`: whether the model's row is of the subclass's entity or of one below it, read from the
    /// entity column of its hierarchy's table.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let model = try translator.term(input)
        let test = try translator.typeTest(of: model, as: Desired.self)
        return .condition(test.condition ?? (test.entity == nil ? .false : .true), canFail: model.canFail)
    }
}

extension PredicateExpressions.ConditionalCast: SQLPredicateExpression {
    /// `model as? Subclass`: the model, as a model of the subclass's entity, where its row is of that entity (or of
    /// one below it), and `nil` elsewhere. Members read through it (`(model as? Subclass)?.property`) are `nil`
    /// where it is.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let model = try translator.term(input)
        let test = try translator.typeTest(of: model, as: Desired.self)
        var result = model.retyped(Output.self)
        result.nulls = .nilValue
        guard let entity = test.entity else {
            result.expression = .null
            result.entity = nil
            result.constant = Optional<Desired>.none as Any
            return result
        }
        result.entity = entity
        if let condition = test.condition { result.expression = .when(condition, then: model.expression, else: .null) }
        return result
    }
}

extension PredicateTranslator {
    /// Whether a model term's row is of `desired`'s entity (or of one below it): `entity` is that entity, or `nil`
    /// when no row of the model's entity can be; `condition` is `nil` when every row is (an upcast). A type that is
    /// not a model of the schema has no translation.
    func typeTest(of model: SQLTerm, as desired: Any.Type) throws -> (entity: Schema.Entity?, condition: SQLExpression?)
    {
        guard let entity = model.entity else {
            throw unsupported("a type test of a value that is not a model has no SQL translation")
        }
        guard let desiredType = desired as? any PersistentModel.Type,
            let target = schema.entitiesByName[String(describing: desiredType)],
            target.modelType.map(ObjectIdentifier.init) == ObjectIdentifier(desiredType)
        else {
            throw unsupported("\(desired) is not a model of the store, so a type test has no SQL translation")
        }
        if target.includes(entity) { return (target, nil) }
        guard entity.includes(target),
            let condition = StoreLayout.entityCondition(
                target, column: column(StoreLayout.entityColumn, of: model, in: entity))
        else { return (nil, nil) }
        // A missing model (a `nil` to-one) has no row, so no entity: the test is false.
        return (target, model.row == .fetched ? condition : .coalesce([condition, .false]))
    }
}
