import Foundation
import SwiftDataCore

/// `swiftdata copy FROM TO`: a whole store into an empty one of either kind, in one transaction on the target.
enum CopyCommand {
    static let command = SwiftDataTool.Command(
        name: "copy", summary: "Copy a whole store into an empty one, SQLite or PostgreSQL.",
        help: """
            OVERVIEW: Copy a whole store into a new SQLite file or an empty PostgreSQL schema: every row with its
            key (so identifiers and relationships, ordered ones in their order, stay as they were), the key
            sequences, the externally stored data, the history and the recorded schema, in one transaction on the
            target: if anything fails, the target is left as it was (a new SQLite file is removed). Rows are read
            through a cursor and written in batches, so memory stays bounded. On a terminal, a progress line
            shows on standard error. The app then opens the target with its usual configuration.

            USAGE: swiftdata copy <from> <to>

            Each store is an SQLite store's path or a PostgreSQL URL (schema after '#'). The source is only read.

            """, options: [:], positional: 2...2, run: run)

    /// Rows written per batch.
    static let batchSize = 500

    static func run(_ arguments: ToolArguments, _ output: ToolOutput) throws -> Int32 {
        let source = try StoreOpener.source(arguments.positional[0])
        var target: (any ToolStore)?
        let copied = try copy(
            from: source,
            to: {
                let store = try StoreOpener.target(arguments.positional[1])
                target = store
                return store
            }, progress: output.isTerminal ? output.writeError : nil)
        if output.isTerminal { output.writeError("\r\u{1B}[K") }
        output.line(
            "Copied \(plural(Int(copied.rows), "row")), \(plural(copied.external, "external value")) and \(plural(copied.history, "history transaction")) from \(source.address) to \(target?.address ?? arguments.positional[1])."
        )
        return ExitCode.success
    }

    /// What a copy wrote.
    struct Counts {
        var rows: Int64 = 0
        var external = 0
        var history = 0
    }

    /// Copies `source` into the store `openTarget` opens once the source's schema is read (so that a source that
    /// cannot be copied leaves no new file behind).
    static func copy(
        from source: any ToolStore, to openTarget: () throws -> any ToolStore, progress: ((String) -> Void)?
    ) throws -> Counts {
        var counts = Counts()
        try source.reading {
            let recorded = try RecordedStore(source)
            let schema = try recorded.schema.schema(version: recorded.version) { entity, attribute in
                try source.layout(of: attribute, in: entity)
            }
            // A hierarchy's entities share its root's table, with a column naming each row's entity.
            let tables = schema.entities.filter { $0.superentity == nil }.map(\.tableEntity)
            let total = try recorded.schema.entities.reduce(Int64(0)) {
                $0 + (try source.count("SELECT count(*) FROM \(quoted($1.name))"))
            }
            try openTarget().creating { writer in
                try writer.createTables(for: schema)
                try writeMetadata(recorded, tables: tables, writer: writer)
                try copyTable(
                    StoreTables.sequence, columns: ["entity", "last_key"], types: [.string, .int64], from: source,
                    to: writer)
                for entity in tables {
                    counts.external += try copyRows(
                        of: entity, from: source, to: writer,
                        progress: { rows in
                            counts.rows += rows
                            progress?("\r\u{1B}[Kcopying \(entity.name): \(counts.rows) of \(total) rows")
                        })
                }
                for join in recorded.joinTables {
                    try copyTable(
                        join.table, columns: StoreTables.joinColumns, types: [.int64, .int64, .int64, .int64],
                        from: source, to: writer)
                }
                counts.history = try copyTable(
                    StoreTables.history, columns: StoreTables.historyColumns, types: StoreTables.historyTypes,
                    from: source, to: writer)
                try writer.finishHistory()
                progress?("\r\u{1B}[Kcommitting")
            }
        }
        return counts
    }

    /// The metadata, with the recorded schema's storage in the target's words.
    private static func writeMetadata(
        _ recorded: RecordedStore, tables: [Schema.Entity], writer: any ToolStoreWriter
    ) throws {
        let layouts = Dictionary(
            tables.map { table in
                (table.name, Dictionary(table.orderedAttributes.map { ($0.name, $0.layout) }) { first, _ in first })
            }
        ) { first, _ in first }
        // A subentity's attributes are columns of its hierarchy's table.
        func translated(_ entity: StoredSchema.StoredEntity, in table: String) -> StoredSchema.StoredEntity {
            var entity = entity
            for (position, attribute) in entity.attributes.enumerated() {
                guard let layout = layouts[table]?[attribute.name] ?? nil else { continue }
                entity.attributes[position].storage = writer.recordedStorage(of: layout.valueType)
            }
            entity.subentities = entity.subentities?.map { translated($0, in: table) }
            return entity
        }
        var stored = recorded.schema
        stored.entities = stored.entities.map { translated($0, in: $0.name) }
        var metadata = recorded.metadata
        metadata["schema"] = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
        try writer.insert(
            into: StoreTables.metadata, columns: ["key", "value"],
            rows: metadata.sorted { $0.key < $1.key }.map { [.string($0.key), .string($0.value)] })
    }

    /// Copies a table's rows in batches; returns how many.
    @discardableResult
    private static func copyTable(
        _ table: String, columns: [String], types: [StoreValueType], from source: any ToolStore,
        to writer: any ToolStoreWriter, order: String? = nil, transform: ((inout [StoreValue]) throws -> Void)? = nil,
        progress: ((Int64) -> Void)? = nil
    ) throws -> Int {
        var batch: [[StoreValue]] = []
        var count = 0
        func flush() throws {
            try writer.insert(into: table, columns: columns, rows: batch)
            progress?(Int64(batch.count))
            count += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        let sql =
            "SELECT \(columns.map(quoted).joined(separator: ", ")) FROM \(quoted(table))"
            + (order.map { " ORDER BY \(quoted($0))" } ?? "")
        try source.forEachRow(sql, types: types) { row in
            var row = row
            try transform?(&row)
            batch.append(row)
            if batch.count == batchSize { try flush() }
        }
        if !batch.isEmpty { try flush() }
        return count
    }

    /// Copies an entity's table, each externally stored value with its row; returns how many values that was.
    private static func copyRows(
        of entity: Schema.Entity, from source: any ToolStore, to writer: any ToolStoreWriter,
        progress: @escaping (Int64) -> Void
    ) throws -> Int {
        let attributes = entity.orderedAttributes.filter { !$0.options.contains(.ephemeral) }
        var columns = [StoreTables.key] + attributes.map(\.name)
        var types: [StoreValueType] =
            [.int64] + attributes.map { $0.isExternal ? .string : $0.layout?.valueType ?? .data }
        for relationship in entity.orderedRelationships where relationship.storage == .column {
            columns.append(relationship.name)
            types.append(.int64)
            if let position = relationship.positionColumn {
                columns.append(position)
                types.append(.int64)
            }
        }
        let external = attributes.indices.filter { attributes[$0].isExternal }.map { $0 + 1 }
        var copied = 0
        try copyTable(
            entity.name, columns: columns, types: types, from: source, to: writer, order: StoreTables.key,
            transform: external.isEmpty
                ? nil
                : { row in
                    for column in external {
                        guard case .string(let reference) = row[column], !reference.isEmpty else { continue }
                        try writer.writeExternal(try source.externalData(reference), reference: reference)
                        copied += 1
                    }
                }, progress: progress)
        return copied
    }
}
