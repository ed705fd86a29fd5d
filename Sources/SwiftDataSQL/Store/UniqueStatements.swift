import SwiftDataCore

/// The lookups of rows by a unique constraint's values, which Core's upsert makes before it writes new models. How a
/// column compares with a value is the store's (`Comparison`: as its unique index holds the column, so that the
/// lookup is one probe of that index); a subentity's constraint spans its rows only.
package enum UniqueStatements {
    /// How a store compares a constraint's column (quoted, perhaps qualified) with a value (a placeholder, or a
    /// column of the candidates); `attribute` is `nil` for a foreign key.
    package typealias Comparison = (_ column: String, _ value: String, _ attribute: Schema.Attribute?) -> String

    /// The key of the row whose `properties` equal the parameters, in order (then the entity names, in a
    /// hierarchy's table); `nil` when a property has no column.
    package static func existingKey(
        in entity: Schema.Entity, properties: [Int], dialect: some SQLDialect, compare: Comparison
    ) -> String? {
        var parameters = StatementParameters(dialect)
        var conditions: [String] = []
        for property in properties {
            guard let column = StoreLayout.columnName(of: property, in: entity) else { return nil }
            let attribute = entity.attribute(at: property)
            conditions.append(compare(dialect.quote(column), parameters.next(type(of: attribute)), attribute))
        }
        if let names = StoreLayout.entityNames(selectedBy: entity) {
            conditions.append(entityCondition(names.count, table: "", &parameters))
        }
        return "SELECT \(dialect.quote(StoreLayout.keyColumn)) FROM \(dialect.quote(StoreLayout.table(of: entity))) "
            + "WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
    }

    /// The keys of the rows that `count` candidates match: the candidates are a `VALUES` list (parameters: each
    /// candidate's number, then its values; then the entity names, in a hierarchy's table) joined to the table on
    /// the constraint's columns; the statement returns each match's number and key. `nil` when a property has no
    /// column.
    package static func existingKeys(
        in entity: Schema.Entity, properties: [Int], candidates count: Int, dialect: some SQLDialect,
        compare: Comparison
    ) -> String? {
        var parameters = StatementParameters(dialect)
        let types = properties.map { type(of: entity.attribute(at: $0)) }
        var rows: [String] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let values = [parameters.next(.integer)] + types.map { parameters.next($0) }
            rows.append("(" + values.joined(separator: ", ") + ")")
        }
        var conditions: [String] = []
        for (offset, property) in properties.enumerated() {
            guard let column = StoreLayout.columnName(of: property, in: entity) else { return nil }
            conditions.append(compare("t.\(dialect.quote(column))", "v.c\(offset)", entity.attribute(at: property)))
        }
        if let names = StoreLayout.entityNames(selectedBy: entity) {
            conditions.append(entityCondition(names.count, table: "t.", &parameters))
        }
        let columns = (["i"] + properties.indices.map { "c\($0)" }).joined(separator: ", ")
        return "WITH v(\(columns)) AS (VALUES \(rows.joined(separator: ", "))) "
            + "SELECT v.i, t.\(dialect.quote(StoreLayout.keyColumn)) FROM v "
            + "JOIN \(dialect.quote(StoreLayout.table(of: entity))) AS t ON \(conditions.joined(separator: " AND "))"
    }

    /// The type of a constraint's value: its attribute's column's, or a key.
    private static func type(of attribute: Schema.Attribute?) -> SQLType {
        attribute.map(SQLType.init(column:)) ?? .integer
    }

    /// That the row's entity is one of `count` names, the next parameters.
    private static func entityCondition<Dialect: SQLDialect>(
        _ count: Int, table: String, _ parameters: inout StatementParameters<Dialect>
    ) -> String {
        let names = (0..<count).map { _ in parameters.next(.text) }.joined(separator: ", ")
        return "\(table)\(parameters.dialect.quote(StoreLayout.entityColumn)) IN (\(names))"
    }
}
