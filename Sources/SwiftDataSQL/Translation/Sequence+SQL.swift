import Foundation
import SwiftDataCore

extension PredicateTranslator {
    /// The most values a captured collection may have to become an SQL `IN` list.
    static let maximumListLength = 10_000

    /// `values.contains(x)` for captured values: `x IN (...)` with Swift's equality. NaN equals nothing; a `nil`
    /// element matches `nil`.
    func membership(of element: SQLTerm, in values: [Any]) throws -> SQLTerm {
        if element.kind == .model { return try modelMembership(of: element, in: values) }
        guard values.count <= Self.maximumListLength else {
            throw unsupported("a captured collection of \(values.count) values is too long for an SQL list")
        }
        guard let elementType = SQLType(element.kind) else {
            throw unsupported("contains of \(SQLValueKind.unwrapped(element.type)) values has no SQL translation")
        }
        var list: [SQLExpression] = []
        var containsNil = false
        for value in values {
            if (value as? any _OptionalValue)?._wrapped == nil && value is any _OptionalValue {
                containsNil = true
                continue
            }
            let stored: StoreValue
            do { stored = try StoreValue(sqlConstant: value) } catch {
                throw unsupported("a captured \(type(of: value)) cannot be compared with stored values")
            }
            if stored != .null { list.append(.bind(stored, elementType)) }
        }
        var conditions: [SQLExpression] = []
        if !list.isEmpty {
            let key = try equalityKey(element, comparedWith: values)
            if case .collate(_, let comparison) = key { list = list.map { .collate($0, comparison) } }
            var test = SQLExpression.inList(key, list)
            if element.nulls != .never { test = .coalesce([test, .false]) }
            conditions.append(test)
        }
        if containsNil && element.nulls == .nilValue {
            conditions.append(.binary(element.expression, .identical, .null))
        }
        let expression = conditions.count == 2 ? .or(conditions[0], conditions[1]) : conditions.first ?? .false
        return .condition(expression, canFail: element.canFail)
    }

    /// A test over the elements of an array stored as JSON: `EXISTS` over its elements with `condition` built
    /// from the element's term. Only elements whose JSON is the SQL value the store would hold qualify.
    func elements(
        of sequence: SQLTerm, type: Any.Type, condition: (SQLTerm) throws -> SQLExpression
    ) throws
        -> SQLExpression
    {
        guard let location = sequence.json, sequence.nulls == .never else {
            throw unsupported("\(sequence.type) is not a collection stored in the row")
        }
        let alias = "_element"
        var element = SQLTerm(expression: .null, type: type)
        switch element.kind {
        case .string, .bool, .integer: break
        default: throw unsupported("elements of type \(type) are not stored in JSON as the store stores them")
        }
        if let elementType = SQLType(element.kind) {
            element.expression = .jsonElement(alias: alias, type: elementType)
        }
        element.nulls = .never
        let source = SQLExpression.jsonArrayElements(document: location.document, path: location.path)
        let subquery = SQLSubquery(
            result: .true, sources: [SQLSource(source, alias: alias)], condition: try condition(element))
        return .exists(subquery.qualifyingColumns(with: fetchedTable))
    }
}

extension PredicateExpressions.SequenceContains: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [sequence, element] }

    /// `names.contains($0.name)` for a captured collection, `$0.tags.contains("x")` for an array attribute,
    /// `$0.animals.contains(animal)` for a to-many relationship.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        let element = try translator.term(element)
        if let values = translator.constant(of: sequence)?.value as? LHS.Output {
            return try translator.membership(of: element, in: values.map { $0 as Any })
        }
        let sequence = try translator.term(sequence)
        if let rows = sequence.related {
            guard !element.canFail else {
                // Swift evaluates the element once, members or not; SQL would once per member.
                throw translator.unsupported("contains of a value that can fail has no SQL translation")
            }
            let isMember = try translator.modelEquality(rows.member(), element, negated: false)
            return .condition(
                translator.exists(rows, where: isMember.expression), canFail: sequence.canFail || element.canFail)
        }
        let exists = try translator.elements(of: sequence, type: RHS.Output.self) { member in
            try translator.equality(member, element, negated: false).expression
        }
        return .condition(exists, canFail: sequence.canFail || element.canFail)
    }
}

extension PredicateTranslator {
    /// Whether some element of an array attribute passes a closure's test (or, `negated`, fails it): `EXISTS`
    /// over the elements, with the closure's parameter bound to each.
    func someElement(
        of sequence: Any, type: Any.Type, parameter: PredicateExpressions.VariableID, test: Any, negated: Bool
    ) throws -> SQLTerm {
        let sequence = try term(sequence)
        if let rows = sequence.related {
            let test = try memberTest(rows, parameter: parameter, test: test)
            return .condition(exists(rows, where: negated ? .not(test) : test), canFail: sequence.canFail)
        }
        var canFail = sequence.canFail
        let exists = try elements(of: sequence, type: type) { member in
            let condition = try binding(parameter, to: member).condition(test)
            canFail = canFail || condition.canFail
            return negated ? .not(condition.expression) : condition.expression
        }
        return .condition(exists, canFail: canFail)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [sequence, test] }

    /// `$0.tags.contains { ... }` for an array attribute or a to-many relationship.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        try translator.someElement(
            of: sequence, type: Element.self, parameter: variable.key, test: test, negated: false)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [sequence, test] }

    /// `$0.tags.allSatisfy { ... }` for an array attribute or a to-many relationship: no element fails the test.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        var failing = try translator.someElement(
            of: sequence, type: Element.self, parameter: variable.key, test: test, negated: true)
        failing.expression = .not(failing.expression)
        return failing
    }
}

extension PredicateExpressions.Filter: SQLPredicateExpression, SQLNonThrowingExpression {
    var operandNodes: [Any] { [sequence, filter] }

    /// `$0.animals.filter { ... }` for a to-many relationship: the members that pass the test, to be counted or
    /// tested further.
    package func sqlTerm(in translator: PredicateTranslator) throws -> SQLTerm {
        var sequence = try translator.term(sequence)
        guard var rows = sequence.related else {
            throw translator.unsupported("filter has an SQL translation only on to-many relationships")
        }
        rows.condition = .and(rows.condition, try translator.memberTest(rows, parameter: variable.key, test: filter))
        sequence.related = rows
        sequence.type = Output.self
        return sequence
    }
}
