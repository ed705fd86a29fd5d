import Foundation
import SwiftDataCore
import SwiftDataSQL

/// `.search` indexes (`#Index<Note>(.search([\.body]))`), kept in SQLite's FTS5 module with its trigram tokenizer.
///
/// Each indexed column has an FTS5 table `<Entity>_search_<column>` (named as `Schema.indexName` says) of the
/// column's folded text (see `SearchText.folded`) by row key. Triggers on the entity's table keep it in step with
/// every insert, update and delete, in the same transaction, whoever writes the row (a save, a batch update, a
/// migration); they call the store's `swiftdata_search_text` function, so a program that writes such a table must
/// open the store through this library. A fetch finds its candidates through the table (see `SearchIndex`).
enum SQLiteSearchIndex {
    /// The FTS5 table of a column's index.
    static func table(of entity: String, _ column: String) -> String {
        SearchIndex.name(of: entity, column)
    }

    /// The columns indexed, each once.
    private static func columns(_ indexes: [[String]]) -> [String] {
        var columns: [String] = []
        for column in indexes.joined() where !columns.contains(column) { columns.append(column) }
        return columns
    }

    /// The tables of the `.search` indexes of a table (`entity`, a table's entity): each index's FTS5 table and the
    /// tables SQLite makes for it (see `Schema.checkStoreNames`).
    static func storeObjects(of entity: Schema.Entity) -> [Schema.StoreObject] {
        columns(entity.searchIndices).flatMap { column in
            let name = table(of: entity.name, column)
            return ["", "_data", "_idx", "_content", "_docsize", "_config"].map { suffix in
                Schema.StoreObject(
                    name + suffix, .table,
                    "the \(suffix.isEmpty ? "" : "\(suffix) ")table of \(entity.name)'s "
                        + ".search index on \(column)", model: entity.name, property: column,
                    remedy: "rename the model \(entity.name) or its property \(column)")
            }
        }
    }

    /// Creates the entity's indexes, fills them from its rows and installs the triggers that keep them current.
    static func createStatements(_ entity: Schema.Entity) -> [String] {
        let dialect = SQLiteDialect()
        let base = dialect.quote(entity.name)
        let key = dialect.quote(SQLiteStore.keyColumn)
        let fold = SQLiteDialect.Function.searchText.rawValue
        return columns(entity.searchIndices).flatMap { column -> [String] in
            let name = table(of: entity.name, column)
            let index = dialect.quote(name)
            let value = dialect.quote(column)
            let insert =
                "INSERT INTO \(index)(rowid, text) SELECT new.\(key), \(fold)(new.\(value)) WHERE new.\(value) IS NOT NULL;"
            return [
                "CREATE VIRTUAL TABLE \(index) USING fts5(text, tokenize = 'trigram')",
                "INSERT INTO \(index)(rowid, text) SELECT \(key), \(fold)(\(value)) FROM \(base) WHERE \(value) IS NOT NULL",
                "CREATE TRIGGER \(dialect.quote("\(name)_insert")) AFTER INSERT ON \(base) BEGIN \(insert) END",
                """
                CREATE TRIGGER \(dialect.quote("\(name)_update")) AFTER UPDATE OF \(value) ON \(base) BEGIN \
                DELETE FROM \(index) WHERE rowid = old.\(key); \(insert) END
                """,
                """
                CREATE TRIGGER \(dialect.quote("\(name)_delete")) AFTER DELETE ON \(base) BEGIN \
                DELETE FROM \(index) WHERE rowid = old.\(key); END
                """,
            ]
        }
    }

    /// Drops the indexes of a table, with their triggers, before its indexes are created again: those of `indexes`
    /// (the ones the store records for it, and those of its models).
    static func drop(of entity: String, _ indexes: [[String]], in database: SQLiteDatabase) throws {
        let dialect = SQLiteDialect()
        for name in Set(columns(indexes).map { table(of: entity, $0) }).sorted() {
            for trigger in ["insert", "update", "delete"] {
                try database.executeScript("DROP TRIGGER IF EXISTS \(dialect.quote("\(name)_\(trigger)"))")
            }
            try database.executeScript("DROP TABLE IF EXISTS \(dialect.quote(name))")
        }
    }
}
