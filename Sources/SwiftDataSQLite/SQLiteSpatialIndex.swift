import Foundation
import SwiftDataCore
import SwiftDataSQL

/// `.rtree` indexes (`#Index<Place>(.rtree([\.latitude, \.longitude]))`), kept in SQLite's R*Tree module.
///
/// Each index is a virtual table `<Entity>_rtree_<columns>` (named as `Schema.indexName` says) of (`id`, then `<column>_min`, `<column>_max` per
/// column), with one box per row of the entity: a point, or an infinite range where the row has no value (NULL,
/// or NaN). Triggers on the entity's table keep it in step with every insert, update and delete, in the same
/// transaction. A fetch whose predicate bounds indexed columns (`$0.latitude >= 45 && $0.latitude <= 46 && ...`,
/// at the top level of the predicate) selects its candidates through the index: `_pk IN (SELECT id FROM <index>
/// WHERE ...)`. R*Tree keeps 32-bit floats, rounded outward, so the candidates are a superset of the rows, and the
/// predicate itself decides.
enum SQLiteSpatialIndex {
    /// The virtual table of an index: `<Entity>_rtree_<columns>`, or with `_` in a name each part after its length
    /// (see `Schema.indexName`).
    static func table(of entity: String, _ columns: [String]) -> String {
        Schema.indexName(.rtree, of: entity, columns)
    }

    /// The names stores made by earlier versions gave an index's virtual table, when they differ from its name.
    static func earlierTables(of entity: String, _ columns: [String]) -> [String] {
        Schema.earlierIndexNames(.rtree, table: entity, columns)
    }

    /// The tables of the `.rtree` indexes of a table (`entity`, a table's entity): each index's virtual table, and
    /// the `_node`, `_parent` and `_rowid` tables SQLite makes for it (see `Schema.checkStoreNames`).
    static func storeObjects(of entity: Schema.Entity) -> [Schema.StoreObject] {
        entity.spatialIndices.flatMap { columns in
            let name = table(of: entity.name, columns)
            let index = "\(entity.name)'s .rtree index on [\(columns.joined(separator: ", "))]"
            return ["", "_node", "_parent", "_rowid"].map { suffix in
                Schema.StoreObject(
                    name + suffix, .table, suffix.isEmpty ? "the table of \(index)" : "the \(suffix) table of \(index)",
                    model: entity.name, property: columns.first,
                    remedy: "rename the model \(entity.name) or a property of that .rtree index")
            }
        }
    }

    /// Creates the entity's indexes, fills them from its rows and installs the triggers that keep them current.
    static func createStatements(_ entity: Schema.Entity) -> [String] {
        let dialect = SQLiteDialect()
        let base = dialect.quote(entity.name)
        let key = dialect.quote(SQLiteStore.keyColumn)
        return entity.spatialIndices.flatMap { columns -> [String] in
            let name = table(of: entity.name, columns)
            let index = dialect.quote(name)
            let definition = columns.flatMap { [dialect.quote("\($0)_min"), dialect.quote("\($0)_max")] }
            func box(_ row: String) -> String {
                columns.map { column in
                    let value = "\(row)\(dialect.quote(column))"
                    return "coalesce(\(value), -9e999), coalesce(\(value), 9e999)"
                }.joined(separator: ", ")
            }
            return [
                "CREATE VIRTUAL TABLE \(index) USING rtree(\"id\", \(definition.joined(separator: ", ")))",
                "INSERT INTO \(index) SELECT \(key), \(box("")) FROM \(base)",
                """
                CREATE TRIGGER \(dialect.quote("\(name)_insert")) AFTER INSERT ON \(base) BEGIN \
                INSERT INTO \(index) VALUES (new.\(key), \(box("new."))); END
                """,
                """
                CREATE TRIGGER \(dialect.quote("\(name)_update")) AFTER UPDATE OF \
                \(columns.map(dialect.quote).joined(separator: ", ")) ON \(base) BEGIN \
                DELETE FROM \(index) WHERE "id" = old.\(key); \
                INSERT INTO \(index) VALUES (new.\(key), \(box("new."))); END
                """,
                """
                CREATE TRIGGER \(dialect.quote("\(name)_delete")) AFTER DELETE ON \(base) BEGIN \
                DELETE FROM \(index) WHERE "id" = old.\(key); END
                """,
            ]
        }
    }

    /// Drops the indexes of a table, with their triggers, before its indexes are created again: those `columns`
    /// lists (the indexes the store records for it, and those of its models, each a list of columns). Objects are
    /// dropped by their exact names: matching a prefix with `LIKE` would ignore case and reach the indexes of a
    /// model whose name begins with this one's and `_rtree_`.
    /// An index is dropped under its name and the names earlier versions gave it (see `earlierTables(of:_:)`).
    static func drop(of entity: String, _ columns: [[String]], in database: SQLiteDatabase) throws {
        let dialect = SQLiteDialect()
        for name in Set(columns.flatMap { [table(of: entity, $0)] + earlierTables(of: entity, $0) }).sorted() {
            for trigger in ["insert", "update", "delete"] {
                try database.executeScript("DROP TRIGGER IF EXISTS \(dialect.quote("\(name)_\(trigger)"))")
            }
            try database.executeScript("DROP TABLE IF EXISTS \(dialect.quote(name))")
        }
    }

