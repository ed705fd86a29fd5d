import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The writes of one `BEGIN IMMEDIATE ... COMMIT` transaction. Statements are prepared once per shape and reused
/// for every row.
struct SQLiteTransaction: RowStoreTransaction {
    let store: SQLiteStore
    let database: SQLiteDatabase
    private var dialect: SQLiteDialect { store.dialect }
    private var keyColumn: String { dialect.quote(SQLiteStore.keyColumn) }

    init(store: SQLiteStore, database: SQLiteDatabase) {
        self.store = store
        self.database = database
    }

    func allocateKeys(count: Int, entity: Schema.Entity) throws -> Int64 {
        // Keys are per table: a hierarchy's entities share theirs.
        let table = StoreLayout.table(of: entity)
        let sequence = try database.rows(
            "SELECT last_key FROM \(SQLiteStore.sequenceTable) WHERE entity = ?", [.string(table)])
        let highest = try database.rows("SELECT max(\(keyColumn)) FROM \(dialect.quote(table))")
        var last: Int64 = 0
        if case .integer(let value) = sequence.first?.first { last = value }
        if case .integer(let value) = highest.first?.first { last = max(last, value) }
        try database.execute(
            "INSERT OR REPLACE INTO \(SQLiteStore.sequenceTable) (entity, last_key) VALUES (?, ?)",
            [.string(table), .int64(last + Int64(count))])
        return last + 1
    }

    func insert(_ rows: [RowWrite], entity: Schema.Entity) throws {
        try write(rows, entity: entity, isInsert: true, converted: store.convertedAttributes(of: entity)) { row in
            let statement = RowStatements.insert(row, entity: entity, dialect: dialect)
            return (statement.sql, statement.keyFirst)
        }
    }

    func update(_ rows: [RowWrite], entity: Schema.Entity) throws {
        let converted = store.convertedAttributes(of: entity)
        // An externally stored attribute is a converted one: an entity without converted attributes (most) is not
        // searched for one.
        if store.external != nil, converted.contains(true), entity.orderedAttributes.contains(where: \.isExternal) {
            for row in rows where row.model != nil {
                try replaceFiles(of: [row.key], entity: entity, attributes: row.attributes)
            }
        }
        // Rows with nothing to write have no statement (a copy of the list only when there are any).
        let written =
            rows.contains { $0.attributes.isEmpty && $0.references.isEmpty }
            ? rows.filter { !$0.attributes.isEmpty || !$0.references.isEmpty } : rows
        try write(written, entity: entity, isInsert: false, converted: converted) { row in
            let statement = RowStatements.update(row, entity: entity, dialect: dialect)
            return (statement.sql, statement.keyFirst)
        }
    }

    /// Runs one statement per row; consecutive rows of the same shape reuse the prepared statement. A shape's
    /// statement text is written by `sql` once per store (`SQLiteStore.writeStatement`). `converted` is
    /// `SQLiteStore.convertedAttributes(of: entity)`.
    private func write(
        _ rows: [RowWrite], entity: Schema.Entity, isInsert: Bool, converted: [Bool],
        sql: (RowWrite) -> (String, keyFirst: Bool)
    ) throws {
        guard !rows.isEmpty else { return }
        var shape: RowShape?
        var statement: SQLiteStatement?
        var keyFirst = false
        // The key SQLite gives the next row it numbers itself (the table's highest key plus one) while that is known:
        // after a row inserted under its own key. A row with that key binds NULL for it, and SQLite numbers it without
        // first looking the key up (about 320 instructions a row); when SQLite numbers it otherwise, it is put right.
        var next: Int64?
        var numbering = isInsert
        defer { statement?.reset() }
        // By index, so that each row's parts are read where they are rather than copied (and retained) first.
        for index in rows.indices {
            let row = rows[index]
            // Rows mostly come alike: compared with the last shape before a shape is made for the row.
            if let current = statement, let shape, shape.matches(attributes: row.attributes, references: row.references)
            {
                current.rewind()
            } else {
                statement?.reset()
                let rowShape = RowShape(row)
                let (prepared, first) = try store.writeStatement(
                    WriteShape(entity: entity.name, isInsert: isInsert, row: rowShape), on: database
                ) { sql(row) }
                statement = prepared
                statement?.externalFiles = store.external
                shape = rowShape
                keyFirst = first
            }
            guard let statement else { continue }
            var parameter: Int32 = 1
            let numbersItself = numbering && keyFirst && row.key == next
            if keyFirst {
                if numbersItself { try statement.bindNull(1) } else { try statement.bind(row.key, 1) }
                parameter = 2
            }
            parameter = try bind(
                row.model, entity: entity, attributes: row.attributes, converted: converted, references: row.references,
                to: statement, from: parameter)
            if !keyFirst { try statement.bind(row.key, parameter) }
            try run(statement, entity: entity)
            guard isInsert && keyFirst else { continue }
            next = row.key == .max ? nil : row.key + 1
            if numbersItself, sqlite3_last_insert_rowid(database.handle) != row.key {
                // A row with a higher key is in the table, so SQLite numbered this one after it: it goes, with what its
                // triggers did, and is inserted again under its own key (its other parameters are still bound).
                try database.execute(
                    RowStatements.delete(entity, dialect: dialect), [.int64(sqlite3_last_insert_rowid(database.handle))]
                )
                statement.rewind()
                try statement.bind(row.key, 1)
                try run(statement, entity: entity)
                numbering = false
            }
        }
    }

