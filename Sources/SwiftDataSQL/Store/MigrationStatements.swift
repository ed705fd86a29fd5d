import SwiftDataCore

/// The steps of a migration that every SQL database writes alike. What a database changes its own way stays with
/// its store (SQLite rebuilds a table to change its columns; PostgreSQL alters them in place and checks what
/// depends on them).
package enum MigrationStatements {
    /// The statements that change a table's join tables as a migration says: each made, moved or dropped.
    package static func joinTables(of migration: EntityMigration, dialect: some SQLDialect) -> [String] {
        migration.joinTables.flatMap { change in
            switch change {
            case .create(let name): SchemaStatements.createJoinTable(name, dialect: dialect)
            case .rename(let old, let new, let reversed):
                moveJoinTable(from: old, to: new, reversed: reversed, dialect: dialect)
            case .drop(let name): [dropTable(name, dialect: dialect)]
            }
        }
    }

    /// Drops a table, if there is one.
    package static func dropTable(_ name: String, dialect: some SQLDialect) -> String {
        "DROP TABLE IF EXISTS \(dialect.quote(name))"
    }

    /// Drops an index (`ifExists`: if there is one).
    package static func dropIndex(_ name: String, ifExists: Bool = false, dialect: some SQLDialect) -> String {
        "DROP INDEX \(ifExists ? "IF EXISTS " : "")\(dialect.quote(name))"
    }

    /// Renames a column of a table.
    package static func renameColumn(
        of table: String, _ column: String, to name: String, dialect: some SQLDialect
    ) -> String {
        "ALTER TABLE \(dialect.quote(table)) RENAME COLUMN \(dialect.quote(column)) TO \(dialect.quote(name))"
    }

    /// Adds a column of `type` that accepts `NULL` to a table.
    package static func addColumn(_ name: String, type: String, to table: String, dialect: some SQLDialect) -> String {
        "ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(name)) \(type)"
    }

    /// Moves a join table's rows to a table of a new name, made with its key and index as a new store makes them (a
    /// renamed table would keep its old index names, which a later table of that name needs), swapping the owner and
    /// member sides when `reversed`. A table that keeps its name is copied aside first.
    package static func moveJoinTable(from old: String, to new: String, reversed: Bool, dialect: some SQLDialect)
        -> [String]
    {
        let source = dialect.quote(old == new ? "\(old)__moving" : old)
        let columns = ["owner", "member", "position", "inverse_position"].map(dialect.quote)
        let sources = reversed ? [columns[1], columns[0], columns[3], columns[2]] : columns
        let aside =
            old == new
            ? [
                "CREATE TEMP TABLE \(source) AS SELECT * FROM \(dialect.quote(old))",
                "DROP TABLE \(dialect.quote(old))",
            ] : []
        return aside + SchemaStatements.createJoinTable(new, dialect: dialect) + [
            "INSERT INTO \(dialect.quote(new)) (\(columns.joined(separator: ", "))) "
                + "SELECT \(sources.joined(separator: ", ")) FROM \(source)",
            "DROP TABLE \(source)",
        ]
    }
}
