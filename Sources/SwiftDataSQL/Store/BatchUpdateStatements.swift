import SwiftDataCore

/// The statements of a batch update (`ModelContext.update(model:where:...)`): `UPDATE <table> SET <column> = ?, ...
/// WHERE <condition> [RETURNING <key>]`, the condition being the request's predicate as the store translates it, or
/// its keys (one statement per chunk of them); in a hierarchy's table, limited to the request's entities' rows.
package enum BatchUpdateStatements {
    /// The statements that set `values` in the rows `request` selects: by its keys when it has them, otherwise by
    /// `condition` (the translation of its predicate, which must be exact; `nil` for every row). With `returning`,
    /// each statement returns the keys of the rows it updated.
    package static func statements<T: PersistentModel>(
        _ request: FetchRequest<T>, condition: SQLExpression?, values: [(property: Int, value: StoreValue)],
        returning: Bool = true, dialect: some SQLDialect
    ) -> [SQLStatement] {
        guard let keys = request.keys else {
            return [statement(request, condition, values, returning: returning, dialect: dialect)]
        }
        let key = SQLExpression.column(StoreLayout.keyColumn)
        return stride(from: 0, to: keys.count, by: PreparedSelect.maximumKeys).map { start in
            let chunk = keys[start..<min(start + PreparedSelect.maximumKeys, keys.count)]
            return statement(
                request, .inList(key, chunk.map { .bind(.int64($0), .integer) }), values, returning: returning,
                dialect: dialect)
        }
    }

    private static func statement<T: PersistentModel>(
        _ request: FetchRequest<T>, _ condition: SQLExpression?, _ values: [(property: Int, value: StoreValue)],
        returning: Bool, dialect: some SQLDialect
    ) -> SQLStatement {
        let entity = request.entity
        var generator = SQLGenerator(dialect: dialect)
        generator.write("UPDATE ")
        generator.writeIdentifier(StoreLayout.table(of: entity))
        generator.write(" SET ")
        for (offset, assignment) in values.enumerated() {
            guard let attribute = entity.attribute(at: assignment.property) else { continue }
            if offset > 0 { generator.write(", ") }
            generator.writeIdentifier(attribute.name)
            generator.write(" = ")
            generator.render(.bind(assignment.value, SQLType(column: attribute)))
        }
        if let condition = StoreLayout.condition(request, condition) {
            generator.write(" WHERE ")
            generator.render(condition)
        }
        if returning {
            generator.write(" RETURNING ")
            generator.writeIdentifier(StoreLayout.keyColumn)
        }
        return generator.statement
    }
}
