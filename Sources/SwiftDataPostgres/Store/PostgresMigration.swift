import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The PostgreSQL store's side of a migration, inside the transaction that opens the store: its recorded schema,
/// lightweight changes of its tables with `ALTER TABLE` (added models, added optional or defaulted properties,
/// removed properties, renames through `originalName`, optionality changes the data satisfies, added and removed
/// relationships, unique constraints the data satisfies, indexes), and a store over the transaction's connection
/// for a stage's contexts. Anything else throws an error naming the model, the property and the fix. Core runs the
/// plan (`MigrationPlanRun`).
struct PostgresMigration: SchemaMigrationTarget {
    let connection: PostgresConnection
    /// The schema the tables hold now; updated as entities migrate.
    private(set) var stored: PostgresStoredSchema
    let configuration: PostgresConfiguration
    let identifier: String
    private let dialect = PostgreSQLDialect()

    init(
        connection: PostgresConnection, stored: PostgresStoredSchema, configuration: PostgresConfiguration,
        identifier: String
    ) {
        self.connection = connection
        self.stored = stored
        self.configuration = configuration
        self.identifier = identifier
    }

    func recordedTables(match schema: Schema) -> RecordedTablesMatch {
        let entities = PostgresStoredSchema(schema).entities
        guard entities.allSatisfy(stored.entities.contains) else { return .different }
        return Set(entities.map(\.name)) == Set(stored.entities.map(\.name))
            ? .exact : .contained(entities: entities.count)
    }

    mutating func migrateTables(to schema: Schema) throws {
        try migrate(to: schema, existingTables: [])
    }

