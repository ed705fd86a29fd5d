import SwiftDataCore

/// The statements of an SQL store's schema and migrations that every dialect writes alike.
package enum SchemaStatements {
    /// The metadata table: the recorded schema and the store's notes, by key.
    package static let metadataTable = "_swiftdata_metadata"
    /// The table of each entity table's highest key handed out.
    package static let sequenceTable = "_swiftdata_sequence"

    /// The store's own tables: the metadata, and each table's highest key handed out.
    package static func storeTables(_ dialect: some SQLDialect) -> [String] {
        let text = dialect.typeName(.text)
        return [
            "CREATE TABLE IF NOT EXISTS \(metadataTable) (key \(text) PRIMARY KEY, value \(text) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(sequenceTable) (entity \(text) PRIMARY KEY, "
                + "last_key \(dialect.typeName(.integer)) NOT NULL)",
        ]
    }

    /// A join table, keyed by owner and member, with the index of its member column.
    package static func createJoinTable(_ name: String, dialect: some SQLDialect) -> [String] {
        let integer = dialect.typeName(.integer)
        return [
            """
            CREATE TABLE \(dialect.quote(name)) ("owner" \(integer) NOT NULL, "member" \(integer) NOT NULL, \
            "position" \(integer), "inverse_position" \(integer), PRIMARY KEY ("owner", "member"))\(dialect.keyOnlyTableOptions)
            """,
            "CREATE INDEX \(dialect.quote(dialect.indexName("\(name)_member"))) ON \(dialect.quote(name)) (\"member\")",
        ]
    }

    /// The index of a foreign-key column, followed by its position column when it has one: loading the members of
    /// a to-many inverse reads them in their owners' order from the index instead of sorting them. Named as
    /// `Schema.foreignKeyIndexName` says.
    package static func foreignKeyIndex(
        _ entity: Schema.Entity, _ relationship: Schema.Relationship, dialect: some SQLDialect
    ) -> String {
        let columns = [relationship.name] + (relationship.positionColumn.map { [$0] } ?? [])
        let name = dialect.indexName(Schema.foreignKeyIndexName(of: entity.name, relationship.name))
        return "CREATE INDEX \(dialect.quote(name)) ON \(dialect.quote(entity.name)) "
            + "(\(columns.map(dialect.quote).joined(separator: ", ")))"
    }

    /// The tables that hold a schema's models, quoted: each hierarchy's root's table, and the join tables, each
    /// named by its owning side.
    package static func tables(of schema: Schema, dialect: some SQLDialect) -> [String] {
        var tables: [String] = []
        for entity in schema.entities {
            if entity.superentity == nil { tables.append(dialect.quote(entity.name)) }
            for relationship in entity.ownRelationships {
                if case .joinTable(let table, true) = relationship.storage { tables.append(dialect.quote(table)) }
            }
        }
        return tables
    }

    /// The number of rows of `table`, or, with `entities`, of its rows of those entities (see
    /// `StoreLayout.entityClause`).
    package static func rowCount(of table: String, entities: [String]? = nil, dialect: some SQLDialect) -> String {
        "SELECT count(*) FROM \(dialect.quote(table))"
            + (entities.map { StoreLayout.entityClause($0, in: dialect) } ?? "")
    }

    /// The number of rows of `table` whose `column` is `NULL`.
    package static func nilCount(of table: String, column: String, dialect: some SQLDialect) -> String {
        "SELECT count(*) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NULL"
    }

    /// Up to three groups of rows of `table` that hold the same non-`NULL` values in `columns`, each its values and
    /// its number of rows; `key` is what a column is compared as (the column itself unless the store says otherwise).
    package static func duplicates(
        in table: String, columns: [String], dialect: some SQLDialect, key: (_ column: String) -> String = { $0 }
    ) -> String {
        let keys = columns.map { key(dialect.quote($0)) }.joined(separator: ", ")
        let present = columns.map { "\(dialect.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        return "SELECT \(keys), count(*) FROM \(dialect.quote(table)) WHERE \(present) "
            + "GROUP BY \(keys) HAVING count(*) > 1 LIMIT 3"
    }
}
