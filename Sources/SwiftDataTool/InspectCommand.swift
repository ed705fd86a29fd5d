import Foundation
import SwiftDataCore

/// `swiftdata inspect STORE`: what the store records about itself, and how much it holds.
enum InspectCommand {
    static let command = SwiftDataTool.Command(
        name: "inspect", summary: "Show a store's entities, schema version, row counts, history and external data.",
        help: """
            OVERVIEW: Show what a store records about itself: its entities with their attributes, relationships,
            indexes and constraints, the schema version, each entity's rows, the history (transactions, size,
            oldest token) and the externally stored data.

            USAGE: swiftdata inspect <store>

            The store is an SQLite store's path or a PostgreSQL URL (schema after '#'); it is only read.

            """, options: [:], positional: 1...1, run: run)

    static func run(_ arguments: ToolArguments, _ output: ToolOutput) throws -> Int32 {
        let store = try StoreOpener.source(arguments.positional[0])
        try store.reading {
            let recorded = try RecordedStore(store)
            output.line("Store: \(store.address) (\(store is SQLiteToolStore ? "SQLite" : "PostgreSQL"))")
            output.line("Identifier: \(recorded.metadata["store_identifier"] ?? "none")")
            output.line("Schema version: \(recorded.version)")
            for entity in recorded.schema.entities {
                let rows = try store.count("SELECT count(*) FROM \(quoted(entity.name))")
                output.line()
                output.line("\(entity.name): \(plural(Int(rows), "row"))")
                describe(entity, recorded: recorded, output: output, indent: "  ")
                for subentity in entity.subentities ?? [] {
                    output.line("  subentity \(subentity.name)")
                    describe(subentity, recorded: recorded, output: output, indent: "    ")
                }
            }
            for join in recorded.joinTables {
                let rows = try store.count("SELECT count(*) FROM \(quoted(join.table))")
                output.line()
                output.line("\(join.table) (join table of \(join.owner).\(join.relationship.name)): \(rows) rows")
            }
            output.line()
            let tables = try store.tableNames()
            if tables.contains(StoreTables.history) {
                let history = StoreTables.history
                let count = try store.count("SELECT count(*) FROM \(history)")
                let size = try store.count("SELECT coalesce(sum(length(changes)), 0) FROM \(history)")
                let oldest = try store.count("SELECT coalesce(min(number), 0) FROM \(history)")
                output.line(
                    "History: \(plural(Int(count), "transaction")), \(bytes(size))"
                        + (count > 0 ? ", oldest token \(oldest)" : ""))
            } else {
                output.line("History: none")
            }
            let external = try store.externalValues()
            output.line(
                "External storage: \(plural(external.count, "value")), \(bytes(external.reduce(0) { $0 + $1.size }))"
            )
        }
        return ExitCode.success
    }

    private static func describe(
        _ entity: StoredSchema.StoredEntity, recorded: RecordedStore, output: ToolOutput, indent: String
    ) {
        for attribute in entity.attributes {
            let options = attribute.options.map { " [\($0.joined(separator: ", "))]" } ?? ""
            output.line("\(indent)\(attribute.name): \(attribute.type) (\(attribute.storage))\(options)")
        }
        for relationship in entity.relationships ?? [] {
            let inverse = relationship.inverse.map { ", inverse \($0)" } ?? ""
            output.line("\(indent)\(relationship.description) (\(relationship.storage)\(inverse))")
        }
        for constraint in entity.uniquenessConstraints ?? [] {
            output.line("\(indent)unique [\(constraint.joined(separator: ", "))]")
        }
        for index in entity.indices ?? [] { output.line("\(indent)index [\(index.joined(separator: ", "))]") }
        for index in entity.spatialIndices ?? [] { output.line("\(indent)rtree [\(index.joined(separator: ", "))]") }
    }

    /// A size in bytes, in the unit that reads best.
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) bytes" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }
}

/// A count with its noun, plural unless it is one.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
