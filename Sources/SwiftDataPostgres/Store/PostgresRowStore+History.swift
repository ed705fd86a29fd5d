import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The store's history: one row per saved transaction in `_swiftdata_history`, in the configuration's PostgreSQL
/// schema, inserted by the save's own transaction, so that a save's changes and their history commit together or
/// not at all. The changes are one `bytea` per transaction (see `HistoryPayload`), as on SQLite.
///
/// A row's `number`, its token, comes from the table's identity sequence, which every instance on the database
/// shares, so no two instances mint the same number. Numbers also grow in commit order, so that "everything after
/// token T" never misses a transaction that commits later with a smaller number: a save draws its number only while
/// it holds the save lock, the transaction-level advisory lock every save of the PostgreSQL schema takes
/// (`PostgresRowStore.saveLockSQL`), and PostgreSQL releases that lock only after the commit is visible to new
/// snapshots. So a save's number is drawn after every earlier save committed and before any later one draws its own.
/// A save draws it in the statement that takes the lock, and sends its history row with its `COMMIT`; a save that
/// takes the lock only with its `COMMIT` sends all three in one message, and learns its number from the answer (Core
/// reads it as `committedHistoryNumber`). Recording history costs a save no round trip of its own.
/// A save that rolls back leaves a gap; numbers are never reused, deleting history included.
extension PostgresRowStore {
    static let historyTable = HistoryStatements.table
    static let historyDeletedKey = HistoryStatements.deletedKey
    /// The metadata key of the count of the writes that record no history row (erasing the store, deleting
    /// history): each adds one, so that stores that poll for other instances' saves (`PostgresChangePoller`) hear of
    /// them as listeners do of their notifications.
    static let unrecordedWritesKey = "unrecorded_writes"

    /// Whether stores opened from now on record history: on unless turned off, to measure what it costs.
    nonisolated(unsafe) package static var keepsHistory = true

    /// Creates the history table of a store opened for saving that lacks it: a new store, or one created before
    /// the store kept history. A read-only store without one has no history.
    static func createHistoryTable(_ connection: PostgresConnection, tables: Set<String>, allowsSave: Bool) throws {
        guard allowsSave, !tables.contains(historyTable) else { return }
        try connection.execute(HistoryStatements.definition(PostgreSQLDialect()))
    }

    package func fetchHistory(_ request: HistoryRequest) throws -> [HistoryRecord] {
        let rows = HistoryStatements.select(request, dialect: dialect, first: 2)
        let parameters = [.text(Self.historyDeletedKey)] + rows.parameters.map(PostgresValue.init(storing:))
        let direction = request.newestFirst ? " DESC" : ""
        // One statement, so that the rows and what was deleted come from one snapshot: the first column says how
        // far history was deleted, and a row of NULLs stands for no transactions.
        let sql = """
            SELECT (SELECT value::bigint FROM \(Self.metadataTable) WHERE key = $1), h.* \
            FROM (SELECT 1) AS one LEFT JOIN LATERAL (\(rows.sql)) AS h ON true ORDER BY h.number\(direction)
            """
        let result = try read(onReplica: false) { connection -> PostgresResult? in
            // A read-only store created before stores kept history has no table, and no history.
            if !allowsSave,
                try connection.preparedQuery("SELECT to_regclass($1) IS NULL", [.text(Self.historyTable)])
                    .bool(0, 0) == true
            {
                return nil
            }
            return try connection.preparedQuery(sql, parameters)
        }
        guard let result else { return [] }
        if let expired = request.expiry(deletedThrough: try result.int64(0, 0), store: configuration.name) {
            throw expired
        }
        var records: [HistoryRecord] = []
        records.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            guard let number = try result.int64(row, 1) else { continue }
            records.append(
                HistoryRecord(
                    number: number,
                    entry: HistoryEntry(
                        timestamp: Date(timeIntervalSinceReferenceDate: try result.double(row, 2) ?? 0),
                        author: try result.string(row, 3), bundleIdentifier: try result.string(row, 4) ?? "",
                        processIdentifier: try result.string(row, 5) ?? "", changes: try result.data(row, 6) ?? Data()))
            )
        }
        return records
    }

    package func deleteHistory(_ request: HistoryRequest) throws {
        // The lock first: no save may commit a row the delete should have found.
        try writeUnrecorded(lockingFirst: true) { try $0.deleteHistory(where: request.condition) }
    }

    /// Runs `body` in a transaction of the store's own that records no history row (see `write`), counted under
    /// `unrecordedWritesKey`; once committed, tells the poller the count is this store's.
    func writeUnrecorded(lockingFirst: Bool = false, _ body: (PostgresTransaction) throws -> Void) throws {
        let count = try write(drawingHistoryNumber: false, lockingFirst: lockingFirst) { transaction -> Int64? in
            guard let transaction = transaction as? PostgresTransaction else { return nil }
            try body(transaction)
            return try transaction.countUnrecordedWrite()
        }
        if let count { noteOwnUnrecorded(count) }
    }
}

