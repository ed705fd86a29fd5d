import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The DDL of the PostgreSQL store's tables: an entity's table with its foreign-key indexes, join tables, unique
/// constraints and `#Index`es, and the store's own tables.
enum PostgresSchemaSQL {
    private static let dialect = PostgreSQLDialect()

    /// The store's own tables and the support functions its predicates call.
    static let storeTables: [String] =
        SchemaStatements.storeTables(dialect)
        + ["CREATE TABLE IF NOT EXISTS \(PostgresRowStore.externalTable) (id text PRIMARY KEY, data bytea NOT NULL)"]
        + PostgreSQLDialect.supportFunctions

    /// Whether predicates compare the attribute's values as Swift's `String` does (`normalize(x, NFC)`), so that its
    /// unique constraints and indexes are built on that expression.
    static func comparesAsString(_ attribute: Schema.Attribute?) -> Bool {
        guard let attribute, attribute.coding == nil, !attribute.isExternal else { return false }
        let type = SQLValueKind(attribute.valueType).comparable
        return type == .string || type == .url
    }

    /// A column of an entity's table, after its key.
    struct Column {
        let name: String
        /// The PostgreSQL type.
        let type: String
        /// Whether it is `NOT NULL`.
        let isRequired: Bool

        var definition: String { "\(PostgreSQLDialect().quote(name)) \(type)\(isRequired ? " NOT NULL" : "")" }
    }

    /// The columns of an entity's table after its key: the attributes (NaN is kept as `NULL`, so `Double` columns
    /// accept it), then each to-one relationship's foreign key and position.
    static func columns(_ entity: Schema.Entity) -> [Column] {
        var columns: [Column] = []
        for attribute in entity.orderedAttributes where !attribute.options.contains(.ephemeral) {
            let nullable = attribute.isOptional || attribute.layout?.valueType == .double
            columns.append(Column(name: attribute.name, type: attribute.postgresType.sqlName, isRequired: !nullable))
        }
        for relationship in entity.orderedRelationships where relationship.storage == .column {
            columns.append(Column(name: relationship.name, type: "bigint", isRequired: false))
            if let position = relationship.positionColumn {
                columns.append(Column(name: position, type: "bigint", isRequired: false))
            }
        }
        return columns
    }

    /// How the store records an attribute's storage in its schema: its column's type, as if kept in the row (an
    /// externally stored one's column holds a reference), with a `Date` told apart from a `Double`.
    static func recordedStorage(of attribute: Schema.Attribute) -> String {
        let type = attribute.layout?.valueType ?? .data
        return type == .date ? "double precision (seconds since 2001)" : PostgresType(storing: type).sqlName
    }

    /// `CREATE TABLE` for an entity's table (for a hierarchy, `Schema.Entity.tableEntity`), the indexes of its
    /// foreign keys, unique constraints and indexes, and the join tables it owns.
    static func createTable(_ entity: Schema.Entity) -> [String] {
        let columns =
            ["\(dialect.quote(PostgresRowStore.keyColumn)) bigint PRIMARY KEY"] + columns(entity).map(\.definition)
        var statements: [String] = []
        for relationship in entity.orderedRelationships {
            switch relationship.storage {
            case .column:
                statements.append(foreignKeyIndex(entity, relationship))
            case .joinTable(let name, true):
                statements += createJoinTable(name)
            case .joinTable, .inverseColumn:
                continue
            }
        }
        return ["CREATE TABLE \(dialect.quote(entity.name)) (\(columns.joined(separator: ", ")))"] + statements
            + indexStatements(entity)
    }

