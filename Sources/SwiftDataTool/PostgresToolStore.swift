import Foundation
import SwiftDataCore
import SwiftDataPostgres

/// A PostgreSQL store: the tables of one PostgreSQL schema (named after `#` in the URL, `public` without one). A
/// source is read in read-only transactions; a target is written in one transaction, its schema created when it is
/// missing. The tool keeps no session state: each transaction makes its own settings (`search_path` among them),
/// and no statement stays prepared, so that the URL may name a pooler in transaction mode, which would hand session
/// state on to other clients.
final class PostgresToolStore: ToolStore {
    let address: String
    private let connection: PostgresConnection
    private let namespace: String
    private let names = PostgresRowStore.inspection
    private var cursors = 0

    init(_ url: String, forWriting: Bool) throws {
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        namespace = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : "public"
        do {
            connection = try PostgresConnection(String(parts[0]))
        } catch {
            throw ToolError.cannotOpen(url.redactingPassword, "\(error)")
        }
        address = "\(connection.endpoint)#\(namespace)"
        // Statements are sent with their text, never left prepared on the server connection, which a pooler in
        // transaction mode hands on to other clients (where the next tool run's first statement would find its
        // name taken).
        connection.preparesStatements = false
        let path = PostgresRowStore.literal(try connection.quoteIdentifier(namespace))
        connection.transactionSettings =
            "SELECT set_config('search_path', \(path), true), set_config('client_min_messages', 'warning', true)"
            + (forWriting ? "" : ", set_config('transaction_read_only', 'on', true)")
    }

