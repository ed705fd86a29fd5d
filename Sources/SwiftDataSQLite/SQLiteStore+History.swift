import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The store's history: one row per saved transaction in `_swiftdata_history`, written by the save's own write
/// transaction, so that a save's changes and their history commit together. A row's `number` is its rowid, one
/// more than the highest so far: numbers grow in commit order, since a writer holds the store's lock for its whole
/// transaction. They are never reused: deleting the newest transaction leaves a row without changes in its place,
/// which fetches skip. The changes are one blob per transaction (see `HistoryPayload`): a save of N models writes one
/// row, not N.
extension SQLiteStore {
    static let historyTable = HistoryStatements.table
    static let historyDeletedKey = HistoryStatements.deletedKey
    /// Records a transaction (see `SQLiteTransaction.recordHistory`).
    static let recordHistorySQL = HistoryStatements.record(SQLiteDialect())

    package func fetchHistory(_ request: HistoryRequest) throws -> [HistoryRecord] {
        try withReader { database in
            // A read-only store written before history existed has no table, and no history.
            guard try SQLiteStore.hasHistory(database) else { return [] }
            if let expired = request.expiry(
                deletedThrough: try SQLiteStore.deletedThrough(database), store: configuration.name)
            {
                throw expired
            }
            // A row without changes holds a deleted transaction's number (see `deleteHistory(where:)`).
            let select = HistoryStatements.select(request, dialect: dialect, filter: SQLiteStore.hasChanges)
            let statement = try database.statement(select.sql)
            defer { statement.reset() }
            try statement.bind(select.parameters)
            var records: [HistoryRecord] = []
            while try statement.step() {
                records.append(
                    HistoryRecord(
                        number: try statement.int64(0),
                        entry: HistoryEntry(
                            timestamp: Date(timeIntervalSinceReferenceDate: try statement.double(1)),
                            author: statement.isNull(2) ? nil : try statement.string(2),
                            bundleIdentifier: try statement.string(3),
                            processIdentifier: try statement.string(4), changes: try statement.data(5))))
            }
            return records
        }
    }

    package func deleteHistory(_ request: HistoryRequest) throws {
        try write { transaction in
            guard let transaction = transaction as? SQLiteTransaction else { return }
            try transaction.deleteHistory(where: request.condition)
        }
    }

    /// Whether the store has a history table.
    static func hasHistory(_ database: SQLiteDatabase) throws -> Bool {
        let rows = try database.rows(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(historyTable)])
        return rows.first?.first != .integer(0)
    }

    /// The highest transaction number ever deleted, if history was deleted.
    static func deletedThrough(_ database: SQLiteDatabase) throws -> Int64? {
        let rows = try database.rows(
            "SELECT value FROM \(metadataTable) WHERE key = ?", [.string(historyDeletedKey)])
        guard case .text(let value)? = rows.first?.first else { return nil }
        return Int64(value)
    }

    /// The condition of history rows that hold a transaction's changes.
    static let hasChanges = "length(changes) > 0"
}

