import SwiftDataCore

/// The side of a migration an SQL store implements: what `SchemaMigrationTarget` asks, with the questions every
/// SQL store asks alike written here; the store runs the count queries (`count(_:)`) and keeps its DDL.
package protocol SQLMigrationTarget: SchemaMigrationTarget {
    associatedtype Dialect: SQLDialect
    /// The store's dialect.
    var dialect: Dialect { get }
    /// The number a `count(*)` query returns.
    func count(_ sql: String) throws -> Int64
}

extension SQLMigrationTarget {
    package func rowCount(of table: String) throws -> Int64 {
        try count(SchemaStatements.rowCount(of: table, dialect: dialect))
    }

    package func rowCount(of table: String, entities: [String]) throws -> Int64 {
        try count(SchemaStatements.rowCount(of: table, entities: entities, dialect: dialect))
    }

    package func nilCount(of table: String, column: String) throws -> Int64 {
        try count(SchemaStatements.nilCount(of: table, column: column, dialect: dialect))
    }
}