    func setMembers(_ members: [Int64], of owner: Int64, relationship: Schema.Relationship) throws {
        guard let join = JoinColumns(relationship, dialect: dialect) else { return }
        let current = try database.rows(RelationshipStatements.members(join, dialect: dialect), [.int64(owner)])
        let kept = Set(members)
        let remove = database.statementKeys(current).filter { !kept.contains($0) }
        for member in remove {
            try database.execute(
                RelationshipStatements.deleteMember(join, dialect: dialect), [.int64(owner), .int64(member)])
        }
        let sql = RelationshipStatements.upsertMember(join, dialect: dialect)
        for (index, member) in members.enumerated() {
            try database.execute(sql, [.int64(owner), .int64(member), .int64(Int64(index)), .int64(member)])
        }
    }

    func related(_ relationship: Schema.Relationship, owners: [Int64]) throws -> [(owner: Int64, member: Int64)] {
        var pairs: [(owner: Int64, member: Int64)] = []
        for chunk in owners.keyChunks {
            guard
                let sql = RelationshipStatements.pairs(
                    relationship, owners: chunk.count, schema: store.schema, dialect: dialect)
            else { continue }
            for row in try database.rows(sql, chunk.map { .int64($0) }) {
                if case .integer(let owner) = row[0], case .integer(let member) = row[1] {
                    pairs.append((owner, member))
                }
            }
        }
        return pairs
    }

    func clearReferences(_ relationship: Schema.Relationship, to destinations: [Int64]) throws -> [Int64] {
        var sources: [Int64] = []
        for chunk in destinations.keyChunks {
            let count = chunk.count
            let schema = store.schema
            guard
                let referencing = RelationshipStatements.referencing(
                    relationship, destinations: count, schema: schema, dialect: dialect),
                let clearing = RelationshipStatements.clearing(
                    relationship, destinations: count, schema: schema, dialect: dialect, returning: false)
            else { continue }
            let values = chunk.map { StoreValue.int64($0) }
            sources += database.statementKeys(try database.rows(referencing, values))
            try database.execute(clearing, values)
        }
        return sources
    }

    func delete(keys: [Int64], entity: Schema.Entity) throws {
        guard !keys.isEmpty else { return }
        try replaceFiles(of: keys, entity: entity)
        let statement = try database.statement(RowStatements.delete(entity, dialect: dialect))
        defer { statement.reset() }
        for key in keys.sorted() {
            try statement.bind(key, 1)
            try run(statement, entity: entity)
            statement.rewind()
        }
        // The keys may be of subentities' rows, whose own relationships have join rows too.
        for relationship in entity.orderedRelationships
            + entity.selfAndDescendants.dropFirst().flatMap(\.ownRelationships)
        {
            guard let join = JoinColumns(relationship, dialect: dialect) else { continue }
            for chunk in keys.keyChunks {
                try database.execute(
                    RelationshipStatements.deleteJoinRows(join, owners: chunk.count, dialect: dialect),
                    chunk.map { .int64($0) })
            }
        }
    }

    func existingKey(in entity: Schema.Entity, matching values: [(property: Int, value: StoreValue)]) throws -> Int64? {
        guard !values.contains(where: { $0.value == .null }),
            let sql = UniqueStatements.existingKey(
                in: entity, properties: values.map(\.property), dialect: dialect, compare: Self.compare)
        else { return nil }
        let names = StoreLayout.entityNames(selectedBy: entity) ?? []
        return database.statementKeys(try database.rows(sql, values.map(\.value) + names.map { .string($0) })).first
    }

    /// One query per chunk of candidates (see `UniqueStatements.existingKeys`).
    func existingKeys(in entity: Schema.Entity, properties: [Int], candidates: [[StoreValue]]) throws -> [Int64?] {
        var keys = [Int64?](repeating: nil, count: candidates.count)
        let names = (StoreLayout.entityNames(selectedBy: entity) ?? []).map { StoreValue.string($0) }
        let lookups = candidates.indices.filter {
            !candidates[$0].contains(.null) && candidates[$0].count == properties.count
        }
        for chunk in lookups.chunked(by: max(1, 900 / (properties.count + 1))) {
            guard
                let sql = UniqueStatements.existingKeys(
                    in: entity, properties: properties, candidates: chunk.count, dialect: dialect, compare: Self.compare
                )
            else { return keys }
            var parameters: [StoreValue] = []
            parameters.reserveCapacity(chunk.count * (properties.count + 1) + names.count)
            for index in chunk { parameters += [.int64(Int64(index))] + candidates[index] }
            for row in try database.rows(sql, parameters + names) {
                guard row.count == 2, case .integer(let index) = row[0], case .integer(let key) = row[1],
                    keys.indices.contains(Int(index)), keys[Int(index)] == nil
                else { continue }
                keys[Int(index)] = key
            }
        }
        return keys
    }

