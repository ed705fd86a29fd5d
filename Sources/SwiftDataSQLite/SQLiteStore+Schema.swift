import CSQLite
import Foundation
import SwiftDataCore

extension SQLiteStore {
    /// Refuses a file that exists but is not an SQLite database, before SQLite touches it; creates the
    /// directory of a new store.
    static func checkFile(at url: URL, creating: Bool) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(url.path) is a directory, not a store file", suggestion: "Give the configuration a file URL")
            }
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the store file \(url.path) cannot be read", suggestion: "Check the file's permissions")
            }
            let header = handle.readData(ofLength: 16)
            try? handle.close()
            if !header.isEmpty && header != Data("SQLite format 3\0".utf8) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(url.path) is not an SQLite store; it was left untouched",
                    suggestion: "Point the configuration at a store file, or move the file away")
            }
        } else if creating {
            do {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the directory of \(url.path) cannot be created: \(error.localizedDescription)",
                    suggestion: "Choose a location the program can write to")
            }
        } else {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "there is no store at \(url.path) to open read-only", suggestion: "Create the store first")
        }
    }

    /// The key column name is the store's; a model cannot use it.
    static func checkReservedNames(_ schema: Schema) throws {
        for entity in schema.entities {
            for relationship in entity.orderedRelationships where relationship.storage != .column {
                guard let destination = relationship.destinationType,
                    schema.entitiesByName[String(describing: destination)] != nil
                else {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "\(entity.name).\(relationship.name) leads to \(relationship.destination), which another configuration stores",
                        model: entity.name, property: relationship.name,
                        suggestion: "Keep related models in the same configuration")
                }
            }
            if let attribute = entity.orderedAttributes.first(where: { $0.name == keyColumn }) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "'\(keyColumn)' is the name of the store's key column", model: entity.name,
                    property: attribute.name, suggestion: "Rename the property")
            }
        }
    }

    /// Reads or creates the store's metadata and tables, and returns the store identifier. Nothing is
    /// written until the existing contents are known to fit the schema.
    static func prepare(_ database: SQLiteDatabase, schema: Schema, configuration: ModelConfiguration) throws -> String {
        let tables: Set<String>
        do {
            tables = Set(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
                if case .text(let name) = $0.first { return name } else { return nil }
            })
        } catch let error as SwiftDataError {
            throw SwiftDataError.loadIssueModelContainer.with(
                reason: "the store at \(configuration.url.path) cannot be read; it was left untouched",
                storeCode: error.storeCode, storeMessage: error.storeMessage,
                suggestion: "The file is damaged or not a store; restore it from a backup or move it away")
        }
        let stored = try readMetadata(database, tables: tables, configuration: configuration)
        var identifier = stored.identifier
        var toCreate: [Schema.Entity] = []
        for entity in schema.entities {
            let model = StoredSchema.entity(entity)
            guard let old = stored.schema?.entities.first(where: { $0.name == entity.name }) else {
                if tables.contains(entity.name) {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "the store has a table \(entity.name) that it did not create", model: entity.name,
                        suggestion: "Use a separate store file")
                }
                toCreate.append(entity)
                continue
            }
            if let mismatch = StoredSchema.mismatch(stored: old, model: model) {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the store's \(entity.name) does not match the model: \(mismatch)", model: entity.name,
                    suggestion: "Schema migrations are not supported yet: open a new store file, or restore the model's previous properties")
            }
        }
        guard configuration.allowsSave else {
            if let missing = toCreate.first {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "the read-only store has no table for \(missing.name)", model: missing.name,
                    suggestion: "Open the store with allowsSave: true once to add it")
            }
            return identifier ?? UUID().uuidString
        }
        if !configuration.isStoredInMemoryOnly {
            _ = try database.rows("PRAGMA journal_mode = WAL")
        }
        if identifier == nil || !toCreate.isEmpty {
            try database.writeTransaction {
                try database.executeScript("""
                    CREATE TABLE IF NOT EXISTS \(metadataTable) (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS \(sequenceTable) (entity TEXT PRIMARY KEY, last_key INTEGER NOT NULL)
                    """)
                for entity in toCreate { try database.executeScript(createTable(entity)) }
                if identifier == nil {
                    identifier = UUID().uuidString
                    try database.execute(
                        "INSERT INTO \(metadataTable) (key, value) VALUES ('store_identifier', ?)", [.text(identifier!)])
                }
                var recorded = stored.schema ?? StoredSchema(Schema())
                recorded.entities += toCreate.map(StoredSchema.entity)
                let json = String(decoding: try JSONEncoder().encode(recorded), as: UTF8.self)
                try database.execute(
                    "INSERT OR REPLACE INTO \(metadataTable) (key, value) VALUES ('schema', ?)", [.text(json)])
            }
        }
        return identifier ?? UUID().uuidString
    }

    private static func readMetadata(
        _ database: SQLiteDatabase, tables: Set<String>, configuration: ModelConfiguration
    ) throws -> (identifier: String?, schema: StoredSchema?) {
        guard tables.contains(metadataTable) else {
            if !tables.isEmpty {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "\(configuration.url.path) is an SQLite database that this framework did not create; it was left untouched",
                    suggestion: "Use a separate store file")
            }
            return (nil, nil)
        }
        var identifier: String?
        var schema: StoredSchema?
        for row in try database.rows("SELECT key, value FROM \(metadataTable)") {
            guard case .text(let key) = row[0], case .text(let value) = row[1] else { continue }
            switch key {
            case "store_identifier": identifier = value
            case "schema":
                do {
                    schema = try JSONDecoder().decode(StoredSchema.self, from: Data(value.utf8))
                } catch {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "the store's recorded schema cannot be read: \(error)",
                        suggestion: "The store was written by an incompatible version; restore it from a backup")
                }
            default: break
            }
        }
        return (identifier, schema)
    }

    /// `CREATE TABLE` for an entity, the indexes of its foreign keys, and the join tables it owns.
    static func createTable(_ entity: Schema.Entity) -> String {
        let dialect = SQLiteDialect()
        let table = dialect.quote(entity.name)
        var columns = ["\(dialect.quote(keyColumn)) INTEGER PRIMARY KEY"]
        var statements: [String] = []
        for attribute in entity.orderedAttributes {
            let storage = attribute.layout.map(storage) ?? .blob
            var column = "\(dialect.quote(attribute.name)) \(storage.rawValue.uppercased())"
            // NaN is stored as NULL, so REAL columns accept NULL even for non-optional values.
            if !attribute.isOptional && storage != .real { column += " NOT NULL" }
            columns.append(column)
        }
        for relationship in entity.orderedRelationships {
            switch relationship.storage {
            case .column:
                columns.append("\(dialect.quote(relationship.name)) INTEGER")
                if let position = relationship.positionColumn { columns.append("\(dialect.quote(position)) INTEGER") }
                statements.append(
                    "CREATE INDEX \(dialect.quote("\(entity.name)_\(relationship.name)")) ON \(table) (\(dialect.quote(relationship.name)))")
            case .joinTable(let name, true):
                statements.append("""
                    CREATE TABLE \(dialect.quote(name)) ("owner" INTEGER NOT NULL, "member" INTEGER NOT NULL, \
                    "position" INTEGER, "inverse_position" INTEGER, PRIMARY KEY ("owner", "member")) WITHOUT ROWID
                    """)
                statements.append("CREATE INDEX \(dialect.quote("\(name)_member")) ON \(dialect.quote(name)) (\"member\")")
            case .joinTable, .inverseColumn:
                continue
            }
        }
        return (["CREATE TABLE \(table) (\(columns.joined(separator: ", ")))"] + statements).joined(separator: ";\n")
    }
}