    /// The index of a foreign-key column (see `SchemaStatements.foreignKeyIndex`).
    static func foreignKeyIndex(_ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String {
        SchemaStatements.foreignKeyIndex(entity, relationship, dialect: dialect)
    }

    /// The name of a foreign key's index, shortened to PostgreSQL's 63 bytes (see `indexName(_:)`).
    static func foreignKeyIndexName(_ entity: String, _ relationship: String) -> String {
        indexName(Schema.foreignKeyIndexName(of: entity, relationship))
    }

    /// The names earlier versions gave a foreign key's index, when they differ from its name.
    static func earlierForeignKeyIndexNames(_ entity: String, _ relationship: String) -> [String] {
        Schema.earlierForeignKeyIndexName(of: entity, relationship).map { [indexName($0)] } ?? []
    }

    /// The indexes of the foreign keys of an entity's table (see `foreignKeyIndex`).
    static func foreignKeyIndexes(_ entity: Schema.Entity) -> [NamedIndex] {
        entity.orderedRelationships.filter { $0.storage == .column }.map { relationship in
            NamedIndex(
                name: foreignKeyIndexName(entity.name, relationship.name),
                earlierNames: earlierForeignKeyIndexNames(entity.name, relationship.name),
                statement: foreignKeyIndex(entity, relationship), isSpatial: false)
        }
    }

    /// A join table, with the index of its member column.
    static func createJoinTable(_ name: String) -> [String] { SchemaStatements.createJoinTable(name, dialect: dialect) }

    /// `CREATE [UNIQUE] INDEX` for the unique constraints and indexes of an entity's table (for a hierarchy's, its
    /// entities'; a subentity's unique index is partial, over its rows, and named after it), and a btree index of
    /// each column of its `.rtree` indexes (see `spatialColumns`). A string's column is indexed as predicates compare
    /// it (`normalize(x, NFC) COLLATE "C"`), so that lookups use the index and uniqueness follows Swift's `==`.
    static func indexStatements(_ entity: Schema.Entity) -> [String] {
        indexes(entity).map(\.statement)
    }

    /// An index of an entity's table: its name, the names stores made by earlier versions gave it when they differ
    /// (see `Schema.earlierIndexNames`), the statement that creates it, and whether it stands for a column of an
    /// `.rtree` index.
    struct NamedIndex {
        let name: String
        let earlierNames: [String]
        let statement: String
        let isSpatial: Bool
    }

    /// The unique constraints' and indexes' indexes of an entity's table, then those that stand for its `.rtree`
    /// indexes (see `indexStatements`).
    static func indexes(_ entity: Schema.Entity) -> [NamedIndex] {
        let indexes = StoreLayout.tableIndexes(of: entity)
        return plainAndUniqueIndexes(entity, indexes) + spatialIndexes(entity)
    }

    /// The btree indexes that stand for the `.rtree` indexes of an entity's table (see `spatialColumns`); a column
    /// the models index on its own already is left out.
    private static func spatialIndexes(_ entity: Schema.Entity) -> [NamedIndex] {
        let plain = Set(StoreLayout.tableIndexes(of: entity).filter { !$0.isUnique }.map(\.columns))
        return spatialColumns(of: entity.spatialIndices).filter { !plain.contains([$0]) }.map { column in
            let name = indexName(of: entity.name, [column], unique: false)
            return NamedIndex(
                name: name, earlierNames: earlierIndexNames(table: entity.name, [column], unique: false),
                statement:
                    "CREATE INDEX \(dialect.quote(name)) ON \(dialect.quote(entity.name)) (\(dialect.quote(column)))",
                isSpatial: true)
        }
    }

    /// The columns of a table's `.rtree` indexes, each once. PostgreSQL has no R*Tree module, and a GiST index over
    /// plain numbers needs the `btree_gist` extension and predicates written with its operators; what serves the
    /// bounded ranges such an index is for (`$0.latitude >= 45 && $0.latitude <= 46 && $0.longitude ...`) is a
    /// btree index of each column, which the planner combines (`BitmapAnd`) when several bound the rows.
    static func spatialColumns(of indexes: [[String]]) -> [String] {
        var columns: [String] = []
        for column in indexes.joined() where !columns.contains(column) { columns.append(column) }
        return columns
    }

    private static func plainAndUniqueIndexes(_ entity: Schema.Entity, _ indexes: [StoreLayout.TableIndex])
        -> [NamedIndex]
    {
        indexes.map { index in
            let terms = index.columns.map { column in
                comparesAsString(entity.attributesByName[column])
                    ? "(normalize(\(dialect.quote(column)), NFC) COLLATE \"C\")" : dialect.quote(column)
            }
            let subentity = index.entities?.first
            let name = indexName(of: subentity ?? entity.name, index.columns, unique: index.isUnique)
            let earlierNames = earlierIndexNames(
                table: entity.name, index.columns, unique: index.isUnique, subentity: subentity)
            let statement =
                "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(dialect.quote(name)) "
                + "ON \(dialect.quote(entity.name)) (\(terms.joined(separator: ", ")))"
                + (index.entities.map { StoreLayout.entityClause($0, in: dialect) } ?? "")
            return NamedIndex(name: name, earlierNames: earlierNames, statement: statement, isSpatial: false)
        }
    }

    /// The name of a unique constraint's or index's index (see `Schema.indexName`; `entity` is the table's, or the
    /// subentity's whose rows it covers), shortened to PostgreSQL's 63 bytes (see `indexName(_:)`).
    private static func indexName(of entity: String, _ columns: [String], unique: Bool) -> String {
        indexName(Schema.indexName(unique ? .unique : .index, of: entity, columns))
    }

    /// The names stores made by earlier versions gave a unique constraint's or index's index, when they differ from
    /// its name (see `Schema.earlierIndexNames`), shortened as `indexName(_:)` does.
    private static func earlierIndexNames(table: String, _ columns: [String], unique: Bool, subentity: String? = nil)
        -> [String]
    {
        let names = Schema.earlierIndexNames(unique ? .unique : .index, table: table, columns, subentity: subentity)
        let name = indexName(of: subentity ?? table, columns, unique: unique)
        return names.map(indexName).filter { $0 != name }
    }

    /// The names of the unique constraints' and indexes' indexes of a table as the store records it (`indexStatements`
    /// names them so), with the names stores made by earlier versions gave them.
    static func indexNames(of table: StoredSchema.StoredEntity) -> [String] {
        var indexes = (table.uniquenessConstraints ?? []).map { ($0, true, String?.none) }
        for entity in table.subentities ?? [] {
            indexes += (entity.uniquenessConstraints ?? []).map { ($0, true, entity.name) }
        }
        let plain =
            (table.indices ?? []) + (table.subentities ?? []).flatMap { $0.indices ?? [] }
            + spatialColumns(of: table.spatialIndices ?? []).map { [$0] }
        indexes += plain.map { ($0, false, nil) }
        var names: [String] = []
        for (columns, unique, subentity) in indexes {
            let all =
                [indexName(of: subentity ?? table.name, columns, unique: unique)]
                + earlierIndexNames(table: table.name, columns, unique: unique, subentity: subentity)
            for name in all where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The beginnings of the names of the unique constraints' and indexes' indexes of the entities `names` (see
    /// `Schema.indexNamePrefixes`).
    static func indexNamePrefixes(of names: [String]) -> [String] {
        names.flatMap { name in [Schema.IndexKind.unique, .index].flatMap { Schema.indexNamePrefixes($0, of: name) } }
    }

    /// Refuses a schema two of whose store objects would share a name (see `Schema.checkStoreNames`): the schema's,
    /// the indexes that stand for its `.rtree` indexes, the store's own tables, the sequence of the history's numbers,
    /// and the index of each table's primary key, which PostgreSQL names `<table>_pkey`. PostgreSQL keeps the first 63
    /// bytes of a longer table name (the store shortens an index's name itself, see `indexName(_:)`).
    ///
    /// A primary key's index only takes `<table>_pkey` when that name is free as PostgreSQL makes the table: when a
    /// table of that name is among `existingTables` (those already in the store's PostgreSQL schema), PostgreSQL
    /// gives the index another name (`<table>_pkey1`), as in stores made before this check, so it is no clash.
    static func checkStoreNames(_ schema: Schema, existingTables: Set<String>) throws {
        var objects = schema.storeObjects
        for root in schema.entities where root.superentity == nil {
            objects += spatialIndexes(root.tableEntity).map {
                Schema.StoreObject(
                    $0.name, .index, "an index that stands for \(root.name)'s .rtree indexes", model: root.name,
                    remedy: "rename the model \(root.name) or a property of its .rtree indexes")
            }
        }
        objects += [
            PostgresRowStore.metadataTable, PostgresRowStore.sequenceTable, PostgresRowStore.externalTable,
            PostgresRowStore.historyTable, PostgresRowStore.savesTable,
        ].map(Schema.StoreObject.storeTable)
        objects += objects.filter { $0.kind == .table }.map {
            Schema.StoreObject(
                truncated($0.name, to: 63 - 5) + "_pkey", .index, "the primary key index of \($0.description)",
                model: $0.model, property: $0.property, remedy: $0.remedy)
        }.filter { !existingTables.contains($0.name) }
        objects.append(
            Schema.StoreObject(
                "\(PostgresRowStore.historyTable)_number_seq", .table, "the sequence of the store's history numbers"))
        try Schema.checkStoreNames(objects) { $0.kind == .table ? truncated($0.name, to: 63) : indexName($0.name) }
    }

    /// The longest beginning of `name` of at most `bytes` bytes in UTF-8 that ends with a whole character, as
    /// PostgreSQL shortens a name.
    static func truncated(_ name: String, to bytes: Int) -> String {
        guard name.utf8.count > bytes else { return name }
        var count = 0
        return String(
            String.UnicodeScalarView(
                name.unicodeScalars.prefix { scalar in
                    count += UTF8.width(scalar)
                    return count <= bytes
                }))
    }

    /// A name PostgreSQL keeps whole (see `PostgreSQLDialect.indexName`).
    static func indexName(_ name: String) -> String { dialect.indexName(name) }
}
