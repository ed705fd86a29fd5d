import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The writes of one save's transaction. Rows of the same shape go through one prepared statement, sent in a
/// pipeline (`executeBatch`), so a save of many rows waits for the server once per chunk of rows, not per row.
struct PostgresTransaction: RowStoreTransaction {
    let store: PostgresRowStore
    let connection: PostgresConnection
    /// The save lock, which the transaction takes before its first read that decides what it writes (see "Saves" in
    /// `PostgresRowStore`), unless it holds it already.
    let lock: PostgresSaveLock?
    /// Where the rows the transaction inserts are noted (for a save whose outcome may turn out unknown).
    let inserted: PostgresRowStore.InsertedRows?
    /// The rows that earlier saves of the context, which lost their connection at the `COMMIT` but committed, wrote
    /// for models: inserting such a model again first deletes them, so that it is stored once.
    let replacing: [ObjectIdentifier: [PostgresRowStore.LostInsert]]
    private var dialect: PostgreSQLDialect { store.dialect }

    init(
        store: PostgresRowStore, connection: PostgresConnection, lock: PostgresSaveLock? = nil,
        inserted: PostgresRowStore.InsertedRows? = nil,
        replacing: [ObjectIdentifier: [PostgresRowStore.LostInsert]] = [:]
    ) {
        self.store = store
        self.connection = connection
        self.lock = lock
        self.inserted = inserted
        self.replacing = replacing
    }

    /// Runs `body`, reporting PostgreSQL's errors as the framework's, naming the entity.
    private func mapped<Result>(_ entity: Schema.Entity, _ body: () throws -> Result) throws -> Result {
        try PostgresRowStore.mapErrors(model: entity.name, body)
    }

    /// Takes the save lock before a read whose answer decides what the save writes, unless the transaction holds it.
    func lockSaves() throws {
        try lock?.take(on: connection)
    }

    /// Runs `statement` after taking the save lock, in the same round trip when the transaction does not hold it
    /// yet: a read whose answer decides what the save writes, or a write that must follow such a read.
    @discardableResult
    func lockedQuery(_ statement: PostgresStatement, _ values: [PostgresValue]) throws -> PostgresResult {
        guard let lock, let pending = lock.pending else { return try connection.query(statement, values) }
        let results = try connection.pipeline([.sql(pending), .statement(statement, values)])
        try lock.took(results.first)
        return results[1]
    }

    func allocateKeys(count: Int, entity: Schema.Entity) throws -> Int64 {
        // Keys are per table: a hierarchy's entities share theirs.
        try mapped(entity) {
            let sql = """
                INSERT INTO \(PostgresRowStore.sequenceTable) AS s (entity, last_key) VALUES ($1, $2) \
                ON CONFLICT (entity) DO UPDATE SET last_key = s.last_key + excluded.last_key RETURNING last_key
                """
            let values: [PostgresValue] = [.text(StoreLayout.table(of: entity)), .int8(Int64(count))]
            // New models of an entity with unique constraints are looked up next (Core's upsert): the lock goes with
            // their keys.
            let result =
                store.hasUniqueConstraints(entity)
                ? try lockedQuery(connection.cachedStatement(sql, values.map(\.type)), values)
                : try connection.preparedQuery(sql, values)
            guard let last = try result.int64(0, 0) else {
                throw SwiftDataError.storeError.with(reason: "no key was allocated", model: entity.name)
            }
            return last - Int64(count) + 1
        }
    }

    func insert(_ rows: [RowWrite], entity: Schema.Entity) throws {
        inserted?.batches.append((entity.name, rows))
        if !replacing.isEmpty {
            let earlier = rows.flatMap { row in row.model.map { replacing[ObjectIdentifier($0)] ?? [] } ?? [] }
            for (name, lost) in Dictionary(grouping: earlier, by: \.entity) {
                let lostEntity = store.schema.entitiesByName[name] ?? entity
                try delete(keys: lost.map(\.key), entity: lostEntity)
            }
        }
        try write(rows, entity: entity, isInsert: true) { RowStatements.insert($0, entity: entity, dialect: dialect) }
    }

    /// Updates each entity's rows in the order of their tables' names, whatever order Core gives them in (the order
    /// its models changed): two saves that change rows of the same entities then lock them in the same order, one
    /// waiting for the other rather than deadlocking with it (each entity's rows go in key order, see below).
    func update(batches: Zip2Sequence<[Schema.Entity], [[RowWrite]]>) throws {
        func write(_ entity: Schema.Entity, _ rows: [RowWrite]) throws {
            store.willUpdate?(connection, entity.name)
            try update(rows, entity: entity)
        }
        // Mostly one entity, or already in order: then no sorted copy is made.
        var previous: String?
        for (entity, _) in batches {
            let table = StoreLayout.table(of: entity)
            if let previous, previous > table {
                for (entity, rows) in batches.sorted(by: { StoreLayout.table(of: $0.0) < StoreLayout.table(of: $1.0) })
                {
                    try write(entity, rows)
                }
                return
            }
            previous = table
        }
        for (entity, rows) in batches { try write(entity, rows) }
    }

