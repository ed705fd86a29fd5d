import Foundation
import SwiftDataCore

/// `swiftdata dump STORE [--entity NAME] [--format jsonl|csv]`: the rows of one or all entities, streamed.
enum DumpCommand {
    static let command = SwiftDataTool.Command(
        name: "dump", summary: "Write the rows of one or all entities as JSON Lines or CSV.",
        help: """
            OVERVIEW: Write the rows of one or all entities as JSON Lines (one object per row, with "_entity" and
            "_pk") or CSV (one header and its rows per entity). A to-one relationship is the related row's key, a
            to-many one the keys of its rows in order; an externally stored value is its reference. Rows are read
            through a cursor, so memory stays the same whatever the store's size.

            USAGE: swiftdata dump <store> [--entity <name>] [--format jsonl|csv]

            OPTIONS:
              --entity <name>   Only this entity's rows.
              --format <format> jsonl (the default) or csv.

            """, options: ["--entity": true, "--format": true], positional: 1...1, run: run)

    static func run(_ arguments: ToolArguments, _ output: ToolOutput) throws -> Int32 {
        let format = arguments.options["--format"] ?? "jsonl"
        guard format == "jsonl" || format == "csv" else {
            throw ToolError.usage("--format is jsonl or csv, not '\(format)'", command: "dump")
        }
        let store = try StoreOpener.source(arguments.positional[0])
        try store.reading {
            let recorded = try RecordedStore(store)
            var entities = recorded.schema.entities
            if let name = arguments.options["--entity"] {
                guard let table = recorded.table(of: name), let entity = recorded.entity(named: table) else {
                    throw ToolError.failed(
                        "the store has no entity '\(name)'; it has \(recorded.schema.entities.map(\.name).joined(separator: ", "))"
                    )
                }
                entities = [entity]
            }
            for entity in entities {
                try dump(entity, recorded: recorded, store: store, csv: format == "csv", output: output)
            }
        }
        return ExitCode.success
    }

    private static func dump(
        _ entity: StoredSchema.StoredEntity, recorded: RecordedStore, store: any ToolStore, csv: Bool,
        output: ToolOutput
    ) throws {
        let columns = try store.columnNames(of: entity.name)
        var types = try recorded.columnTypes(of: entity, columns: columns, in: store)
        var selected = columns.map { "t." + quoted($0) }
        var names = columns
        for (relationship, list) in toManyLists(of: entity, recorded: recorded, postgres: store is PostgresToolStore) {
            selected.append(list)
            names.append(relationship)
            types.append(.json)
        }
        if csv { output.line(names.map(csvField).joined(separator: ",")) }
        let sql =
            "SELECT \(selected.joined(separator: ", ")) FROM \(quoted(entity.name)) t ORDER BY t.\(quoted(StoreTables.key))"
        try store.forEachRow(sql, types: types) { row in
            if csv {
                output.line(row.map { csvField($0.text) }.joined(separator: ","))
            } else {
                let fields = zip(names, row).map { "\(jsonString($0)):\($1.json)" }
                output.line("{\"_entity\":\(jsonString(entity.name)),\(fields.joined(separator: ","))}")
            }
        }
    }

    /// For each to-many relationship of a table's entities, a subquery that lists the related keys as a JSON array,
    /// in the relationship's order.
    private static func toManyLists(of entity: StoredSchema.StoredEntity, recorded: RecordedStore, postgres: Bool)
        -> [(String, String)]
    {
        func list(_ key: String, from table: String, where column: String, orderBy position: String?) -> String {
            let order = (position.map { quoted($0) + ", " } ?? "") + key
            return postgres
                ? "(SELECT coalesce(json_agg(\(key) ORDER BY \(order)), '[]')::text FROM \(quoted(table)) WHERE \(quoted(column)) = t.\(quoted(StoreTables.key)))"
                : "(SELECT json_group_array(\(key)) FROM (SELECT \(key) FROM \(quoted(table)) WHERE \(quoted(column)) = t.\(quoted(StoreTables.key)) ORDER BY \(order)))"
        }
        return ([entity] + (entity.subentities ?? [])).flatMap { member in
            (member.relationships ?? []).filter(\.isToMany).compactMap { relationship -> (String, String)? in
                if let join = relationship.joinTable {
                    let (mine, theirs) = join.isOwner ? ("owner", "member") : ("member", "owner")
                    let position = join.isOwner ? "position" : "inverse_position"
                    return (relationship.name, list(quoted(theirs), from: join.name, where: mine, orderBy: position))
                }
                guard relationship.storage == "inverse", let inverse = relationship.inverse,
                    let table = recorded.table(of: relationship.destination)
                else { return nil }
                return (
                    relationship.name,
                    list(
                        quoted(StoreTables.key), from: table, where: inverse,
                        orderBy: Schema.Relationship.positionColumn(of: inverse))
                )
            }
        }
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A string as a JSON string literal.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

extension StoreValue {
    /// The value in JSON: numbers and booleans as they are, data as Base64, dates in ISO 8601 (to the millisecond),
    /// JSON as it is.
    var json: String {
        switch self {
        case .null: "null"
        case .bool, .int64, .uint64: text
        case .double(let value): value.isFinite ? "\(value)" : "null"
        case .decimal(let value): value.isNaN ? "null" : value.description
        case .json(let value): value
        default: jsonString(text)
        }
    }

    /// The value as text, for CSV: empty for `nil`.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .int64(let value): String(value)
        case .uint64(let value): String(value)
        case .double(let value): "\(value)"
        case .decimal(let value): value.description
        case .string(let value): value
        case .data(let value): value.base64EncodedString()
        case .date(let value): Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(value)
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .json(let value): value
        }
    }
}
