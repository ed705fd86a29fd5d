import Foundation
import SwiftDataCore

/// `swiftdata check STORE`: whether the store is sound; the exit code says it.
enum CheckCommand {
    static let command = SwiftDataTool.Command(
        name: "check", summary: "Check integrity, references, external data, recorded schema and history.",
        help: """
            OVERVIEW: Check a store: the database's own integrity check (SQLite), that every relationship refers to
            a row that exists, that every externally stored value a row names exists and that none is left over,
            that the tables have what the recorded schema describes, that each entity's key sequence is past its
            highest key, and that the history is consistent. Prints each problem found.

            USAGE: swiftdata check <store>

            EXIT CODES: 0 all is well, 1 problems were found, 2 wrong command line, 3 the store could not be read.

            """, options: [:], positional: 1...1, run: run)

    static func run(_ arguments: ToolArguments, _ output: ToolOutput) throws -> Int32 {
        let store = try StoreOpener.source(arguments.positional[0])
        let problems = try store.reading { try self.problems(in: store) }
        for problem in problems { output.line("problem: \(problem)") }
        output.line(
            problems.isEmpty
                ? "\(store.address): all is well"
                : "\(store.address): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        return problems.isEmpty ? ExitCode.success : ExitCode.problems
    }

    static func problems(in store: any ToolStore) throws -> [String] {
        var problems = try store.integrityProblems()
        let recorded = try RecordedStore(store)
        let tables = try store.tableNames()
        for table in [StoreTables.sequence, StoreTables.history] where !tables.contains(table) {
            problems.append("the store's table \(table) is missing")
        }
        var referenced = Set<String>()
        let key = quoted(StoreTables.key)
        for entity in recorded.schema.entities {
            guard tables.contains(entity.name) else {
                problems.append("the recorded entity \(entity.name) has no table")
                continue
            }
            let columns = Set(try store.columnNames(of: entity.name))
            let relationships = recorded.columnRelationships(of: entity)
            let expected =
                recorded.attributes(of: entity).map(\.name) + relationships.map(\.relationship.name)
                + relationships.compactMap(\.position)
            for column in expected where !columns.contains(column) {
                problems.append("\(entity.name) records the column \(column), which its table lacks")
            }
            for (relationship, _) in relationships where columns.contains(relationship.name) {
                guard let destination = recorded.table(of: relationship.destination), tables.contains(destination)
                else { continue }
                let dangling = try store.count(
                    "SELECT count(*) FROM \(quoted(entity.name)) WHERE \(quoted(relationship.name)) IS NOT NULL AND \(quoted(relationship.name)) NOT IN (SELECT \(key) FROM \(quoted(destination)))"
                )
                if dangling > 0 {
                    problems.append(
                        "\(dangling) row(s) of \(entity.name) refer through \(relationship.name) to \(relationship.destination) rows that do not exist"
                    )
                }
            }
            for attribute in recorded.attributes(of: entity)
            where attribute.isExternal && columns.contains(attribute.name) {
                try store.forEachRow(
                    "SELECT \(quoted(attribute.name)) FROM \(quoted(entity.name)) WHERE \(quoted(attribute.name)) <> ''",
                    types: [.string]
                ) { row in
                    if case .string(let reference) = row[0] { referenced.insert(reference) }
                }
            }
            if tables.contains(StoreTables.sequence) {
                let highest = try store.count("SELECT coalesce(max(\(key)), 0) FROM \(quoted(entity.name))")
                var last: Int64 = 0
                try store.forEachRow(
                    "SELECT last_key FROM \(StoreTables.sequence) WHERE entity = '\(entity.name.replacingOccurrences(of: "'", with: "''"))'",
                    types: [.int64]
                ) { row in if case .int64(let value) = row[0] { last = value } }
                if highest > last {
                    problems.append(
                        "\(entity.name)'s key sequence is at \(last), below its highest key \(highest): new rows would take keys in use"
                    )
                }
            }
        }
        for join in recorded.joinTables {
            guard tables.contains(join.table) else {
                problems.append("the join table \(join.table) of \(join.owner).\(join.relationship.name) is missing")
                continue
            }
            for (column, entity) in [("owner", join.owner), ("member", join.relationship.destination)] {
                guard let table = recorded.table(of: entity), tables.contains(table) else { continue }
                let dangling = try store.count(
                    "SELECT count(*) FROM \(quoted(join.table)) WHERE \(quoted(column)) NOT IN (SELECT \(key) FROM \(quoted(table)))"
                )
                if dangling > 0 {
                    problems.append("\(dangling) row(s) of \(join.table) name \(entity) rows that do not exist")
                }
            }
        }
        let external = Set(try store.externalValues().map(\.reference))
        let missing = referenced.subtracting(external)
        if !missing.isEmpty {
            problems.append(
                "\(missing.count) externally stored value(s) that rows name are missing: \(missing.sorted().prefix(3).joined(separator: ", "))"
            )
        }
        let orphaned = external.subtracting(referenced)
        if !orphaned.isEmpty {
            problems.append(
                "\(orphaned.count) externally stored value(s) no row names: \(orphaned.sorted().prefix(3).joined(separator: ", "))"
            )
        }
        if tables.contains(StoreTables.history) {
            let bad = try store.count(
                "SELECT count(*) FROM \(StoreTables.history) WHERE number <= 0 OR bundle IS NULL OR process IS NULL")
            if bad > 0 { problems.append("\(bad) history row(s) have no valid number, bundle or process") }
            if let deleted = recorded.metadata["history_deleted_through"].flatMap(Int64.init) {
                let early = try store.count(
                    "SELECT count(*) FROM \(StoreTables.history) WHERE number <= \(deleted) AND length(changes) > 0")
                if early > 0 {
                    problems.append(
                        "\(early) history transaction(s) are numbered at or below \(deleted), through which history was deleted"
                    )
                }
            }
        }
        return problems
    }
}