    func update(_ rows: [RowWrite], entity: Schema.Entity) throws {
        // In key order, so that two saves of the same rows lock them in the same order rather than deadlock.
        // (The sort is stable: writes of one row keep their order.)
        guard zip(rows, rows.dropFirst()).allSatisfy({ $0.key <= $1.key }) else {
            return try update(rows.sorted { $0.key < $1.key }, entity: entity)
        }
        // A changed value of a unique constraint could come between another save's upsert lookup and its write.
        if lock?.pending != nil {
            let constrained = store.constrainedAttributes(of: entity)
            if rows.contains(where: { $0.attributes.contains { $0 < constrained.count && constrained[$0] } }) {
                try lockSaves()
            }
        }
        let external = entity.orderedAttributes.filter(\.isExternal)
        for row in rows where row.model != nil {
            let replaced = external.filter { row.attributes.contains($0.index) }
            if !replaced.isEmpty { try deleteExternalData(of: [row.key], entity: entity, attributes: replaced) }
        }
        try write(rows.filter { !$0.attributes.isEmpty || !$0.references.isEmpty }, entity: entity, isInsert: false) {
            RowStatements.update($0, entity: entity, dialect: dialect)
        }
    }

    /// Writes rows, the key as `$1` and then what `RowStatements` placed; consecutive rows of one shape go in one
    /// pipelined batch of one prepared statement, after the external data they refer to.
    private func write(
        _ rows: [RowWrite], entity: Schema.Entity, isInsert: Bool, sql: (RowWrite) -> RowWriteStatement
    ) throws {
        let converted = store.convertedAttributes(of: entity)
        let writer = PostgresRowWriter()
        var index = rows.startIndex
        while index < rows.endIndex {
            let shape = RowShape(rows[index])
            var end = index + 1
            // Rows mostly come alike: each is compared with the shape, without making a shape of its own.
            while end < rows.endIndex, shape.matches(rows[end]) { end += 1 }
            let (text, types) = store.writeStatement(WriteShape(entity: entity.name, isInsert: isInsert, row: shape)) {
                let statement = sql(rows[index])
                return (statement.sql, statement.parameterTypes.map(PostgresType.init))
            }
            var batch: [[PostgresValue]] = []
            batch.reserveCapacity(end - index)
            for row in rows[index..<end] {
                writer.reset(count: types.count)
                try writer.bind(row.key, 1)
                try bind(row, entity: entity, converted: converted, to: writer)
                batch.append(writer.takeValues())
            }
            try mapped(entity) {
                try writeExternalData(writer.takeExternalData())
                let statement = try connection.cachedStatement(text, types)
                try connection.executeBatch(statement, batch)
            }
            index = end
        }
    }

    /// Inserts externally stored values into the external data table.
    private func writeExternalData(_ values: [(reference: String, data: Data)]) throws {
        guard !values.isEmpty else { return }
        let statement = try connection.cachedStatement(
            "INSERT INTO \(PostgresRowStore.externalTable) (id, data) VALUES ($1, $2)", [.text, .bytea])
        try connection.executeBatch(statement, values.map { [.text($0.reference), .bytea($0.data)] })
    }

    /// Deletes the external data the given rows refer to in `attributes` (all external attributes when `nil`).
    private func deleteExternalData(of keys: [Int64], entity: Schema.Entity, attributes: [Schema.Attribute]? = nil)
        throws
    {
        // Without a list, the rows may be of subentities, whose own attributes count too.
        let subentityAttributes =
            attributes != nil
            ? []
            : entity.selfAndDescendants.dropFirst().flatMap {
                $0.storedProperties.compactMap { $0 as? Schema.Attribute }
            }
        let attributes = attributes ?? (entity.orderedAttributes + subentityAttributes).filter(\.isExternal)
        guard !attributes.isEmpty else { return }
        let statements = try mapped(entity) {
            try attributes.map { attribute in
                try keyedStatement(
                    "DELETE FROM \(PostgresRowStore.externalTable) WHERE id IN ("
                        + RowStatements.externalReferences(attribute.name, of: entity, keys: 0, dialect: dialect) + ")")
            }
        }
        try mapped(entity) { try runKeyed(statements, keys: keys) }
    }