    func tableNames() throws -> Set<String> {
        let result = try connection.query(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = $1", [.text(namespace)])
        return Set(try (0..<result.rowCount).compactMap { try result.string($0, 0) })
    }

    func columnNames(of table: String) throws -> [String] {
        let result = try connection.query(
            """
            SELECT column_name::text FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 \
            ORDER BY ordinal_position
            """, [.text(namespace), .text(table)])
        return try (0..<result.rowCount).compactMap { try result.string($0, 0) }
    }

    func count(_ sql: String) throws -> Int64 {
        try connection.query(sql).int64(0, 0) ?? 0
    }

    func forEachRow(_ sql: String, types: [StoreValueType], _ body: ([StoreValue]) throws -> Void) throws {
        cursors += 1
        let cursor = "swiftdata_tool_\(cursors)"
        try connection.execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)")
        defer { _ = try? connection.execute("CLOSE \(cursor)") }
        while true {
            let result = try connection.query("FETCH FORWARD 1000 FROM \(cursor)")
            guard result.rowCount > 0 else { return }
            for row in 0..<result.rowCount {
                try body(try types.indices.map { try PostgresToolStore.value(result.value(row, $0), as: types[$0]) })
            }
        }
    }

    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.transaction(isolation: .repeatableRead, readOnly: true, attempts: 1) { _ in try body() }
    }

    func layout(of attribute: StoredSchema.StoredAttribute, in entity: StoredSchema.StoredEntity) throws
        -> ValueCodec.Layout
    {
        if let known = attribute.knownLayout, names.recordedStorage(of: known.valueType) == attribute.storage {
            return known
        }
        if attribute.storage == "bytea" { return .native(.data) }
        if attribute.storage == "jsonb" { return .json }
        guard
            let type = StoreValueType.allCases.first(where: {
                $0 != .url && $0 != .uint64 && names.recordedStorage(of: $0) == attribute.storage
            })
        else {
            throw ToolError.failed(
                "\(entity.name).\(attribute.name) is recorded as '\(attribute.storage)', which this version does not know"
            )
        }
        return .rawValue(.native(type))
    }

    func externalData(_ reference: String) throws -> Data {
        let result = try connection.preparedQuery(
            "SELECT data FROM \(names.externalTable) WHERE id = $1", [.text(reference)])
        guard result.rowCount == 1, let data = try result.data(0, 0) else {
            throw ToolError.failed("the externally stored value '\(reference)' is missing from \(names.externalTable)")
        }
        return data
    }

    func externalValues() throws -> [(reference: String, size: Int64)] {
        guard try tableNames().contains(names.externalTable) else { return [] }
        let result = try connection.query(
            "SELECT id, octet_length(data)::bigint FROM \(names.externalTable) ORDER BY id")
        return try (0..<result.rowCount).map { (try result.string($0, 0) ?? "", try result.int64($0, 1) ?? 0) }
    }

    func integrityProblems() throws -> [String] { [] }

    func isEmpty() throws -> Bool {
        try tableNames().isEmpty
    }

    func creating(_ body: (any ToolStoreWriter) throws -> Void) throws {
        let quoted = try connection.quoteIdentifier(namespace)
        try connection.transaction(isolation: .readCommitted, attempts: 1) { connection in
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")
            try body(Writer(connection: connection, names: names))
        }
    }

    private final class Writer: ToolStoreWriter {
        let connection: PostgresConnection
        let names: PostgresRowStore.Inspection
        private var statements: [String: PostgresStatement] = [:]

        init(connection: PostgresConnection, names: PostgresRowStore.Inspection) {
            self.connection = connection
            self.names = names
        }

        func createTables(for schema: Schema) throws {
            for statement in names.creationStatements(for: schema) { try connection.execute(statement) }
        }

        func recordedStorage(of type: StoreValueType) -> String { names.recordedStorage(of: type) }

        func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws {
            let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let overriding = table == names.historyTable ? " OVERRIDING SYSTEM VALUE" : ""
            let sql =
                "INSERT INTO \"\(table)\" (\(quoted))\(overriding) VALUES (\(columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))"
            let statement = try statements[sql] ?? connection.prepare(sql)
            statements[sql] = statement
            try connection.executeBatch(statement, rows.map { $0.map(names.value(storing:)) })
        }

        func writeExternal(_ data: Data, reference: String) throws {
            try connection.preparedQuery(
                "INSERT INTO \(names.externalTable) (id, data) VALUES ($1, $2)", [.text(reference), .bytea(data)])
        }

        func finishHistory() throws {
            try connection.execute(
                """
                SELECT setval(pg_get_serial_sequence('\(names.historyTable)', 'number'), \
                coalesce((SELECT max(number) FROM \(names.historyTable)), 0) + 1, false)
                """)
        }
    }

    /// A value as PostgreSQL returns it, read as meaning `type`.
    static func value(_ value: PostgresValue, as type: StoreValueType) throws -> StoreValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.bool(let flag), _): return .bool(flag)
        case (.int8(let number), .uint64): return .uint64(UInt64(bitPattern: number))
        case (.int8(let number), .bool): return .bool(number != 0)
        case (.int8(let number), _): return .int64(number)
        case (.float8(let number), .date): return .date(Date(timeIntervalSinceReferenceDate: number))
        case (.float8(let number), _): return .double(number)
        case (.numeric(let decimal), _): return .decimal(decimal)
        case (.numericText, _): return .decimal(.nan)
        case (.text(let text), .url):
            guard let url = URL(string: text) else { throw ToolError.failed("'\(text)' is not a URL") }
            return .url(url)
        case (.text(let text), .json), (.jsonb(let text), _): return .json(CanonicalJSON.canonical(text))
        case (.text(let text), _): return .string(text)
        case (.bytea(let bytes), _): return .data(bytes)
        case (.uuid(let uuid), _): return .uuid(uuid)
        case (.timestamptz(let date), _): return .date(date)
        case (.int8Array(let numbers), _): return .string(numbers.map(String.init).joined(separator: ","))
        }
    }
}

extension String {
    /// The URL without the password it may hold.
    var redactingPassword: String {
        guard let url = URLComponents(string: self), url.password != nil else { return self }
        var redacted = url
        redacted.password = "xxxxx"
        return redacted.string ?? self
    }
}
