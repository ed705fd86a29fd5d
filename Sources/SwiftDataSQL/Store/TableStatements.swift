import SwiftDataCore

/// A column of an entity's table, after its key: an attribute's, or a to-one relationship's key or position.
package struct TableColumn: Sendable {
    /// The column's name, unquoted.
    package let name: String
    /// The declared type, as the store writes it; empty for none.
    package let type: String
    /// Whether it is `NOT NULL`.
    package let isRequired: Bool

    /// The column's definition in `CREATE TABLE`.
    package func definition(_ dialect: some SQLDialect) -> String {
        dialect.quote(name) + (type.isEmpty ? "" : " \(type)") + (isRequired ? " NOT NULL" : "")
    }
}

/// An index a store makes: its name, the names stores made by earlier versions gave it (see
/// `Schema.earlierIndexNames`), the statement that creates it, and whether it stands for a column of an `.rtree`
/// index.
package struct StoreIndex: Sendable {
    /// The index's name, as the database keeps it.
    package let name: String
    /// The names earlier versions gave it, as the database keeps them, when they differ from `name`.
    package let earlierNames: [String]
    /// The `CREATE INDEX` statement.
    package let statement: String
    /// Whether it stands for a column of an `.rtree` index.
    package var isSpatial = false

    /// An index of these names and statement.
    package init(name: String, earlierNames: [String], statement: String) {
        self.name = name
        self.earlierNames = earlierNames
        self.statement = statement
    }
}

extension SchemaStatements {
    /// The columns of an entity's table after its key: the attributes the store keeps (typed and required as
    /// `attribute` says), then each to-one relationship's foreign key and position.
    package static func columns(
        of entity: Schema.Entity, dialect: some SQLDialect,
        attribute: (Schema.Attribute) -> (type: String, isRequired: Bool)
    ) -> [TableColumn] {
        var columns: [TableColumn] = []
        for property in entity.orderedAttributes where !property.options.contains(.ephemeral) {
            let (type, isRequired) = attribute(property)
            columns.append(TableColumn(name: property.name, type: type, isRequired: isRequired))
        }
        let integer = dialect.typeName(.integer)
        for relationship in entity.orderedRelationships where relationship.storage == .column {
            columns.append(TableColumn(name: relationship.name, type: integer, isRequired: false))
            if let position = relationship.positionColumn {
                columns.append(TableColumn(name: position, type: integer, isRequired: false))
            }
        }
        return columns
    }

    /// `CREATE TABLE` for an entity's table (named `tableName` when given) with its key and `columns`, then, for a
    /// table of the entity's name, the indexes of its foreign keys, and the join tables it owns (unless
    /// `withJoinTables` is false). The store's indexes of the table follow (see `index`).
    package static func createTable(
        _ entity: Schema.Entity, columns: [TableColumn], tableName: String? = nil, withJoinTables: Bool = true,
        dialect: some SQLDialect
    ) -> [String] {
        let key = "\(dialect.quote(StoreLayout.keyColumn)) \(dialect.typeName(.integer)) PRIMARY KEY"
        let definitions = [key] + columns.map { $0.definition(dialect) }
        var statements = [
            "CREATE TABLE \(dialect.quote(tableName ?? entity.name)) (\(definitions.joined(separator: ", ")))"
        ]
        for relationship in entity.orderedRelationships {
            switch relationship.storage {
            case .column where tableName == nil:
                statements.append(foreignKeyIndex(entity, relationship, dialect: dialect))
            case .joinTable(let name, true) where withJoinTables:
                statements += createJoinTable(name, dialect: dialect)
            case .column, .joinTable, .inverseColumn:
                continue
            }
        }
        return statements
    }

    /// The indexes of the foreign keys of an entity's table (see `foreignKeyIndex`).
    package static func foreignKeyIndexes(_ entity: Schema.Entity, dialect: some SQLDialect) -> [StoreIndex] {
        entity.orderedRelationships.filter { $0.storage == .column }.map { relationship in
            let names = foreignKeyIndexNames(of: entity.name, relationship.name, dialect: dialect)
            return StoreIndex(
                name: names[0], earlierNames: Array(names.dropFirst()),
                statement: foreignKeyIndex(entity, relationship, dialect: dialect))
        }
    }

    /// The name of a foreign key's index as the database keeps it, then the name earlier versions gave it when that
    /// was another (see `Schema.earlierForeignKeyIndexName`).
    package static func foreignKeyIndexNames(of entity: String, _ relationship: String, dialect: some SQLDialect)
        -> [String]
    {
        ([Schema.foreignKeyIndexName(of: entity, relationship)]
            + (Schema.earlierForeignKeyIndexName(of: entity, relationship).map { [$0] } ?? [])).map(dialect.indexName)
    }

    /// A unique constraint's or index's index on an entity's table, named as `Schema.indexName` says (a subentity's
    /// unique index, which covers its rows only, after the subentity); `term` writes a quoted column as the index
    /// holds it (as predicates compare it).
    package static func index(
        _ entity: Schema.Entity, columns: [String], unique: Bool = false, entities: [String]? = nil,
        dialect: some SQLDialect,
        term: (_ quoted: String, _ attribute: Schema.Attribute?) -> String = { quoted, _ in quoted }
    ) -> StoreIndex {
        let subentity = entities?.first
        let terms = columns.map { term(dialect.quote($0), entity.attributesByName[$0]) }
        let name = indexName(of: subentity ?? entity.name, columns, unique: unique, dialect: dialect)
        return StoreIndex(
            name: name,
            earlierNames: earlierIndexNames(
                table: entity.name, columns, unique: unique, subentity: subentity, dialect: dialect),
            statement: "CREATE \(unique ? "UNIQUE " : "")INDEX \(dialect.quote(name)) "
                + "ON \(dialect.quote(entity.name)) (\(terms.joined(separator: ", ")))"
                + (entities.map { StoreLayout.entityClause($0, in: dialect) } ?? ""))
    }

    /// The name of a unique constraint's or index's index (see `Schema.indexName`; `entity` is the table's, or the
    /// subentity's whose rows it covers), as the database keeps it.
    package static func indexName(of entity: String, _ columns: [String], unique: Bool, dialect: some SQLDialect)
        -> String
    {
        dialect.indexName(Schema.indexName(unique ? .unique : .index, of: entity, columns))
    }

    /// The names stores made by earlier versions gave a unique constraint's or index's index, as the database keeps
    /// them, when they differ from its name (see `Schema.earlierIndexNames`).
    package static func earlierIndexNames(
        table: String, _ columns: [String], unique: Bool, subentity: String? = nil, dialect: some SQLDialect
    ) -> [String] {
        let names = Schema.earlierIndexNames(unique ? .unique : .index, table: table, columns, subentity: subentity)
        let name = indexName(of: subentity ?? table, columns, unique: unique, dialect: dialect)
        return names.map(dialect.indexName).filter { $0 != name }
    }
}
