import Foundation
import SwiftDataCore

/// The members of a collection that `PredicateExpressions.KeyPath` names.
enum CollectionMember {
    case count, isEmpty, first, last
}

extension PredicateTranslator {
    /// The SQL of `root[keyPath: keyPath]`. Every key path of a predicate goes through here: a member of a
    /// model is its attribute's column, a related model or related rows, or its identifier; a member of a
    /// `Codable` attribute is read from its JSON; `count` and `isEmpty` of related rows count them.
    func member(
        _ keyPath: AnyKeyPath, of root: SQLTerm, type: Any.Type, collection: CollectionMember?
    ) throws
        -> SQLTerm
    {
        if let entity = root.entity { return try modelMember(keyPath, of: root, entity: entity, type: type) }
        if let rows = root.related { return try relatedMember(collection, of: root, rows: rows, type: type) }
        if let member = collection { return try collectionMember(member, of: root, type: type) }
        if let location = root.json { return try jsonMember(keyPath, of: root, at: location, type: type) }
        throw unsupported("\(keyPath) is not a stored attribute or a member of one")
    }

    /// A stored property of a model, or its identifier.
    private func modelMember(
        _ keyPath: AnyKeyPath, of model: SQLTerm, entity: Schema.Entity, type: Any.Type
    ) throws -> SQLTerm {
        if let index = entity.propertyIndex(for: keyPath) {
            if let attribute = entity.attribute(at: index) {
                var term = SQLTerm(expression: column(attribute.name, of: model, in: entity), type: type)
                if attribute.layout == .json { term.json = JSONLocation(document: term.expression, path: []) }
                if model.row == .lookup { term.nullWith = model.expression }
                term.canFail = model.canFail
                return term
            }
            if let relationship = entity.relationship(at: index) {
                return try self.relationship(relationship, of: model, in: entity, type: type)
            }
        }
        if Self.isIdentifier(keyPath, of: entity) {
            var term = SQLTerm(expression: model.expression, type: type, nulls: .never)
            term.identifies = entity
            term.canFail = model.canFail
            return term
        }
        throw unsupported("\(keyPath) is not a stored property of \(entity.name)")
    }

    /// `count`, `isEmpty`, `first` and `last` of a string or of an array stored as JSON.
    private func collectionMember(_ member: CollectionMember, of root: SQLTerm, type: Any.Type) throws -> SQLTerm {
        switch (root.kind, member) {
        case (.string, .isEmpty):
            return .condition(.binary(root.expression, .equal, .bind(.string(""), .text)), canFail: root.canFail)
        case (.json, .count), (.json, .isEmpty):
            guard let location = root.json, root.nulls == .never else { break }
            let length = SQLExpression.jsonArrayLength(document: location.document, path: location.path)
            if member == .isEmpty { return .condition(.binary(length, .equal, .integer(0)), canFail: root.canFail) }
            var term = SQLTerm(expression: length, type: type)
            term.canFail = root.canFail
            return term
        default:
            break
        }
        throw unsupported("\(member) of a \(root.type) has no SQL translation")
    }

    /// A stored property of a `Codable` value, read with a JSON path. Only members whose JSON is the SQL value
    /// the store would hold (strings, integers, `Bool`s) or further `Codable` values are read this way.
    private func jsonMember(
        _ keyPath: AnyKeyPath, of root: SQLTerm, at location: JSONLocation, type: Any.Type
    )
        throws -> SQLTerm
    {
        let rootType = SQLValueKind.unwrapped(root.type)
        guard let key = CodableMemberPath.key(of: keyPath, in: rootType) else {
            throw unsupported(
                "\(keyPath) is not a property that \(rootType)'s Codable conformance stores under its name")
        }
        let path = location.path + [key]
        var term = SQLTerm(expression: .null, type: type)
        switch term.kind {
        case .string, .bool, .integer: break
        case .json: term.json = JSONLocation(document: location.document, path: path)
        default: throw unsupported("a \(term.kind) member of a Codable value is not stored as the store stores it")
        }
        if let valueType = SQLType(term.kind) {
            term.expression = .jsonValue(document: location.document, path: path, type: valueType)
        }
        if root.nulls == .nilValue { term.nulls = .nilValue }
        term.canFail = root.canFail
        return term
    }
}
