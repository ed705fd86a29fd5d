import Foundation
import SwiftDataCore
import SwiftDataSQLite

/// An SQLite store's file, read-only as a source; as a target, a new file (removed again when the copy fails), its
/// externally stored values in files beside it.
final class SQLiteToolStore: ToolStore {
    let address: String
    private let file: SQLiteStoreFile
    private let createdFile: Bool

    init(_ path: String, forWriting: Bool) throws {
        address = path
        let exists = FileManager.default.fileExists(atPath: path)
        guard exists || forWriting else { throw ToolError.noStore(path) }
        createdFile = !exists
        do {
            file = try SQLiteStoreFile(path: path, readOnly: !forWriting, create: forWriting)
        } catch let error as SwiftDataError {
            throw ToolError.cannotOpen(path, error.reason ?? "\(error)")
        }
    }

    func tableNames() throws -> Set<String> {
        do {
            return Set(try file.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.first?.text))
        } catch let error as SwiftDataError {
            throw ToolError.notAStore("\(address) (\(error.reason ?? "\(error)"))")
        }
    }

    func columnNames(of table: String) throws -> [String] {
        try file.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.string(table)]).compactMap(\.first?.text)
    }

    func count(_ sql: String) throws -> Int64 {
        guard case .integer(let count)? = try file.rows(sql).first?.first else { return 0 }
        return count
    }

    func forEachRow(_ sql: String, types: [StoreValueType], _ body: ([StoreValue]) throws -> Void) throws {
        try file.forEachRow(sql) { row in
            try body(zip(row, types).map { try SQLiteToolStore.value($0, as: $1) })
        }
    }

    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try file.executeScript("BEGIN")
        defer { try? file.executeScript("COMMIT") }
        return try body()
    }

    func layout(of attribute: StoredSchema.StoredAttribute, in entity: StoredSchema.StoredEntity) throws
        -> ValueCodec.Layout
    {
        if let known = attribute.knownLayout, SQLiteStoreFile.recordedStorage(of: known.valueType) == attribute.storage
        {
            return known
        }
        switch attribute.storage {
        case "integer": return .rawValue(.native(.int64))
        case "real": return .rawValue(.native(.double))
        case "blob": return .native(.data)
        default:
            // Text is a raw value's string or a `Codable` value's JSON: JSON when every value reads as JSON.
            var allJSON = true
            let column = "\"\(attribute.name)\""
            try file.forEachRow(
                "SELECT \(column) FROM \"\(entity.name)\" WHERE \(column) IS NOT NULL AND json_valid(\(column)) = 0 LIMIT 1"
            ) { _ in allJSON = false }
            let any = try count("SELECT count(*) FROM \"\(entity.name)\" WHERE \(column) IS NOT NULL") > 0
            return any && allJSON ? .json : .rawValue(.native(.string))
        }
    }

    func externalData(_ reference: String) throws -> Data {
        let url = file.externalDirectory.appendingPathComponent(reference)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ToolError.failed(
                "the externally stored value \(url.path) cannot be read: \(error.localizedDescription)")
        }
    }

    func externalValues() throws -> [(reference: String, size: Int64)] {
        let directory = file.externalDirectory.path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.sorted().map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            return (name, (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    func integrityProblems() throws -> [String] {
        let problems = try file.rows("PRAGMA integrity_check").compactMap(\.first?.text)
        return problems == ["ok"] ? [] : problems.map { "SQLite integrity check: \($0)" }
    }

    func isEmpty() throws -> Bool {
        try tableNames().isEmpty
    }

    func creating(_ body: (any ToolStoreWriter) throws -> Void) throws {
        let writer = Writer(file: file)
        do {
            try file.executeScript("PRAGMA journal_mode = WAL")
            try file.writeTransaction { try body(writer) }
        } catch {
            for name in writer.written {
                try? FileManager.default.removeItem(at: file.externalDirectory.appendingPathComponent(name))
            }
            if createdFile {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: address + suffix) }
                try? FileManager.default.removeItem(at: file.externalDirectory)
            }
            throw error
        }
    }

    private final class Writer: ToolStoreWriter {
        let file: SQLiteStoreFile
        var written: [String] = []

        init(file: SQLiteStoreFile) { self.file = file }

        func createTables(for schema: Schema) throws {
            for statement in SQLiteStoreFile.creationStatements(for: schema) { try file.executeScript(statement) }
        }

        func recordedStorage(of type: StoreValueType) -> String { SQLiteStoreFile.recordedStorage(of: type) }

        func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws {
            let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let sql =
                "INSERT INTO \"\(table)\" (\(names)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            for row in rows { try file.execute(sql, row) }
        }

        func writeExternal(_ data: Data, reference: String) throws {
            let directory = file.externalDirectory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent(reference)
            try data.write(to: url)
            written.append(reference)
            let handle = try FileHandle(forWritingTo: url)
            try handle.synchronize()
            try handle.close()
        }

        func finishHistory() throws {}
    }

    /// A value as SQLite keeps it, read as meaning `type`.
    static func value(_ value: SQLiteValue, as type: StoreValueType) throws -> StoreValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let number), .bool): return .bool(number != 0)
        case (.integer(let number), .uint64): return .uint64(UInt64(bitPattern: number))
        case (.integer(let number), .double): return .double(Double(number))
        case (.integer(let number), .date): return .date(Date(timeIntervalSinceReferenceDate: Double(number)))
        case (.integer(let number), _): return .int64(number)
        case (.real(let number), .date): return .date(Date(timeIntervalSinceReferenceDate: number))
        case (.real(let number), _): return .double(number)
        case (.text(let text), .decimal):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw ToolError.failed("'\(text)' is not a Decimal")
            }
            return .decimal(decimal)
        case (.text(let text), .url):
            guard let url = URL(string: text) else { throw ToolError.failed("'\(text)' is not a URL") }
            return .url(url)
        case (.text(let text), .json): return .json(text)
        case (.text(let text), _): return .string(text)
        case (.blob(let bytes), .uuid) where bytes.count == 16:
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.blob(let bytes), _): return .data(bytes)
        }
    }
}

extension SQLiteValue {
    /// The text, when the value is text.
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
