import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQL
@testable import SwiftDataSQLite

/// Renders the fetches of one container's models in any SQL dialect, with the translation the SQLite store makes
/// in its own, and checks them against expected SQL: golden tests of every dialect over the same predicates.
///
/// Set `SWIFTDATA_POSTGRESQL_SCRIPT` to a file path to have the checks also write a `psql` script there: the
/// tables of the container's models in the column types `PostgreSQLDialect` documents, the dialect's support
/// functions, and for each PostgreSQL statement a `PREPARE` and an `EXECUTE` with its parameters. Running it
/// (`psql -v ON_ERROR_STOP=1 -f <file>`) shows that every statement parses, type-checks and runs.
final class DialectSQL {
    let context: ModelContext
    let store: SQLiteStore
    private let script: PostgreSQLScript?

    init(_ context: ModelContext) throws {
        self.context = context
        store = try sqliteStore(context.container)
        script = ProcessInfo.processInfo.environment["SWIFTDATA_POSTGRESQL_SCRIPT"].map {
            PostgreSQLScript(path: $0)
        }
    }

    /// What a fetch becomes in a dialect: the statement, and why a part of it is left to memory, if it is.
    struct Rendered {
        var statement: SQLStatement
        var inMemory: String?
    }

    /// The select of a fetch in `dialect`, as the store plans it (selecting only the key).
    func render<T: PersistentModel>(
        _ predicate: Predicate<T>?, sortBy: [SortDescriptor<T>], limit: Int?, offset: Int?, dialect: any SQLDialect
    ) throws -> Rendered {
        let entity = try context.binding(for: T.self).entity
        let translation = predicate.map {
            PredicateTranslator.translate(
                $0, entity: entity, schema: store.schema, storeIdentifier: store.identifier, dialect: dialect)
        }
        var orderings: [SQLOrdering]?
        var inMemory = translation?.isExact == false ? translation?.reason ?? "the predicate" : nil
        do {
            orderings = try SortTranslator.orderings(
                for: sortBy, entity: entity, schema: store.schema, dialect: dialect)
        } catch {
            inMemory = inMemory ?? "\(error)"
        }
        let select = SQLSelect.fetch(
            from: entity.name, columns: [], condition: translation?.condition, orderings: orderings ?? [],
            limit: limit, offset: offset, isComplete: inMemory == nil)
        return Rendered(statement: SQLGenerator.statement(of: select, in: dialect), inMemory: inMemory)
    }

    /// Checks the SQL a fetch becomes after `FROM "<table>" `: in SQLite, as the store runs it (all in SQL), and in
    /// PostgreSQL, all in SQL unless `postgresInMemory` names (part of) why a part is left to memory.
    func check<T: PersistentModel>(
        _ predicate: Predicate<T>?, sortBy: [SortDescriptor<T>] = [], limit: Int? = nil, offset: Int? = nil,
        sqlite: String, postgres: String, postgresInMemory: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let entity = try context.binding(for: T.self).entity
        let from = "FROM \(SQLiteDialect().quote(entity.name)) "
        func clauses(_ sql: String) throws -> String {
            let start = try #require(sql.range(of: from), sourceLocation: sourceLocation)
            return String(sql[start.upperBound...])
        }

        let log = StatementLog(context.container)
        var descriptor = FetchDescriptor(predicate: predicate, sortBy: sortBy)
        descriptor.fetchLimit = limit
        descriptor.fetchOffset = offset
        _ = try context.fetch(descriptor)
        let executed = try #require(log.selects.first, sourceLocation: sourceLocation)
        let lite = try render(predicate, sortBy: sortBy, limit: limit, offset: offset, dialect: SQLiteDialect())
        #expect(lite.inMemory == nil, "SQLite leaves to memory: \(lite.inMemory ?? "")", sourceLocation: sourceLocation)
        #expect(
            try clauses(lite.statement.sql) == clauses(executed), "as the store runs it", sourceLocation: sourceLocation
        )
        #expect(try clauses(executed) == sqlite, sourceLocation: sourceLocation)