    /// A statement whose `$1` is a `bigint[]` of keys (and whose other parameters have `types`), prepared once per
    /// connection: its text is the same whatever the keys.
    private func keyedStatement(_ sql: String, _ types: [PostgresType] = []) throws -> PostgresStatement {
        try connection.cachedStatement(sql, [.int8Array] + types)
    }

    /// Runs each of `statements` (made by `keyedStatement`) for each chunk of at most 10,000 `keys`, then `values`
    /// as its other parameters; calls `result` with each statement's index and result. Each reads or deletes rows
    /// as it finds them, so the save lock comes first (see `lockedQuery`).
    private func runKeyed(
        _ statements: [PostgresStatement], keys: [Int64], _ values: [PostgresValue] = [],
        result: (Int, PostgresResult) throws -> Void = { _, _ in }
    ) throws {
        guard !statements.isEmpty else { return }
        for chunk in keys.keyChunks {
            let parameters = [PostgresValue.int8Array(Array(chunk))] + values
            for (index, statement) in statements.enumerated() {
                try result(index, try lockedQuery(statement, parameters))
            }
        }
    }

    func setMembers(_ members: [Int64], of owner: Int64, relationship: Schema.Relationship) throws {
        guard let join = JoinColumns(relationship, dialect: dialect) else { return }
        let table = dialect.quote(join.table)
        // The join rows to delete are those the statement finds: the save lock comes first.
        try PostgresRowStore.mapErrors {
            if members.isEmpty {
                try lockedQuery(
                    connection.cachedStatement(
                        RelationshipStatements.deleteJoinRows(join, owners: 1, dialect: dialect), [.int8Array]),
                    [.int8Array([owner])])
                return
            }
            try lockedQuery(
                try connection.cachedStatement(
                    "DELETE FROM \(table) WHERE \(join.owner) = $1 AND \(join.member) <> ALL($2)", [.int8, .int8Array]),
                [.int8(owner), .int8Array(members)])
            let statement = try connection.cachedStatement(
                RelationshipStatements.upsertMember(join, dialect: dialect), [.int8, .int8, .int8])
            try connection.executeBatch(
                statement, members.enumerated().map { [.int8(owner), .int8($0.element), .int8(Int64($0.offset))] })
        }
    }

    func related(_ relationship: Schema.Relationship, owners: [Int64]) throws -> [(owner: Int64, member: Int64)] {
        guard
            let sql = RelationshipStatements.pairs(relationship, owners: 0, schema: store.schema, dialect: dialect)
        else { return [] }
        var pairs: [(owner: Int64, member: Int64)] = []
        try PostgresRowStore.mapErrors {
            try runKeyed([keyedStatement(sql)], keys: owners) { _, result in
                for row in 0..<result.rowCount {
                    if let owner = try result.int64(row, 0), let member = try result.int64(row, 1) {
                        pairs.append((owner, member))
                    }
                }
            }
        }
        return pairs
    }

    func clearReferences(_ relationship: Schema.Relationship, to destinations: [Int64]) throws -> [Int64] {
        guard
            let sql = RelationshipStatements.clearing(
                relationship, destinations: 0, schema: store.schema, dialect: dialect, returning: true)
        else { return [] }
        var sources: [Int64] = []
        try PostgresRowStore.mapErrors {
            try runKeyed([keyedStatement(sql)], keys: destinations) { _, result in sources += try keys(result) }
        }
        return sources
    }

    func delete(keys: [Int64], entity: Schema.Entity) throws {
        guard !keys.isEmpty else { return }
        try deleteExternalData(of: keys, entity: entity)
        try mapped(entity) {
            var statements = [try keyedStatement(RowStatements.delete(entity, keys: 0, dialect: dialect))]
            // The keys may be of subentities' rows, whose own relationships have join rows too.
            for relationship in entity.relationshipsOfSelfAndDescendants {
                guard let join = JoinColumns(relationship, dialect: dialect) else { continue }
                statements.append(
                    try keyedStatement(RelationshipStatements.deleteJoinRows(join, owners: 0, dialect: dialect)))
            }
            try runKeyed(statements, keys: keys)
        }
    }

    func existingKey(in entity: Schema.Entity, matching values: [(property: Int, value: StoreValue)]) throws -> Int64? {
        guard !values.contains(where: { $0.value == .null }),
            let sql = Self.existingKeyQuery(in: entity, properties: values.map(\.property), store: store)
        else { return nil }
        try lockSaves()
        // A subentity's constraint spans its rows only: their entity names follow the values.
        let names = StoreLayout.entityNames(selectedBy: entity) ?? []
        return try mapped(entity) {
            let result = try connection.preparedQuery(
                sql, values.map { PostgresValue(storing: $0.value) } + names.map { PostgresValue.text($0) })
            return result.rowCount == 0 ? nil : try result.int64(0, 0)
        }
    }

