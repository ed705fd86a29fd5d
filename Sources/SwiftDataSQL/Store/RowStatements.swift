import SwiftDataCore

/// The text of a statement that writes one row, the types of its parameters in order, and whether the row's key is
/// the first parameter (otherwise the last).
package struct RowWriteStatement: Sendable {
    package let sql: String
    package let parameterTypes: [SQLType]
    package let keyFirst: Bool
}

/// The statements an SQL store writes and reads an entity's rows with, in its dialect. A row's parameters are its
/// key, then its attributes in order, then per reference the foreign key and, for an ordered to-many inverse, the
/// position (or, for a position after the last member, the foreign key again, from which the statement computes it).
package enum RowStatements {
    /// The insert of a row of `row`'s shape; an entity of a hierarchy's table writes its name as a literal, so that
    /// the statement is one per entity.
    package static func insert(_ row: RowWrite, entity: Schema.Entity, dialect: some SQLDialect) -> RowWriteStatement {
        var parameters = StatementParameters(dialect)
        let key = parameters.next(.integer)
        let assignments = assignments(row, entity: entity, parameters: &parameters)
        var columns = [dialect.quote(StoreLayout.keyColumn)] + assignments.map(\.column)
        var values = [key] + assignments.map(\.value)
        if StoreLayout.hasEntityColumn(entity) {
            columns.append(dialect.quote(StoreLayout.entityColumn))
            values.append(dialect.literal(entity.name))
        }
        return RowWriteStatement(
            sql: "INSERT INTO \(table(of: entity, dialect)) (\(columns.joined(separator: ", "))) "
                + "VALUES (\(values.joined(separator: ", ")))",
            parameterTypes: parameters.types, keyFirst: true)
    }

    /// The update of a row of `row`'s shape: its key comes first in a dialect that numbers its parameters.
    package static func update(_ row: RowWrite, entity: Schema.Entity, dialect: some SQLDialect) -> RowWriteStatement {
        var parameters = StatementParameters(dialect)
        let keyFirst = dialect.numbersParameters
        var key = keyFirst ? parameters.next(.integer) : ""
        let set = assignments(row, entity: entity, parameters: &parameters).map { "\($0.column) = \($0.value)" }
        if !keyFirst { key = parameters.next(.integer) }
        return RowWriteStatement(
            sql: "UPDATE \(table(of: entity, dialect)) SET \(set.joined(separator: ", ")) "
                + "WHERE \(dialect.quote(StoreLayout.keyColumn)) = \(key)",
            parameterTypes: parameters.types, keyFirst: keyFirst)
    }

    /// The delete of the row whose key is the parameter.
    package static func delete(_ entity: Schema.Entity, dialect: some SQLDialect) -> String {
        "DELETE FROM \(table(of: entity, dialect)) WHERE \(dialect.quote(StoreLayout.keyColumn)) = "
            + dialect.placeholder(1, type: .integer)
    }

    /// The delete of the rows with `count` keys (see `SQLDialect.keysCondition`).
    package static func delete(_ entity: Schema.Entity, keys count: Int, dialect: some SQLDialect) -> String {
        "DELETE FROM \(table(of: entity, dialect)) WHERE "
            + dialect.keysCondition(dialect.quote(StoreLayout.keyColumn), count: count, first: 1)
    }

    /// The key and `columns` of the rows whose keys are the integer list of the first parameter (see
    /// `SQLDialect.integerList`); column 0 is the key.
    package static func select(_ columns: [String], of entity: Schema.Entity, dialect: some SQLDialect) -> String {
        let key = dialect.quote(StoreLayout.keyColumn)
        let list = ([key] + columns.map(dialect.quote)).joined(separator: ", ")
        return "SELECT \(list) FROM \(table(of: entity, dialect)) WHERE "
            + dialect.integerListCondition(key, parameter: 1)
    }

    /// The references to externally stored values in `column` of the rows with `count` keys.
    package static func externalReferences(
        _ column: String, of entity: Schema.Entity, keys count: Int, dialect: some SQLDialect
    ) -> String {
        let column = dialect.quote(column)
        return "SELECT \(column) FROM \(table(of: entity, dialect)) WHERE "
            + dialect.keysCondition(dialect.quote(StoreLayout.keyColumn), count: count, first: 1)
            + " AND \(column) IS NOT NULL"
    }

    /// The values of `column` in every row of `entity`'s table that holds one.
    package static func values(of column: String, in entity: Schema.Entity, dialect: some SQLDialect) -> String {
        let column = dialect.quote(column)
        return "SELECT \(column) FROM \(table(of: entity, dialect)) WHERE \(column) IS NOT NULL"
    }

    /// The entity's table, quoted.
    package static func table(of entity: Schema.Entity, _ dialect: some SQLDialect) -> String {
        dialect.quote(StoreLayout.table(of: entity))
    }

    /// Column assignments of a row after its key: `(quoted column, value SQL)`, attributes first, then each
    /// reference's foreign key and position. A position after the last member is computed by SQL in the same
    /// statement, from the reference's key.
    private static func assignments<Dialect: SQLDialect>(
        _ row: RowWrite, entity: Schema.Entity, parameters: inout StatementParameters<Dialect>
    ) -> [(column: String, value: String)] {
        let dialect = parameters.dialect
        var result: [(column: String, value: String)] = []
        for attribute in row.attributes.compactMap({ entity.attribute(at: $0) }) {
            result.append((dialect.quote(attribute.name), parameters.next(SQLType(column: attribute))))
        }
        for reference in row.references {
            let foreignKey = dialect.quote(reference.relationship.name)
            result.append((foreignKey, parameters.next(.integer)))
            guard let position = reference.relationship.positionColumn else { continue }
            let column = dialect.quote(position)
            switch reference.position {
            case .last?:
                let owner = parameters.next(.integer)
                result.append(
                    (
                        column,
                        "(SELECT coalesce(max(\(column)), -1) + 1 FROM \(table(of: entity, dialect)) "
                            + "WHERE \(foreignKey) = \(owner))"
                    ))
            case .index?, nil:
                result.append((column, parameters.next(.integer)))
            }
        }
        return result
    }
}
