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

    /// The columns of an entity's table after its key (NaN is kept as `NULL`, so `Double` columns accept it).
    static func columns(_ entity: Schema.Entity) -> [TableColumn] {
        SchemaStatements.columns(of: entity, dialect: dialect) { attribute in
            (attribute.postgresType.sqlName, !attribute.isOptional && attribute.layout?.valueType != .double)
        }
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
        SchemaStatements.createTable(entity, columns: columns(entity), dialect: dialect) + indexStatements(entity)
    }

    /// The index of a foreign-key column (see `SchemaStatements.foreignKeyIndex`).
    static func foreignKeyIndex(_ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String {
        SchemaStatements.foreignKeyIndex(entity, relationship, dialect: dialect)
    }

    /// A join table, with the index of its member column.
    static func createJoinTable(_ name: String) -> [String] { SchemaStatements.createJoinTable(name, dialect: dialect) }

    /// `CREATE [UNIQUE] INDEX` for the unique constraints and indexes of an entity's table (for a hierarchy's, its
    /// entities'; a subentity's unique index is partial, over its rows, and named after it), and a btree index of
    /// each column of its `.rtree` indexes (see `spatialColumns`). A string's column is indexed as predicates compare
    /// it (`normalize(x, NFC) COLLATE "C"`), so that lookups use the index and uniqueness follows Swift's `==`.
    static func indexStatements(_ entity: Schema.Entity) -> [String] {
        let setup = entity.searchIndices.isEmpty ? [] : searchSetup(entity)
        return setup + indexes(entity).map(\.statement)
    }

    /// What the `.search` indexes of an entity's table need: the `pg_trgm` extension (from the server's contrib
    /// package), in schema `public` where there is one, so that dropping a store's schema leaves it (a clear error
    /// naming the index when the server lacks it), and the function that folds text as
    /// `SearchText.folded` does for ASCII: compatibility-decomposed, without the common combining marks, lowercased,
    /// with `ß` and `ı` as `ss` and `i` (whose uppercase is ASCII).
    private static func searchSetup(_ entity: Schema.Entity) -> [String] {
        let index = "\(entity.name).\(entity.searchIndices.joined().joined(separator: ", "))"
            .replacingOccurrences(of: "'", with: "''")
        return [
            """
            DO $$ BEGIN BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; \
            EXCEPTION WHEN OTHERS THEN BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; \
            EXCEPTION WHEN OTHERS THEN RAISE EXCEPTION \
            'the .search index on \(index) needs PostgreSQL''s pg_trgm extension, which could not be created: %', \
            SQLERRM USING HINT = 'Install the server''s contrib package (postgresql-contrib) and let the store''s \
            role create extensions, or run CREATE EXTENSION pg_trgm as a superuser'; END; END; END $$
            """,
            """
            CREATE OR REPLACE FUNCTION swiftdata_search_text(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT \
            PARALLEL SAFE AS $$ SELECT lower(replace(replace(replace(regexp_replace(normalize(t, NFKD), \
            '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f\\u00ad\\u200b-\\u200f\\u2060-\\u2064\\ufeff]', \
            '', 'g'), 'ß', 'ss'), 'ẞ', 'ss'), 'ı', 'i')) $$
            """,
        ]
    }

    /// The unique constraints' and indexes' indexes of an entity's table, then those that stand for its `.rtree`
    /// indexes (see `indexStatements`).
    static func indexes(_ entity: Schema.Entity) -> [StoreIndex] {
        let indexes = StoreLayout.tableIndexes(of: entity)
        return plainAndUniqueIndexes(entity, indexes) + spatialIndexes(entity) + searchIndexes(entity)
    }

    /// The `pg_trgm` GIN indexes of an entity's `.search` indexes, on each column's folded text (see `searchSetup`).
    private static func searchIndexes(_ entity: Schema.Entity) -> [StoreIndex] {
        var columns: [String] = []
        for column in entity.searchIndices.joined() where !columns.contains(column) { columns.append(column) }
        return columns.map { column in
            let name = indexName(SearchIndex.name(of: entity.name, column))
            // The extension lives in one schema per database, the first store's: its operator class is named there.
            let literal = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
            return StoreIndex(
                name: name, earlierNames: [],
                statement: """
                    DO $$ DECLARE s text; BEGIN SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n \
                    ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'; EXECUTE format('CREATE INDEX %I ON %I \
                    USING gin (swiftdata_search_text(%I) %I.gin_trgm_ops)', \(literal(name)), \
                    \(literal(entity.name)), \(literal(column)), s); END $$
                    """)
        }
    }

    /// The btree indexes that stand for the `.rtree` indexes of an entity's table (see `spatialColumns`); a column
    /// the models index on its own already is left out.
    private static func spatialIndexes(_ entity: Schema.Entity) -> [StoreIndex] {
        let plain = Set(StoreLayout.tableIndexes(of: entity).filter { !$0.isUnique }.map(\.columns))
        return spatialColumns(of: entity.spatialIndices).filter { !plain.contains([$0]) }.map { column in
            var index = SchemaStatements.index(entity, columns: [column], dialect: dialect)
            index.isSpatial = true
            return index
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
        -> [StoreIndex]
    {
        indexes.map { index in
            SchemaStatements.index(
                entity, columns: index.columns, unique: index.isUnique, entities: index.entities, dialect: dialect
            ) { column, attribute in
                comparesAsString(attribute) ? "(normalize(\(column), NFC) COLLATE \"C\")" : column
            }
        }
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
                [SchemaStatements.indexName(of: subentity ?? table.name, columns, unique: unique, dialect: dialect)]
                + SchemaStatements.earlierIndexNames(
                    table: table.name, columns, unique: unique, subentity: subentity, dialect: dialect)
            for name in all where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The beginnings of the names of the unique constraints' and indexes' indexes of the entities `names` (see
    /// `Schema.indexNamePrefixes`).
    static func indexNamePrefixes(of names: [String]) -> [String] {
        names.flatMap { name in
            [Schema.IndexKind.unique, .index, .search].flatMap { Schema.indexNamePrefixes($0, of: name) }
        }
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
            objects += searchIndexes(root.tableEntity).map {
                Schema.StoreObject(
                    $0.name, .index, "the index of \(root.name)'s .search indexes", model: root.name,
                    remedy: "rename the model \(root.name) or a property of its .search indexes")
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