    /// A unique constraint's column compared with a value in the collation its index is built in (see
    /// `SQLiteStore.index`), so that the lookup uses the index and uniqueness follows Swift's `==`.
    private static func compare(_ column: String, _ value: String, _ attribute: Schema.Attribute?) -> String {
        column + (SQLiteStore.collation(of: attribute).map { " COLLATE \($0)" } ?? "") + " = " + value
    }

    /// One `UPDATE` (see `BatchUpdateStatements`). SQLite's `RETURNING` stores every row before it returns them, which
    /// costs about twice the update itself: the keys are gathered through the update hook instead, as SQLite updates
    /// each row of the table.
    func updateAll<T: PersistentModel>(_ request: FetchRequest<T>, values: [(property: Int, value: StoreValue)]) throws
        -> [Int64]
    {
        let condition = request.keys == nil ? store.plan(request).condition : nil
        let updated = UpdatedKeys(table: StoreLayout.table(of: request.entity))
        let context = Unmanaged.passRetained(updated)
        sqlite3_update_hook(
            database.handle,
            { context, operation, _, table, key in
                guard operation == SQLITE_UPDATE, let context, let table else { return }
                let updated = Unmanaged<UpdatedKeys>.fromOpaque(context).takeUnretainedValue()
                if updated.table.withUnsafeBufferPointer({ $0.baseAddress.map { strcmp(table, $0) } }) == 0 {
                    updated.keys.append(key)
                }
            }, context.toOpaque())
        defer {
            sqlite3_update_hook(database.handle, nil, nil)
            context.release()
        }
        for statement in BatchUpdateStatements.statements(
            request, condition: condition, values: values, returning: false, dialect: dialect)
        {
            try database.execute(statement.sql, statement.parameters)
        }
        return updated.keys
    }

    /// The keys of the rows of a table an update changed.
    private final class UpdatedKeys {
        let table: ContiguousArray<CChar>
        var keys: [Int64] = []

        init(table: String) {
            self.table = ContiguousArray(table.utf8CString)
        }
    }

    // MARK: Helpers

    /// Binds what `assignments` placed, from parameter `first` on; returns the next free parameter. `converted` is
    /// `entity.convertedAttributes()`: those attributes bind through Core's conversion, the others through the
    /// model's generated code.
    @discardableResult
    private func bind(
        _ model: (any PersistentModel)?, entity: Schema.Entity, attributes: [Int], converted: [Bool],
        references: [ReferenceWrite], to statement: SQLiteStatement, from first: Int32
    ) throws -> Int32 {
        var parameter = first
        for index in attributes {
            do {
                if index < converted.count, converted[index], let attribute = entity.attribute(at: index) {
                    try RowWrite.bindConverted(attribute, of: model, into: statement, parameter: parameter)
                } else {
                    try model?._$store(index, into: statement, parameter: parameter)
                }
            } catch {
                throw RowWrite.naming(error, entity: entity, property: index)
            }
            parameter += 1
        }
        for reference in references {
            if let key = reference.key { try statement.bind(key, parameter) } else { try statement.bindNull(parameter) }
            parameter += 1
            guard reference.relationship.positionColumn != nil else { continue }
            switch reference.position {
            case .index(let index)?: try statement.bind(Int64(index), parameter)
            case .last?:
                if let key = reference.key {
                    try statement.bind(key, parameter)
                } else {
                    try statement.bindNull(parameter)
                }
            case nil: try statement.bindNull(parameter)
            }
            parameter += 1
        }
        return parameter
    }

    /// Marks the files of externally stored values of the given rows (those listed in `attributes`, or all) as
    /// replaced: they are deleted once the transaction commits.
    private func replaceFiles(of keys: [Int64], entity: Schema.Entity, attributes: [Int]? = nil) throws {
        guard let external = store.external else { return }
        // Without a list, the rows may be of subentities, whose own attributes count too.
        let subentityAttributes =
            attributes == nil
            ? entity.selfAndDescendants.dropFirst().flatMap {
                $0.storedProperties.compactMap { $0 as? Schema.Attribute }
            }
            : []
        let columns = (entity.orderedAttributes + subentityAttributes).filter {
            $0.isExternal && (attributes?.contains($0.index) ?? true)
        }
        guard !columns.isEmpty else { return }
        for chunk in keys.keyChunks {
            for column in columns {
                let rows = try database.rows(
                    RowStatements.externalReferences(column.name, of: entity, keys: chunk.count, dialect: dialect),
                    chunk.map { .int64($0) })
                for case .text(let name)? in rows.map(\.first) where !name.isEmpty { external.replace(name) }
            }
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

extension SQLiteDatabase {
    /// The integers of the first column of rows.
    func statementKeys(_ rows: [[SQLiteValue]]) -> [Int64] {
        rows.compactMap { if case .integer(let key) = $0.first { key } else { nil } }
    }
}
