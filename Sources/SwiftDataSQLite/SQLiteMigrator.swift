import Foundation
import SwiftDataCore
import SwiftDataSQL

/// Brings a store's tables from the schema it records to a model schema, when the change is lightweight:
/// added models, added optional or defaulted properties, removed properties, renames through `originalName`,
/// optionality changes that existing data satisfies, relationship changes that keep their storage, unique
/// constraints that the data already satisfies, indexes. Anything else throws an error that names the model,
/// the property and the fix. It runs inside the caller's transaction, so a failure leaves the store as it was.
struct SQLiteMigrator {
    let database: SQLiteDatabase
    /// The schema the store holds now; updated as entities migrate.
    private(set) var stored: StoredSchema
    private let dialect = SQLiteDialect()
    let external: ExternalStorage?

    init(database: SQLiteDatabase, stored: StoredSchema, external: ExternalStorage?) {
        self.database = database
        self.stored = stored
        self.external = external
    }

    /// Migrates every entity of `target`; entities the store has and `target` lacks are kept as they are.
    mutating func migrate(to target: Schema, existingTables: Set<String>) throws {
        for entity in target.entities {
            if let old = stored.entities.first(where: { $0.name == entity.name }) {
                try migrate(old, to: entity)
            } else {
                if existingTables.contains(entity.name) {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason: "the store has a table \(entity.name) that it did not create", model: entity.name,
                        suggestion: "Use a separate store file")
                }
                try database.executeScript(SQLiteStore.createTable(entity))
            }
            let recorded = StoredSchema.entity(entity)
            if let index = stored.entities.firstIndex(where: { $0.name == entity.name }) {
                stored.entities[index] = recorded
            } else {
                stored.entities.append(recorded)
            }
        }
    }

    // MARK: One entity

    /// Where a column of the migrated table gets its values from.
    private struct Column {
        let name: String
        /// The column of the old table, or `nil` for a new column.
        let source: String?
        /// The value of new rows' column, and of old rows' NULLs when the column becomes required.
        let fill: StoreValue?
    }

    private mutating func migrate(_ old: StoredSchema.StoredEntity, to entity: Schema.Entity) throws {
        let new = StoredSchema.entity(entity)
        guard old != new else { return }
        let table = entity.name
        var columns: [Column] = []
        var rebuild = false
        var used = Set<String>()
        var moved: [(name: String, toFiles: Bool)] = []

        for attribute in entity.orderedAttributes where !attribute.options.contains(.ephemeral) {
            guard let target = new.attributes.first(where: { $0.name == attribute.name }) else { continue }
            let source =
                old.attributes.first { $0.name == attribute.name }
                ?? old.attributes.first {
                    $0.name == attribute.originalName && attribute.originalName != attribute.name
                }
            let fill = try attribute.defaultValue.map { try StoreValue(encoding: $0) }
            guard let source else {
                if !target.isOptional && fill == nil && target.storage != .real, try rowCount(table) > 0 {
                    throw problem(
                        entity, attribute.name,
                        "the model adds the required property '\(attribute.name)' without a default value",
                        "Give it a default value or make it optional, or migrate with a custom MigrationStage")
                }
                columns.append(Column(name: attribute.name, source: nil, fill: fill))
                rebuild = true
                continue
            }
            used.insert(source.name)
            if baseType(source) != baseType(target) || source.storage != target.storage {
                throw problem(
                    entity, attribute.name, "its type changed from \(source.type) to \(target.type)",
                    "Migrate the values with a MigrationStage.custom, or keep the old type")
            }
            if source.isOptional && !target.isOptional && fill == nil && target.storage != .real,
                try nullCount(table, source.name) > 0
            {
                throw problem(
                    entity, attribute.name, "it became required, and stored models have no value for it",
                    "Give it a default value, or keep it optional")
            }
            if source.name != attribute.name || source.isOptional != target.isOptional
                || source.options != target.options
            {
                rebuild = true
            }
            let wasExternal = source.options?.contains("externalStorage") == true
            if wasExternal != attribute.isExternal, external != nil {
                moved.append((attribute.name, attribute.isExternal))
            }
            columns.append(Column(name: attribute.name, source: source.name, fill: source.isOptional ? fill : nil))
        }
        if old.attributes.contains(where: { !used.contains($0.name) }) { rebuild = true }

        try migrateRelationships(old, to: entity, columns: &columns, rebuild: &rebuild)
        let oldColumns = try database.rows("SELECT name FROM pragma_table_info(?)", [.string(table)]).compactMap {
            if case .text(let name) = $0.first, name != SQLiteStore.keyColumn { name } else { nil }
        }
        if Set(oldColumns) != Set(columns.map(\.name)) || columns.contains(where: { $0.source != $0.name }) {
            rebuild = true
        }

        if rebuild {
            try rebuildTable(entity, columns: columns)
            for (column, toFiles) in moved { try moveValues(of: table, column: column, toFiles: toFiles) }
        } else if old.uniquenessConstraints ?? [] != entity.uniquenessConstraints || old.indices ?? [] != entity.indices
            || old.spatialIndices ?? [] != entity.spatialIndices
        {
            try replaceIndexes(of: entity, old: old)
        }
    }

    /// Maps foreign-key columns, and creates, renames or drops the join tables the entity owns.
    private func migrateRelationships(
        _ old: StoredSchema.StoredEntity, to entity: Schema.Entity, columns: inout [Column], rebuild: inout Bool
    ) throws {
        let oldRelationships = old.relationships ?? []
        var used = Set<String>()
        for relationship in entity.orderedRelationships {
            let source =
                oldRelationships.first { $0.name == relationship.name }
                ?? oldRelationships.first {
                    $0.name == relationship.originalName && relationship.originalName != relationship.name
                }
            if let source { used.insert(source.name) }
            switch relationship.storage {
            case .column:
                if let source, source.storage != "column" {
                    throw problem(
                        entity, relationship.name,
                        "its storage changed (\(source.description) became \(relationship.name))",
                        "Migrate it with a MigrationStage.custom")
                }
                if source?.name != relationship.name { rebuild = true }
                if !relationship.isOptional, relationship.isToOneRelationship, source == nil,
                    try rowCount(entity.name) > 0
                {
                    throw problem(
                        entity, relationship.name,
                        "the model adds a required relationship that stored models cannot have",
                        "Make the relationship optional, or migrate with a MigrationStage.custom")
                }
                columns.append(Column(name: relationship.name, source: source?.name, fill: nil))
                if let position = relationship.positionColumn {
                    let oldPosition = try source.map { "_\($0.name)_position" }.flatMap {
                        try columnExists(entity.name, $0) ? $0 : nil
                    }
                    columns.append(Column(name: position, source: oldPosition, fill: nil))
                }
            case .joinTable(let name, true):
                if let source, source.storage.hasPrefix("join:") {
                    let oldTable = source.storage.split(separator: ":").dropFirst().first.map(String.init) ?? name
                    if oldTable != name {
                        try database.executeScript(
                            "ALTER TABLE \(dialect.quote(oldTable)) RENAME TO \(dialect.quote(name))")
                    }
                } else if source == nil {
                    try database.executeScript(SQLiteStore.createJoinTable(name).joined(separator: ";\n"))
                } else {
                    throw problem(
                        entity, relationship.name,
                        "its storage changed (\(source!.description) became a many-to-many relationship)",
                        "Migrate it with a MigrationStage.custom")
                }
            case .joinTable, .inverseColumn:
                continue
            }
        }
        for removed in oldRelationships where !used.contains(removed.name) {
            if removed.storage == "column" {
                rebuild = true
            } else if removed.storage.hasPrefix("join:"), removed.storage.hasSuffix(":owner"),
                let table = removed.storage.split(separator: ":").dropFirst().first
            {
                try database.executeScript("DROP TABLE IF EXISTS \(dialect.quote(String(table)))")
            }
        }
    }

    /// Recreates the table with the new columns, copying every row.
    private func rebuildTable(_ entity: Schema.Entity, columns: [Column]) throws {
        let table = dialect.quote(entity.name)
        let temporary = "\(entity.name)__migrating"
        try database.executeScript(SQLiteStore.createTable(entity, tableName: temporary, withJoinTables: false))
        var parameters: [StoreValue] = []
        let sources = columns.map { column -> String in
            switch (column.source, column.fill) {
            case (let source?, let fill?):
                parameters.append(fill)
                return "coalesce(\(dialect.quote(source)), ?)"
            case (let source?, nil):
                return dialect.quote(source)
            case (nil, let fill?):
                parameters.append(fill)
                return "?"
            case (nil, nil):
                return "NULL"
            }
        }
        let key = dialect.quote(SQLiteStore.keyColumn)
        try database.execute(
            "INSERT INTO \(dialect.quote(temporary)) (\(([key] + columns.map { dialect.quote($0.name) }).joined(separator: ", "))) SELECT \(([key] + sources).joined(separator: ", ")) FROM \(table)",
            parameters)
        try database.executeScript("DROP TABLE \(table)")
        try database.executeScript("ALTER TABLE \(dialect.quote(temporary)) RENAME TO \(table)")
        for relationship in entity.orderedRelationships where relationship.storage == .column {
            try database.executeScript(SQLiteStore.foreignKeyIndex(entity, relationship))
        }
        try createIndexes(of: entity)
    }

    /// Drops the entity's constraint indexes and creates the new ones.
    private func replaceIndexes(of entity: Schema.Entity, old: StoredSchema.StoredEntity) throws {
        let indexes = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND (name LIKE ? OR name LIKE ?)",
            [.string(entity.name), .string("\(entity.name)_unique_%"), .string("\(entity.name)_index_%")])
        for case .text(let name)? in indexes.map(\.first) {
            try database.executeScript("DROP INDEX \(dialect.quote(name))")
        }
        try createIndexes(of: entity)
    }

    /// Creates the entity's unique constraints and indexes; refuses unique constraints the data breaks, naming the
    /// duplicate values.
    private func createIndexes(of entity: Schema.Entity) throws {
        try SQLiteSpatialIndex.dropAll(of: entity.name, in: database)
        for constraint in entity.uniquenessConstraints {
            let columns = constraint.map(dialect.quote).joined(separator: ", ")
            let duplicates = try database.rows(
                "SELECT \(columns), count(*) FROM \(dialect.quote(entity.name)) GROUP BY \(columns) HAVING count(*) > 1 AND \(constraint.map { "\(dialect.quote($0)) IS NOT NULL" }.joined(separator: " AND ")) LIMIT 3"
            )
            if !duplicates.isEmpty {
                let values = duplicates.map { row in
                    zip(constraint, row).map { "\($0) = \($1)" }.joined(separator: ", ")
                        + " (\(row.last ?? .null) models)"
                }
                throw problem(
                    entity, constraint.joined(separator: ", "),
                    "stored models repeat values that the new unique constraint forbids: \(values.joined(separator: "; "))",
                    "Remove or change the duplicates before adding the constraint")
            }
        }
        for statement in SQLiteStore.indexStatements(entity) { try database.executeScript(statement) }
    }

    /// Moves an attribute's values between the rows and files, when `.externalStorage` was added or removed.
    private func moveValues(of table: String, column: String, toFiles: Bool) throws {
        guard let external else { return }
        let key = dialect.quote(SQLiteStore.keyColumn)
        let rows = try database.rows(
            "SELECT \(key), \(dialect.quote(column)) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NOT NULL"
        )
        let update = "UPDATE \(dialect.quote(table)) SET \(dialect.quote(column)) = ? WHERE \(key) = ?"
        for row in rows {
            guard case .integer(let rowKey) = row[0] else { continue }
            switch (toFiles, row[1]) {
            case (true, .blob(let data)):
                try database.execute(update, [.string(data.isEmpty ? "" : try external.write(data)), .int64(rowKey)])
            case (false, .text(let name)):
                try database.execute(
                    update, [.data(name.isEmpty ? Data() : try external.read(name)), .int64(rowKey)])
                if !name.isEmpty { external.replace(name) }
            default:
                continue
            }
        }
    }

    // MARK: Helpers

    private func baseType(_ attribute: StoredSchema.StoredAttribute) -> String {
        attribute.isOptional && attribute.type.hasSuffix("?") ? String(attribute.type.dropLast()) : attribute.type
    }

    private func rowCount(_ table: String) throws -> Int64 {
        if case .integer(let count) = try database.rows("SELECT count(*) FROM \(dialect.quote(table))").first?.first {
            return count
        }
        return 0
    }

    private func nullCount(_ table: String, _ column: String) throws -> Int64 {
        let rows = try database.rows(
            "SELECT count(*) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NULL")
        if case .integer(let count) = rows.first?.first { return count }
        return 0
    }

    private func columnExists(_ table: String, _ column: String) throws -> Bool {
        try database.rows("SELECT name FROM pragma_table_info(?) WHERE name = ?", [.string(table), .string(column)])
            .count
            > 0
    }

    private func problem(_ entity: Schema.Entity, _ property: String, _ reason: String, _ fix: String) -> SwiftDataError
    {
        SwiftDataError.loadIssueModelContainer.with(
            reason:
                "the store's \(entity.name).\(property) cannot be migrated automatically: \(reason); the store was left untouched",
            model: entity.name, property: property, suggestion: fix)
    }
}
