import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The writes of one `BEGIN IMMEDIATE ... COMMIT` transaction. Statements are prepared once and reused for
/// every row.
struct SQLiteTransaction: DataStoreTransaction {
    let store: SQLiteStore
    let database: SQLiteDatabase
    private var dialect: SQLiteDialect { store.dialect }

    init(store: SQLiteStore, database: SQLiteDatabase) {
        self.store = store
        self.database = database
    }

    func insert(_ models: [any PersistentModel], entity: Schema.Entity) throws -> [Int64] {
        guard !models.isEmpty else { return [] }
        let first = try allocateKeys(count: models.count, entity: entity)
        let attributes = entity.orderedAttributes
        let columns = ([SQLiteStore.keyColumn] + attributes.map(\.name)).map(dialect.quote)
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(dialect.quote(entity.name)) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
        let statement = try database.statement(sql)
        defer { statement.reset() }
        var keys: [Int64] = []
        keys.reserveCapacity(models.count)
        for (offset, model) in models.enumerated() {
            let key = first + Int64(offset)
            try statement.bind(key, 1)
            for (position, attribute) in attributes.enumerated() {
                try bindValue(of: model, attribute: attribute, to: statement, parameter: Int32(position + 2), entity: entity)
            }
            try run(statement, entity: entity)
            statement.rewind()
            keys.append(key)
        }
        return keys
    }

    func update(_ model: any PersistentModel, entity: Schema.Entity, properties: PropertyMask) throws {
        let attributes = entity.orderedAttributes.filter { properties.contains($0.index) }
        guard !attributes.isEmpty else { return }
        let assignments = attributes.map { "\(dialect.quote($0.name)) = ?" }.joined(separator: ", ")
        let sql = "UPDATE \(dialect.quote(entity.name)) SET \(assignments) WHERE \(dialect.quote(SQLiteStore.keyColumn)) = ?"
        let statement = try database.statement(sql)
        defer { statement.reset() }
        for (position, attribute) in attributes.enumerated() {
            try bindValue(of: model, attribute: attribute, to: statement, parameter: Int32(position + 1), entity: entity)
        }
        try statement.bind(model._$persistentState.key, Int32(attributes.count + 1))
        try run(statement, entity: entity)
    }

    func delete(keys: [Int64], entity: Schema.Entity) throws {
        guard !keys.isEmpty else { return }
        let sql = "DELETE FROM \(dialect.quote(entity.name)) WHERE \(dialect.quote(SQLiteStore.keyColumn)) = ?"
        let statement = try database.statement(sql)
        defer { statement.reset() }
        for key in keys {
            try statement.bind(key, 1)
            try run(statement, entity: entity)
            statement.rewind()
        }
    }

    /// The keys of the rows the request selects. When SQL cannot express its whole predicate, each candidate
    /// row becomes a detached model that the predicate is evaluated on (a request here has no sort or window).
    func fetchKeys<T: PersistentModel>(_ request: FetchRequest<T>) throws -> [Int64] {
        var request = request
        let predicate = store.coverage(of: request).predicate ? nil : request.predicate
        if predicate != nil { request.properties = request.entity.orderedAttributes.map(\.index) }
        var keys: [Int64] = []
        for select in try store.selectStatements(request) {
            let statement = try database.statement(select.sql)
            defer { statement.reset() }
            try statement.bind(select.parameters)
            while try SQLiteStore.step(statement, entity: request.entity) {
                if let predicate {
                    let model = T(backingData: DefaultBackingData(for: T.self))
                    for (column, property) in request.properties.enumerated() {
                        try model._$load(property, from: statement, column: Int32(column + 1))
                    }
                    guard try predicate.evaluate(model) else { continue }
                }
                keys.append(statement.int64(0))
            }
        }
        return keys
    }

    /// Reserves `count` new keys for the entity and returns the first. Keys are never reused, even after
    /// the rows that had them are deleted.
    private func allocateKeys(count: Int, entity: Schema.Entity) throws -> Int64 {
        let sequence = try database.rows(
            "SELECT last_key FROM \(SQLiteStore.sequenceTable) WHERE entity = ?", [.text(entity.name)])
        let highest = try database.rows(
            "SELECT max(\(dialect.quote(SQLiteStore.keyColumn))) FROM \(dialect.quote(entity.name))")
        var last: Int64 = 0
        if case .integer(let value) = sequence.first?.first { last = value }
        if case .integer(let value) = highest.first?.first { last = max(last, value) }
        try database.execute(
            "INSERT OR REPLACE INTO \(SQLiteStore.sequenceTable) (entity, last_key) VALUES (?, ?)",
            [.text(entity.name), .integer(last + Int64(count))])
        return last + 1
    }

    private func bindValue(
        of model: any PersistentModel, attribute: Schema.Attribute, to statement: SQLiteStatement, parameter: Int32,
        entity: Schema.Entity
    ) throws {
        do {
            try model._$store(attribute.index, into: statement, parameter: parameter)
        } catch let error as SwiftDataError {
            throw error.with(model: entity.name, property: attribute.name)
        }
    }

    private func run(_ statement: SQLiteStatement, entity: Schema.Entity) throws {
        do {
            try statement.run()
        } catch let error as SwiftDataError {
            throw error.with(model: entity.name)
        }
    }
}