    /// Makes again the indexes of the tables in `entities` that the store lacks under their names (`tables`, the
    /// store's tables): a store made by an earlier version may keep an index, of a model or a column whose name holds
    /// an `_`, under an earlier name. Returns whether it made any.
    @discardableResult
    static func repair(_ entities: [Schema.Entity], tables: Set<String>, in database: SQLiteDatabase) throws -> Bool {
        var repaired = false
        for entity in entities where !missing(entity, tables: tables).isEmpty {
            try drop(of: entity.name, entity.spatialIndices, in: database)
            for statement in createStatements(entity) { try database.executeScript(statement) }
            repaired = true
        }
        return repaired
    }

    /// The indexes of a table (`entity`, a table's entity) whose virtual tables are not among `tables`.
    static func missing(_ entity: Schema.Entity, tables: Set<String>) -> [[String]] {
        entity.spatialIndices.filter { !tables.contains(table(of: entity.name, $0)) }
    }

    /// The virtual tables a read-only store holds for its models' indexes under other names than `table(of:_:)`
    /// gives them, by that name: a name earlier versions gave it (`earlierTables(of:_:)`, the first of those tables
    /// with the index's columns), or `nil` when the store has no such table. A store that can save makes them again
    /// under their names when it opens (see `repair`); a read-only one cannot, and fetches through the earlier
    /// table, or without an index: the predicate decides either way, so no row is missed. A migration stage's store,
    /// which the migration renames them under afterwards, uses them the same way, without a warning (`warns` false).
    static func readOnlyTables(_ schema: Schema, in database: SQLiteDatabase, warns: Bool = true) throws
        -> [String: String?]
    {
        let entities = schema.entities.filter { $0.superentity == nil }.map(\.tableEntity)
        let indexes = entities.flatMap { entity in entity.spatialIndices.map { (entity.name, $0) } }
        guard indexes.contains(where: { !earlierTables(of: $0, $1).isEmpty }) else { return [:] }
        let tables = Set(
            try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
                if case .text(let name) = $0.first { return name } else { return nil }
            })
        var found: [String: String?] = [:]
        for (entity, columns) in indexes where !tables.contains(table(of: entity, columns)) {
            let name = table(of: entity, columns)
            let wanted = ["id"] + columns.flatMap { ["\($0)_min", "\($0)_max"] }
            var earlier: String?
            for candidate in earlierTables(of: entity, columns) where earlier == nil && tables.contains(candidate) {
                var candidateColumns: [String] = []
                for row in try database.rows("SELECT name FROM pragma_table_info(?)", [.string(candidate)]) {
                    if case .text(let column) = row.first { candidateColumns.append(column) }
                }
                if candidateColumns == wanted { earlier = candidate }
            }
            let index = "\(entity).(\(columns.joined(separator: ", ")))"
            found[name] = .some(earlier)
            guard warns else { continue }
            if let earlier {
                Log.warningOnce(
                    "the read-only store holds the .rtree index of \(index) under its older name \(earlier), and "
                        + "fetches use it; nothing is lost (open the store with allowsSave: true once to rename it)")
            } else {
                Log.warningOnce(
                    "the read-only store has no .rtree index of \(index), so fetches bounding it read the table "
                        + "without it; nothing is lost (open the store with allowsSave: true once to make it)")
            }
        }
        return found
    }

    /// The condition that selects, through the entity's indexes, the candidates of a predicate that bounds indexed
    /// columns; `nil` when it bounds none. `tables` names the index tables a read-only store holds under other names,
    /// or lacks (see `readOnlyTables`).
    static func filter<T: PersistentModel>(
        for predicate: Predicate<T>, entity: Schema.Entity, tables: [String: String?] = [:]
    ) -> SQLExpression? {
        // A subentity's table is its hierarchy's, with the indexes of every entity above it too.
        let indices =
            entity.isInHierarchy ? entity.selfAndAncestors.flatMap(\.spatialIndices) : entity.spatialIndices
        guard !indices.isEmpty else { return nil }
        var bounds = SpatialBounds(entity: entity, variable: predicate.variable.key)
        bounds.add(predicate.expression)
        let filters = indices.compactMap { columns -> SQLExpression? in
            let alias = "_spatial"
            let conditions = columns.flatMap { column -> [SQLExpression] in
                let range = bounds.ranges[column]
                let minimum = SQLExpression.qualifiedColumn(table: alias, column: "\(column)_min")
                let maximum = SQLExpression.qualifiedColumn(table: alias, column: "\(column)_max")
                return [
                    range?.lower.map { .binary(maximum, .greaterOrEqual, .bind(.double($0), .real)) },
                    range?.upper.map { .binary(minimum, .lessOrEqual, .bind(.double($0), .real)) },
                ].compactMap { $0 }
            }
            var name = table(of: StoreLayout.table(of: entity), columns)
            if !tables.isEmpty, let substitute = tables[name] {
                guard let substitute else { return nil }
                name = substitute
            }
            guard let first = conditions.first else { return nil }
            let subquery = SQLSubquery(
                result: .qualifiedColumn(table: alias, column: "id"),
                sources: [SQLSource(.table(name), alias: alias)],
                condition: conditions.dropFirst().reduce(first, SQLExpression.and))
            return .inSubquery(.column(SQLiteStore.keyColumn), subquery)
        }
        guard let first = filters.first else { return nil }
        return filters.dropFirst().reduce(first, SQLExpression.and)
    }
}

