import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// An SQLite store's file opened as tables, without models: what tools read and write a store through (inspect,
/// dump, copy, check). A source is opened read-only, so nothing is ever written to it.
package final class SQLiteStoreFile {
    private let database: SQLiteDatabase
    /// The store file's path.
    package let path: String
    /// The directory of the store's `.externalStorage` files.
    package let externalDirectory: URL

    package static let metadataTable = SQLiteStore.metadataTable
    package static let sequenceTable = SQLiteStore.sequenceTable
    package static let historyTable = SQLiteStore.historyTable
    package static let keyColumn = SQLiteStore.keyColumn

    /// Opens the store at `path`: read-only, or for writing (`create`: a new file when there is none).
    package init(path: String, readOnly: Bool, create: Bool = false) throws {
        let url = URL(fileURLWithPath: path)
        try SQLiteStore.checkFile(at: url, creating: create)
        database = try SQLiteDatabase(path: path, readOnly: readOnly, create: create)
        self.path = path
        externalDirectory = ExternalStorage(storeURL: url).directory
    }

    /// Calls `body` with each row of a query, one at a time, as SQLite keeps the values.
    package func forEachRow(_ sql: String, _ parameters: [StoreValue] = [], _ body: ([SQLiteValue]) throws -> Void)
        throws
    {
        let statement = try database.statement(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        let count = sqlite3_column_count(statement.handle)
        while try statement.step() {
            try body((0..<count).map { statement.value($0) })
        }
    }

    /// The values of every row of a query.
    package func rows(_ sql: String, _ parameters: [StoreValue] = []) throws -> [[SQLiteValue]] {
        try database.rows(sql, parameters)
    }

    /// Runs one statement with parameters, each bound as the store binds a value of its meaning.
    package func execute(_ sql: String, _ parameters: [StoreValue] = []) throws {
        try database.execute(sql, parameters)
    }

    /// Runs statements without parameters.
    package func executeScript(_ sql: String) throws {
        try database.executeScript(sql)
    }

    /// Runs `body` in one write transaction; rolls back if it throws.
    package func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try database.writeTransaction(body)
    }

    /// The statements that make an empty store for `schema`: the store's own tables and each entity's table with its
    /// indexes and join tables, as the store makes them.
    package static func creationStatements(for schema: Schema) -> [String] {
        SchemaStatements.storeTables(SQLiteDialect()) + [HistoryStatements.definition(SQLiteDialect())]
            + schema.entities.filter { $0.superentity == nil }.map { SQLiteStore.createTable($0.tableEntity) }
    }

    /// How the store records the storage of an attribute whose values have this meaning.
    package static func recordedStorage(of type: StoreValueType) -> String {
        StorageClass(.native(type)).rawValue
    }
}