        let postgreSQL = try render(
            predicate, sortBy: sortBy, limit: limit, offset: offset, dialect: PostgreSQLDialect())
        #expect(try clauses(postgreSQL.statement.sql) == postgres, sourceLocation: sourceLocation)
        if let postgresInMemory {
            #expect(
                postgreSQL.inMemory?.contains(postgresInMemory) == true,
                "PostgreSQL leaves to memory: \(postgreSQL.inMemory ?? "nothing")", sourceLocation: sourceLocation)
        } else {
            #expect(
                postgreSQL.inMemory == nil, "PostgreSQL leaves to memory: \(postgreSQL.inMemory ?? "")",
                sourceLocation: sourceLocation)
        }
        try script?.add(postgreSQL.statement, schema: store.schema)
    }
}

/// The `psql` script of `SWIFTDATA_POSTGRESQL_SCRIPT` (see `DialectSQL`).
private final class PostgreSQLScript {
    let path: String

    init(path: String) { self.path = path }

    /// Appends a statement's `PREPARE` and `EXECUTE`, after the tables and functions if the file is new.
    func add(_ statement: SQLStatement, schema: Schema) throws {
        var text = ""
        if !FileManager.default.fileExists(atPath: path) {
            text += "\\set ON_ERROR_STOP 1\n"
            text += PostgreSQLDialect.supportFunctions.map { $0 + ";\n" }.joined()
            text += Self.tables(schema)
        }
        let name = "q" + UUID().uuidString.prefix(8).lowercased()
        text += "PREPARE \(name) AS \(statement.sql);\n"
        let arguments = zip(statement.parameters, statement.parameterTypes).map(Self.literal)
        text += "EXECUTE \(name)" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))") + ";\n"
        text += "DEALLOCATE \(name);\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } else {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// `CREATE TABLE` statements for the schema's entities and join tables, in `PostgreSQLDialect`'s types.
    private static func tables(_ schema: Schema) -> String {
        let dialect = PostgreSQLDialect()
        var text = ""
        var joinTables = Set<String>()
        for entity in schema.entities {
            var columns = ["\(dialect.quote(StoreLayout.keyColumn)) bigint PRIMARY KEY"]
            for attribute in entity.orderedAttributes {
                let type = SQLType(SQLValueKind(attribute.valueType)).map(PostgreSQLDialect.typeName) ?? "jsonb"
                columns.append("\(dialect.quote(attribute.name)) \(type)")
            }
            for relationship in entity.orderedRelationships {
                switch relationship.storage {
                case .column:
                    columns.append("\(dialect.quote(relationship.name)) bigint")
                    if let position = relationship.positionColumn {
                        columns.append("\(dialect.quote(position)) bigint")
                    }
                case .joinTable(let name, _): joinTables.insert(name)
                case .inverseColumn: break
                }
            }
            text += "CREATE TABLE \(dialect.quote(entity.name)) (\(columns.joined(separator: ", ")));\n"
        }
        for table in joinTables.sorted() {
            text += "CREATE TABLE \(dialect.quote(table)) (\"owner\" bigint NOT NULL, \"member\" bigint NOT NULL);\n"
        }
        return text
    }

    /// A parameter as a quoted literal of its PostgreSQL type, as a PostgreSQL store would write the value of that
    /// meaning (`PostgreSQLDialect` lists the column types: dates as seconds since 2001, `UInt64` as its bit
    /// pattern, `Decimal.nan` as `-Infinity`).
    private static func literal(_ value: StoreValue, _ type: SQLType) -> String {
        let text: String
        switch value {
        case .null: return "NULL"
        case .bool(let bool): text = bool ? "true" : "false"
        case .int64(let integer): text = String(integer)
        case .uint64(let integer): text = String(Int64(bitPattern: integer))
        case .double(let real): text = String(real)
        case .decimal(let decimal): text = decimal.isNaN ? "-Infinity" : decimal.description
        case .string(let string): text = string
        case .data(let data): text = "\\x" + data.map { String(format: "%02x", $0) }.joined()
        case .date(let date): text = String(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): text = uuid.uuidString.lowercased()
        case .url(let url): text = url.absoluteString
        case .json(let json): text = json
        }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