/// The ranges a predicate's top-level conjunction puts on the fetched model's numeric attributes.
struct SpatialBounds {
    let entity: Schema.Entity
    let variable: PredicateExpressions.VariableID
    /// By column: a lower and an upper bound, each widened by one step of `Double` so that converting the
    /// compared value cannot narrow it.
    var ranges: [String: (lower: Double?, upper: Double?)] = [:]

    init(entity: Schema.Entity, variable: PredicateExpressions.VariableID) {
        self.entity = entity
        self.variable = variable
    }

    /// Adds the bounds of `expression` if it is a comparison or a conjunction of them.
    mutating func add(_ expression: Any) {
        (expression as? any SpatialBoundsExpression)?.addBounds(to: &self)
    }

    /// Records `column <op> value` (or `value <op> column` when `flipped`).
    mutating func add(_ column: String, _ op: PredicateExpressions.ComparisonOperator?, _ value: Double) {
        var range = ranges[column] ?? (nil, nil)
        switch op {
        case .greaterThan?, .greaterThanOrEqual?: range.lower = max(range.lower ?? -.infinity, value.nextDown)
        case .lessThan?, .lessThanOrEqual?: range.upper = min(range.upper ?? .infinity, value.nextUp)
        case nil:
            range.lower = max(range.lower ?? -.infinity, value.nextDown)
            range.upper = min(range.upper ?? .infinity, value.nextUp)
        }
        ranges[column] = range
    }

    /// The column of a key path of the fetched model, if it is an indexed attribute.
    func column(_ term: Any) -> String? {
        guard let keyPath = term as? any PredicateKeyPathTerm, keyPath.variableKey == variable,
            let index = entity.propertyIndex(for: keyPath.anyKeyPath), let attribute = entity.attribute(at: index),
            entity.spatialIndices.contains(where: { $0.contains(attribute.name) })
        else { return nil }
        return attribute.name
    }

    /// The number a constant stands for in the store: a number, or a date's seconds since 2001.
    static func number(_ term: Any) -> Double? {
        guard let value = (term as? any SpatialValueTerm)?.anyValue else { return nil }
        switch value {
        case let value as any BinaryInteger: return Double(value)
        case let value as any BinaryFloatingPoint: return Double(value)
        case let value as Date: return value.timeIntervalSinceReferenceDate
        default: return nil
        }
    }
}

/// A predicate node that can bound columns.
protocol SpatialBoundsExpression {
    func addBounds(to bounds: inout SpatialBounds)
}

/// A constant.
protocol SpatialValueTerm {
    var anyValue: Any { get }
}

extension PredicateExpressions.Value: SpatialValueTerm {
    var anyValue: Any { value }
}

extension PredicateExpressions.Conjunction: SpatialBoundsExpression {
    func addBounds(to bounds: inout SpatialBounds) {
        bounds.add(lhs)
        bounds.add(rhs)
    }
}

extension PredicateExpressions.Comparison: SpatialBoundsExpression {
    func addBounds(to bounds: inout SpatialBounds) {
        if let column = bounds.column(lhs), let value = SpatialBounds.number(rhs) {
            bounds.add(column, op, value)
        } else if let column = bounds.column(rhs), let value = SpatialBounds.number(lhs) {
            let flipped: PredicateExpressions.ComparisonOperator =
                switch op {
                case .lessThan: .greaterThan
                case .lessThanOrEqual: .greaterThanOrEqual
                case .greaterThan: .lessThan
                case .greaterThanOrEqual: .lessThanOrEqual
                }
            bounds.add(column, flipped, value)
        }
    }
}

extension PredicateExpressions.Equal: SpatialBoundsExpression {
    func addBounds(to bounds: inout SpatialBounds) {
        if let column = bounds.column(lhs), let value = SpatialBounds.number(rhs) {
            bounds.add(column, nil, value)
        } else if let column = bounds.column(rhs), let value = SpatialBounds.number(lhs) {
            bounds.add(column, nil, value)
        }
    }
}