extension PostgresRowStore {
    /// Records a transaction whose number the table's identity draws (see `PostgresTransaction.recordHistory`).
    static let recordHistorySQL = HistoryStatements.record(PostgreSQLDialect(), returning: true)
}

extension PostgresTransaction {
    /// Records a transaction (see `RowStoreTransaction.recordHistory`); its number comes from the table's identity,
    /// drawn under the save lock (see `PostgresRowStore+History.swift`). The row is sent with the `COMMIT`, in the
    /// same round trip; a failure to insert it fails the commit. A save that holds the lock already drew its number
    /// with it; any other sends the lock with the `COMMIT` too, which draws the number, and returns 0 for Core to
    /// replace with `committedHistoryNumber`.
    func recordHistory(_ entry: HistoryEntry) throws -> Int64 {
        let values: [PostgresValue] = [
            .float8(entry.timestamp.timeIntervalSinceReferenceDate),
            entry.author.map(PostgresValue.text) ?? .null,
            .text(entry.bundleIdentifier), .text(entry.processIdentifier), .bytea(entry.changes),
        ]
        return try PostgresRowStore.mapErrors {
            if let lock, lock.drawsHistoryNumber {
                if let number = lock.drawnNumber {
                    try connection.executeAtCommit(Self.insertHistory, [.int8(number)] + values)
                    return number
                }
                if lock.pending != nil {
                    try lock.takeAtCommit(on: connection)
                    try connection.executeAtCommit(Self.insertHistoryDrawnAtCommit, values)
                    lock.recorded = (entry.timestamp.timeIntervalSinceReferenceDate, entry.processIdentifier)
                    return 0
                }
            }
            let result = try connection.preparedQuery(PostgresRowStore.recordHistorySQL, values)
            guard let number = try result.int64(0, 0) else {
                throw SwiftDataError.storeError.with(reason: "recording the save's history returned no number")
            }
            return number
        }
    }

    /// The statement that inserts a history row under the number drawn with the save lock (`$1`).
    private static let insertHistory = """
        INSERT INTO \(PostgresRowStore.historyTable) (number, timestamp, author, bundle, process, changes) \
        OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3::text, $4, $5, $6)
        """

    /// The statement that inserts a history row under the number the save lock drew just before, with the `COMMIT`:
    /// the sequence's last value in this session.
    private static let insertHistoryDrawnAtCommit = """
        INSERT INTO \(PostgresRowStore.historyTable) (number, timestamp, author, bundle, process, changes) \
        OVERRIDING SYSTEM VALUE VALUES (currval(pg_get_serial_sequence(\(PostgresRowStore.literal(
            PostgresRowStore.historyTable)), 'number')), $1, $2::text, $3, $4, $5)
        """

    /// The history number the save lock drew with the `COMMIT`, once committed (see `recordHistory`).
    var committedHistoryNumber: Int64? { lock?.numberAtCommit }

    func storedValues(of keys: [Int64], entity: Schema.Entity, attributes: [Int]) throws -> [Int64: [StoreValue]] {
        let columns = attributes.compactMap { entity.attribute(at: $0) }
        guard !columns.isEmpty else { return [:] }
        return try rows(of: keys, in: entity, columns: columns.map(\.name)) { reader in
            try columns.enumerated().map { offset, attribute in
                try reader.preservedValue(of: attribute, column: Int32(offset + 1), readExternal: readExternal)
            }
        }
    }

    func entityNames(of keys: [Int64], entity: Schema.Entity) throws -> [Int64: String] {
        try rows(of: keys, in: entity, columns: [StoreLayout.entityColumn]) { try $0.string(1) }
    }