    func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
        // The stage's contexts see the stage's models, not the final version's that the configuration names.
        var stageConfiguration = configuration
        stageConfiguration.schema = nil
        let store = PostgresRowStore(
            sharing: connection, configuration: stageConfiguration, schema: schema, identifier: identifier)
        return (stageConfiguration, store)
    }

    /// Migrates every entity of `target`; tables of entities `target` lacks are kept as they are. A new entity
    /// whose table exists without having been recorded (another program's) is refused.
    mutating func migrate(to target: Schema, existingTables: Set<String>) throws {
        for entity in target.entities {
            if let old = stored.entities.first(where: { $0.name == entity.name }) {
                try migrate(old, to: entity)
            } else {
                if existingTables.contains(entity.name) {
                    throw SwiftDataError.loadIssueModelContainer.with(
                        reason:
                            "the PostgreSQL schema '\(configuration.postgresSchema)' has a table \(entity.name) that this framework did not create",
                        model: entity.name, suggestion: "Use another PostgreSQL schema (postgresSchema:)")
                }
                for statement in PostgresSchemaSQL.createTable(entity) { try connection.execute(statement) }
            }
            let recorded = PostgresStoredSchema.entity(entity)
            if let index = stored.entities.firstIndex(where: { $0.name == entity.name }) {
                stored.entities[index] = recorded
            } else {
                stored.entities.append(recorded)
            }
        }
    }

    // MARK: One entity

    private func migrate(_ old: PostgresStoredSchema.Entity, to entity: Schema.Entity) throws {
        let new = PostgresStoredSchema.entity(entity)
        guard old != new else { return }
        let table = dialect.quote(entity.name)
        var used = Set<String>()
        for attribute in entity.orderedAttributes where !attribute.options.contains(.ephemeral) {
            guard let target = new.attributes.first(where: { $0.name == attribute.name }) else { continue }
            let source =
                old.attributes.first { $0.name == attribute.name }
                ?? old.attributes.first {
                    $0.name == attribute.originalName && attribute.originalName != attribute.name
                }
            let fill = try attribute.defaultValue.map { PostgresValue(storing: try StoreValue(encoding: $0)) }
            let type = attribute.postgresType.sqlName
            let column = dialect.quote(attribute.name)
            let required = !target.isOptional && attribute.layout?.valueType != .double
            guard let source else {
                if required, fill == nil, try rowCount(table) > 0 {
                    throw problem(
                        entity, attribute.name,
                        "the model adds the required property '\(attribute.name)' without a default value",
                        "Give it a default value or make it optional, or migrate with a custom MigrationStage")
                }
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
                if let fill { try connection.query("UPDATE \(table) SET \(column) = $1::\(type)", [fill]) }
                if required { try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL") }
                continue
            }
            used.insert(source.name)
            if source.isExternal != target.isExternal {
                throw problem(
                    entity, attribute.name, "it moves into or out of external storage",
                    "Migrate the values with a MigrationStage.custom, or keep its storage")
            }
            if baseType(source) != baseType(target) || source.columnType != target.columnType {
                throw problem(
                    entity, attribute.name, "its type changed from \(source.type) to \(target.type)",
                    "Migrate the values with a MigrationStage.custom, or keep the old type")
            }
            if source.name != attribute.name {
                try connection.execute(
                    "ALTER TABLE \(table) RENAME COLUMN \(dialect.quote(source.name)) TO \(column)")
            }
            if source.isOptional && required {
                let nulls = try count("SELECT count(*) FROM \(table) WHERE \(column) IS NULL")
                if nulls > 0 {
                    guard let fill else {
                        throw problem(
                            entity, attribute.name, "it became required, and stored models have no value for it",
                            "Give it a default value, or keep it optional")
                    }
                    try connection.query("UPDATE \(table) SET \(column) = $1::\(type) WHERE \(column) IS NULL", [fill])
                }
                try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
            } else if !source.isOptional && !required {
                try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) DROP NOT NULL")
            }
        }
        for removed in old.attributes where !used.contains(removed.name) {
            let column = dialect.quote(removed.name)
            if removed.isExternal {
                try connection.execute(
                    "DELETE FROM \(PostgresRowStore.externalTable) WHERE id IN (SELECT \(column) FROM \(table))")
            }
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(column)")
        }
        try migrateRelationships(old, to: entity)
        if old.uniquenessConstraints != new.uniquenessConstraints || old.indices != new.indices {
            for name in indexNames(old) { try connection.execute("DROP INDEX IF EXISTS \(dialect.quote(name))") }
            for statement in PostgresSchemaSQL.indexStatements(entity) {
                do {
                    try connection.execute(statement)
                } catch let error as PostgresError where error.kind == .uniqueViolation {
                    throw problem(
                        entity, entity.uniquenessConstraints.map { $0.joined(separator: ", ") }.joined(separator: "; "),
                        "stored models have duplicate values for a new unique constraint (\(error.detail ?? ""))",
                        "Remove the duplicates with a MigrationStage.custom before the constraint applies")
                }
            }
        }
    }

    /// Adds and drops foreign-key columns and the join tables the entity owns.
    private func migrateRelationships(_ old: PostgresStoredSchema.Entity, to entity: Schema.Entity) throws {
        let table = dialect.quote(entity.name)
        var used = Set<String>()
        for relationship in entity.orderedRelationships {
            let new = PostgresStoredSchema.entity(entity).relationships.first { $0.name == relationship.name }
            let source =
                old.relationships.first { $0.name == relationship.name }
                ?? old.relationships.first {
                    $0.name == relationship.originalName && relationship.originalName != relationship.name
                }
            if let source { used.insert(source.name) }
            if let source, let new,
                source.storage.split(separator: ":").first != new.storage.split(separator: ":").first
            {
                throw problem(
                    entity, relationship.name,
                    "its storage changed (\(source.description) became \(new.description))",
                    "Migrate it with a MigrationStage.custom")
            }
            switch relationship.storage {
            case .column:
                guard let source else {
                    if !relationship.isOptional, relationship.isToOneRelationship, try rowCount(table) > 0 {
                        throw problem(
                            entity, relationship.name,
                            "the model adds a required relationship that stored models cannot have",
                            "Make the relationship optional, or migrate with a MigrationStage.custom")
                    }
                    for column in PostgresSchemaSQL.relationshipColumns(relationship) {
                        try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column)")
                    }
                    try connection.execute(PostgresSchemaSQL.foreignKeyIndex(entity, relationship))
                    continue
                }
                if source.name != relationship.name {
                    try connection.execute(
                        "ALTER TABLE \(table) RENAME COLUMN \(dialect.quote(source.name)) TO \(dialect.quote(relationship.name))"
                    )
                }
                if let oldPosition = source.positionColumn, oldPosition != relationship.positionColumn {
                    try connection.execute("ALTER TABLE \(table) DROP COLUMN \(dialect.quote(oldPosition))")
                }
                if let position = relationship.positionColumn, position != source.positionColumn {
                    try connection.execute("ALTER TABLE \(table) ADD COLUMN \(dialect.quote(position)) bigint")
                }
            case .joinTable(let name, true):
                if let source, let oldTable = source.storage.split(separator: ":").dropFirst().first.map(String.init),
                    oldTable != name
                {
                    try connection.execute("ALTER TABLE \(dialect.quote(oldTable)) RENAME TO \(dialect.quote(name))")
                } else if source == nil {
                    for statement in PostgresSchemaSQL.createJoinTable(name) { try connection.execute(statement) }
                }
            case .joinTable, .inverseColumn:
                continue
            }
        }
        for removed in old.relationships where !used.contains(removed.name) {
            if removed.storage == "column" {
                try connection.execute("ALTER TABLE \(table) DROP COLUMN \(dialect.quote(removed.name))")
                if let position = removed.positionColumn {
                    try connection.execute("ALTER TABLE \(table) DROP COLUMN IF EXISTS \(dialect.quote(position))")
                }
            } else if removed.storage.hasPrefix("join:"), removed.storage.hasSuffix(":owner"),
                let joinTable = removed.storage.split(separator: ":").dropFirst().first
            {
                try connection.execute("DROP TABLE IF EXISTS \(dialect.quote(String(joinTable)))")
            }
        }
    }

    // MARK: Helpers

    private func indexNames(_ entity: PostgresStoredSchema.Entity) -> [String] {
        entity.uniquenessConstraints.map {
            PostgresSchemaSQL.indexName("\(entity.name)_unique_\($0.joined(separator: "_"))")
        } + entity.indices.map { PostgresSchemaSQL.indexName("\(entity.name)_index_\($0.joined(separator: "_"))") }
    }

    private func baseType(_ attribute: PostgresStoredSchema.Attribute) -> String {
        attribute.isOptional && attribute.type.hasSuffix("?") ? String(attribute.type.dropLast()) : attribute.type
    }

    private func rowCount(_ table: String) throws -> Int64 {
        try count("SELECT count(*) FROM \(table)")
    }

    private func count(_ sql: String) throws -> Int64 {
        try connection.query(sql).int64(0, 0) ?? 0
    }

    private func problem(_ entity: Schema.Entity, _ property: String, _ reason: String, _ fix: String) -> SwiftDataError
    {
        SwiftDataError.loadIssueModelContainer.with(
            reason:
                "the store's \(entity.name).\(property) cannot be migrated automatically: \(reason); the store was left untouched",
            model: entity.name, property: property, suggestion: fix)
    }
}
