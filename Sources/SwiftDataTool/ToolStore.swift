import Foundation
import SwiftDataCore

/// A store as the tool sees it: tables and the values in them, by meaning, read from what the store records about
/// itself (no models needed). A store opened as a source is read-only.
protocol ToolStore: AnyObject {
    /// Where the store is, as the user named it (a PostgreSQL URL without its password).
    var address: String { get }
    /// The names of the store's tables.
    func tableNames() throws -> Set<String>
    /// The columns of a table, in order.
    func columnNames(of table: String) throws -> [String]
    /// The number of rows a query that selects one count returns.
    func count(_ sql: String) throws -> Int64
    /// Calls `body` with each row of a query, one at a time (a cursor: memory stays bounded), each value read as
    /// `types` says it means.
    func forEachRow(_ sql: String, types: [StoreValueType], _ body: ([StoreValue]) throws -> Void) throws
    /// Runs `body` reading one consistent state of the store.
    func reading<Result>(_ body: () throws -> Result) throws -> Result
    /// The layout of an attribute's values, from the storage and type the store records (and, where those leave it
    /// open, the values themselves).
    func layout(of attribute: StoredSchema.StoredAttribute, in entity: StoredSchema.StoredEntity) throws
        -> ValueCodec.Layout
    /// The externally stored value a row's column refers to.
    func externalData(_ reference: String) throws -> Data
    /// Every externally stored value's reference, with its size in bytes.
    func externalValues() throws -> [(reference: String, size: Int64)]
    /// What the store's own integrity check reports (empty when all is well).
    func integrityProblems() throws -> [String]

    /// Whether the store holds no tables (a new target).
    func isEmpty() throws -> Bool
    /// Runs `body` in one write transaction of a new store: on failure nothing of it stays.
    func creating(_ body: (any ToolStoreWriter) throws -> Void) throws
}

/// A new store being written, inside its one transaction.
protocol ToolStoreWriter {
    /// Makes the store's own tables and the tables of `schema`'s entities, as the store makes them.
    func createTables(for schema: Schema) throws
    /// How the store records the storage of an attribute whose values have this meaning.
    func recordedStorage(of type: StoreValueType) -> String
    /// Inserts rows into a table's columns, given by meaning.
    func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws
    /// Keeps an externally stored value under a reference.
    func writeExternal(_ data: Data, reference: String) throws
    /// Called once every history row is in: the next transaction number follows the highest.
    func finishHistory() throws
}

/// The store's own tables, shared by both kinds of store.
enum StoreTables {
    static let metadata = "_swiftdata_metadata"
    static let sequence = "_swiftdata_sequence"
    static let history = "_swiftdata_history"
    static let key = "_pk"
    static let historyColumns = ["number", "timestamp", "author", "bundle", "process", "changes"]
    static let historyTypes: [StoreValueType] = [.int64, .double, .string, .string, .string, .data]
    static let joinColumns = ["owner", "member", "position", "inverse_position"]
}

/// Opens a store named on the command line: a PostgreSQL URL (`postgres://` or `postgresql://`, with the
/// PostgreSQL schema after `#`, `public` without one) or an SQLite store's path.
enum StoreOpener {
    static func isPostgres(_ address: String) -> Bool {
        address.hasPrefix("postgres://") || address.hasPrefix("postgresql://")
    }

    /// A store to read: it must exist and be a store of this framework.
    static func source(_ address: String) throws -> any ToolStore {
        let store: any ToolStore =
            isPostgres(address)
            ? try PostgresToolStore(address, forWriting: false) : try SQLiteToolStore(address, forWriting: false)
        guard try store.tableNames().contains(StoreTables.metadata) else {
            throw ToolError.notAStore(store.address)
        }
        return store
    }

    /// A store to write a copy into: it must be empty (an SQLite file is created).
    static func target(_ address: String) throws -> any ToolStore {
        let store: any ToolStore =
            isPostgres(address)
            ? try PostgresToolStore(address, forWriting: true) : try SQLiteToolStore(address, forWriting: true)
        guard try store.isEmpty() else { throw ToolError.targetNotEmpty(store.address) }
        return store
    }
}

extension StoredSchema.StoredAttribute {
    /// The layout of a type the tool knows by name (`nil` for the app's own types).
    var knownLayout: ValueCodec.Layout? {
        let type = baseType
        if type.hasPrefix("Array<") || type.hasPrefix("Dictionary<") || type.hasPrefix("Set<") { return .json }
        let native: StoreValueType? =
            switch type {
            case "Bool": .bool
            case "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32": .int64
            case "UInt", "UInt64": .uint64
            case "Double", "Float": .double
            case "Decimal": .decimal
            case "String": .string
            case "Data": .data
            case "Date": .date
            case "UUID": .uuid
            case "URL": .url
            default: nil
            }
        return native.map { .native($0) }
    }
}