extension SQLiteTransaction {
    func recordHistory(_ entry: HistoryEntry) throws -> Int64 {
        let statement = try database.held(&database.historyStatement, SQLiteStore.recordHistorySQL)
        defer { statement.reset() }
        try statement.bind(entry.timestamp.timeIntervalSinceReferenceDate, 1)
        if let author = entry.author { try statement.bind(author, 2) } else { try statement.bindNull(2) }
        try statement.bind(entry.bundleIdentifier, 3)
        try statement.bind(entry.processIdentifier, 4)
        // The changes are bound where they are (`SQLITE_STATIC`) for the run, which SQLite reads in place, rather than
        // copied by SQLite into a buffer of its own (an allocation, a copy and a free every save); the reset below
        // unbinds them before they go.
        try entry.changes.withUnsafeBytes { bytes in
            let code = sqlite3_bind_blob64(
                statement.handle, 5, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count),
                csqlite_static())
            guard code == SQLITE_OK else {
                throw database.error(code, sql: statement.sql, reason: "the history's changes could not be bound")
            }
            try statement.run()
        }
        SQLiteTestHooks.afterHistoryRecord?()
        return sqlite3_last_insert_rowid(database.handle)
    }

    func storedValues(of keys: [Int64], entity: Schema.Entity, attributes: [Int]) throws -> [Int64: [StoreValue]] {
        let columns = attributes.compactMap { entity.attribute(at: $0) }
        guard !columns.isEmpty else { return [:] }
        return try rows(of: keys, in: entity, columns: columns.map(\.name)) { statement in
            try columns.enumerated().map { offset, attribute in
                try statement.preservedValue(
                    of: attribute, column: Int32(offset + 1), readExternal: store.readExternal)
            }
        }
    }

    func entityNames(of keys: [Int64], entity: Schema.Entity) throws -> [Int64: String] {
        try rows(of: keys, in: entity, columns: [StoreLayout.entityColumn]) { try $0.string(1) }
    }

    /// What `read` makes of each row with one of `keys` in `entity`'s table, by key, selecting its key and `columns`
    /// (column 0 is the key).
    private func rows<Value>(
        of keys: [Int64], in entity: Schema.Entity, columns: [String], _ read: (SQLiteStatement) throws -> Value
    ) throws -> [Int64: Value] {
        let dialect = store.dialect
        let sql = RowStatements.select(columns, of: entity, dialect: dialect)
        var values: [Int64: Value] = [:]
        values.reserveCapacity(keys.count)
        for chunk in keys.keyChunks {
            let statement = try database.statement(sql)
            defer { statement.reset() }
            try statement.bind([dialect.integerList(chunk)])
            while try statement.step() { values[try statement.int64(0)] = try read(statement) }
        }
        return values
    }

    /// Deletes the whole history when the store is erased: every token of the erased history expires, so a reader
    /// learns that what it knew is gone.
    func eraseHistory() throws {
        let table = SQLiteStore.historyTable
        // A row without changes past every transaction: the tokens of all of them expire.
        try database.execute(
            "INSERT INTO \(table) (timestamp, author, bundle, process, changes) VALUES (?, NULL, '', '', x'')",
            [.double(Date().timeIntervalSinceReferenceDate)])
        let erasedThrough = sqlite3_last_insert_rowid(database.handle)
        try database.execute("DELETE FROM \(table) WHERE number < ?", [.int64(erasedThrough)])
        try database.execute(
            "INSERT OR REPLACE INTO \(SQLiteStore.metadataTable) (key, value) VALUES (?, ?)",
            [.string(SQLiteStore.historyDeletedKey), .string(String(erasedThrough))])
    }

    /// Deletes the history rows `condition` selects (all of them without one), and notes the highest number
    /// deleted, so that fetches after an earlier token know they would miss transactions. When the newest row goes,
    /// a row without changes takes its number, so that the next transaction's is higher.
    func deleteHistory(where condition: HistoryCondition?) throws {
        let table = SQLiteStore.historyTable
        var parameters = StatementParameters(store.dialect)
        var values: [StoreValue] = []
        let filter =
            " WHERE \(SQLiteStore.hasChanges)"
            + (condition.map { " AND " + HistoryStatements.condition($0, &parameters, &values) } ?? "")
        guard
            case .integer(let deleted)? = try database.rows("SELECT max(number) FROM \(table)\(filter)", values)
                .first?.first,
            case .integer(let newest)? = try database.rows("SELECT max(number) FROM \(table)").first?.first
        else { return }
        try database.execute("DELETE FROM \(table)\(filter)", values)
        if deleted == newest {
            try database.execute(
                "INSERT OR REPLACE INTO \(table) (number, timestamp, author, bundle, process, changes) VALUES (?, ?, NULL, '', '', x'')",
                [.int64(newest), .double(Date().timeIntervalSinceReferenceDate)])
        }
        let previous = try SQLiteStore.deletedThrough(database) ?? 0
        try database.execute(
            "INSERT OR REPLACE INTO \(SQLiteStore.metadataTable) (key, value) VALUES (?, ?)",
            [.string(SQLiteStore.historyDeletedKey), .string(String(max(previous, deleted)))])
    }
}