    /// What `read` makes of each row with one of `keys` in `entity`'s table, by key, selecting its key and `columns`
    /// (column 0 is the key), as many keys a statement as one lists.
    private func rows<Value>(
        of keys: [Int64], in entity: Schema.Entity, columns: [String], _ read: (PostgresRowReader) throws -> Value
    ) throws -> [Int64: Value] {
        var values: [Int64: Value] = [:]
        values.reserveCapacity(keys.count)
        try PostgresRowStore.mapErrors(model: entity.name) {
            let statement = try connection.cachedStatement(
                RowStatements.select(columns, of: entity, dialect: store.dialect), [.int8Array])
            for chunk in keys.keyChunks {
                // What a delete preserves must be what it deletes: the save lock comes first.
                let result = try lockedQuery(statement, [.int8Array(Array(chunk))])
                let reader = PostgresRowReader(result)
                for row in 0..<result.rowCount {
                    reader.row = row
                    values[try reader.int64(0)] = try read(reader)
                }
            }
        }
        return values
    }

    /// The data of an externally stored value, read in this transaction (before the delete removes it).
    private func readExternal(_ reference: String) throws -> Data {
        let result = try connection.preparedQuery(
            "SELECT data FROM \(PostgresRowStore.externalTable) WHERE id = $1", [.text(reference)])
        guard result.rowCount == 1, let data = try result.data(0, 0) else {
            throw SwiftDataError.storeError.with(
                reason: "the externally stored value \(reference) is missing from \(PostgresRowStore.externalTable)",
                suggestion: "Restore the database from a backup")
        }
        return data
    }

    /// Deletes the history rows `condition` selects (all of them without one), and notes the highest number
    /// deleted, so that fetches after an earlier token know they would miss transactions. Numbers come from a
    /// sequence, so deleting the newest rows reuses none.
    func deleteHistory(where condition: HistoryCondition?) throws {
        var parameters = StatementParameters(store.dialect)
        var values: [StoreValue] = []
        let filter = condition.map { " WHERE " + HistoryStatements.condition($0, &parameters, &values) } ?? ""
        try PostgresRowStore.mapErrors {
            let deleted = try connection.preparedQuery(
                "WITH deleted AS (DELETE FROM \(PostgresRowStore.historyTable)\(filter) RETURNING number) "
                    + "SELECT max(number) FROM deleted", values.map(PostgresValue.init(storing:)))
            guard let through = try deleted.int64(0, 0) else { return }
            try noteDeleted(through: through)
        }
    }

    /// Deletes the whole history when the store is erased: every token of the erased history expires, so a reader
    /// learns that what it knew is gone. The number noted is one the sequence hands out now, past every
    /// transaction's.
    func eraseHistory() throws {
        let table = PostgresRowStore.historyTable
        try PostgresRowStore.mapErrors {
            try connection.execute("DELETE FROM \(table)")
            let result = try connection.query(
                "SELECT nextval(pg_get_serial_sequence('\(table)', 'number'))")
            guard let through = try result.int64(0, 0) else { return }
            try noteDeleted(through: through)
        }
    }

    /// Adds one to the count of writes that record no history row (`PostgresRowStore.unrecordedWritesKey`) and
    /// returns it.
    func countUnrecordedWrite() throws -> Int64? {
        try PostgresRowStore.mapErrors {
            try connection.preparedQuery(
                """
                INSERT INTO \(PostgresRowStore.metadataTable) AS m (key, value) VALUES ($1, '1') ON CONFLICT (key) \
                DO UPDATE SET value = (m.value::bigint + 1)::text RETURNING value::bigint
                """, [.text(PostgresRowStore.unrecordedWritesKey)]
            ).int64(0, 0)
        }
    }

    /// Records that history was deleted up to `through`, unless it was deleted further before.
    private func noteDeleted(through: Int64) throws {
        try connection.preparedQuery(
            """
            INSERT INTO \(PostgresRowStore.metadataTable) AS m (key, value) VALUES ($1, $2) ON CONFLICT (key) \
            DO UPDATE SET value = greatest(m.value::bigint, excluded.value::bigint)::text
            """, [.text(PostgresRowStore.historyDeletedKey), .text(String(through))])
    }
}