    /// One query per chunk of candidates (see `UniqueStatements.existingKeys`). Its text depends on the number of
    /// candidates, so it is not kept prepared.
    func existingKeys(in entity: Schema.Entity, properties: [Int], candidates: [[StoreValue]]) throws -> [Int64?] {
        var keys = [Int64?](repeating: nil, count: candidates.count)
        let lookups = candidates.indices.filter {
            !candidates[$0].contains(.null) && candidates[$0].count == properties.count
        }
        let names = (StoreLayout.entityNames(selectedBy: entity) ?? []).map { PostgresValue.text($0) }
        if !lookups.isEmpty { try lockSaves() }
        try mapped(entity) {
            for chunk in lookups.chunked(by: 1_000) {
                guard
                    let sql = UniqueStatements.existingKeys(
                        in: entity, properties: properties, candidates: chunk.count, dialect: dialect,
                        compare: Self.compare)
                else { return }
                var parameters: [PostgresValue] = []
                parameters.reserveCapacity(chunk.count * (properties.count + 1) + names.count)
                for index in chunk {
                    parameters.append(.int8(Int64(index)))
                    parameters += candidates[index].map(PostgresValue.init(storing:))
                }
                let result = try connection.query(sql, parameters + names)
                for row in 0..<result.rowCount {
                    guard let index = try result.int64(row, 0).map(Int.init), keys.indices.contains(index),
                        keys[index] == nil
                    else { continue }
                    keys[index] = try result.int64(row, 1)
                }
            }
        }
        return keys
    }

    /// The query of `existingKey` (see `UniqueStatements.existingKey`); `nil` when a property has no column.
    static func existingKeyQuery(in entity: Schema.Entity, properties: [Int], store: PostgresRowStore) -> String? {
        UniqueStatements.existingKey(in: entity, properties: properties, dialect: store.dialect, compare: compare)
    }

    /// A unique constraint's column compared with a value as its unique index holds it: a string as
    /// `normalize(x, NFC) COLLATE "C"`, so that the lookup is one probe of that index whatever the database's default
    /// collation (equality means the same in every deterministic collation).
    private static func compare(_ column: String, _ value: String, _ attribute: Schema.Attribute?) -> String {
        guard PostgresSchemaSQL.comparesAsString(attribute) else { return "\(column) = \(value)" }
        return "normalize(\(column), NFC) COLLATE \"C\" = normalize(\(value), NFC) COLLATE \"C\""
    }

    /// One `UPDATE ... RETURNING` (see `BatchUpdateStatements`).
    func updateAll<T: PersistentModel>(_ request: FetchRequest<T>, values: [(property: Int, value: StoreValue)]) throws
        -> [Int64]
    {
        let condition = request.keys == nil ? store.plan(request).condition : nil
        try lockSaves()
        return try mapped(request.entity) {
            try BatchUpdateStatements.statements(request, condition: condition, values: values, dialect: dialect)
                .flatMap { try keys(store.run($0, on: connection)) }
        }
    }

    // MARK: Helpers

    private func keys(_ result: PostgresResult) throws -> [Int64] {
        try (0..<result.rowCount).compactMap { try result.int64($0, 0) }
    }

    /// Binds what `RowStatements` placed, from `$2` on. `converted` is `entity.convertedAttributes()`: those attributes
    /// bind through Core's conversion, the others through the model's generated code.
    private func bind(_ row: RowWrite, entity: Schema.Entity, converted: [Bool], to writer: PostgresRowWriter) throws {
        var parameter: Int32 = 2
        for index in row.attributes {
            do {
                if index < converted.count, converted[index], let attribute = entity.attribute(at: index) {
                    try RowWrite.bindConverted(attribute, of: row.model, into: writer, parameter: parameter)
                } else {
                    try row.model?._$store(index, into: writer, parameter: parameter)
                }
            } catch {
                throw RowWrite.naming(error, entity: entity, property: index)
            }
            parameter += 1
        }
        for reference in row.references {
            try writer.bind(reference.key.map(StoreValue.int64) ?? .null, parameter)
            parameter += 1
            guard reference.relationship.positionColumn != nil else { continue }
            switch reference.position {
            case .index(let index)?: try writer.bind(Int64(index), parameter)
            case .last?: try writer.bind(reference.key.map(StoreValue.int64) ?? .null, parameter)
            case nil: try writer.bindNull(parameter)
            }
            parameter += 1
        }
    }
}
