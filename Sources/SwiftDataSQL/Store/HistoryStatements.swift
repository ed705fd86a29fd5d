import Foundation
import SwiftDataCore

/// The statements of an SQL store's history: one row per saved transaction in `_swiftdata_history`, whose columns
/// are `number` (its token), `timestamp` (seconds since 2001), `author`, `bundle`, `process` and `changes` (one
/// blob, see `HistoryPayload`); and how a `HistoryCondition`, Core's meaning of a history predicate, is written.
package enum HistoryStatements {
    /// The history table.
    package static let table = "_swiftdata_history"
    /// The metadata key of the highest transaction number ever deleted: fetches after an earlier one would miss
    /// transactions.
    package static let deletedKey = "history_deleted_through"
    /// The columns a history fetch reads, in order.
    package static let columns = "number, timestamp, author, bundle, process, changes"

    /// Creates the history table when it does not exist, numbered by the database.
    package static func definition(_ dialect: some SQLDialect) -> String {
        let text = dialect.typeName(.text)
        return """
            CREATE TABLE IF NOT EXISTS \(table) (\(dialect.identityColumn("number")), \
            timestamp \(dialect.typeName(.real)) NOT NULL, author \(text), bundle \(text) NOT NULL, \
            process \(text) NOT NULL, changes \(dialect.typeName(.blob)) NOT NULL)
            """
    }

    /// Records a transaction (parameters: timestamp, author, bundle, process, changes), returning its number when
    /// `returning`.
    package static func record(_ dialect: some SQLDialect, returning: Bool = false) -> String {
        var parameters = StatementParameters(dialect)
        let values = [
            parameters.next(.real), parameters.next(.text), parameters.next(.text), parameters.next(.text),
            parameters.next(.blob),
        ]
        return "INSERT INTO \(table) (timestamp, author, bundle, process, changes) "
            + "VALUES (\(values.joined(separator: ", ")))" + (returning ? " RETURNING number" : "")
    }

    /// The fetch of `request`'s transactions, its parameters from number `first` on. `filter` is a condition of the
    /// store's own that every row must meet as well, if any.
    package static func select(
        _ request: HistoryRequest, dialect: some SQLDialect, first: Int = 1, filter: String? = nil
    ) -> SQLStatement {
        var parameters = StatementParameters(dialect, first: first)
        var values: [StoreValue] = []
        let conditions = [filter, request.condition.map { condition($0, &parameters, &values) }].compactMap { $0 }
        var sql = "SELECT \(columns) FROM \(table)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY number" + (request.newestFirst ? " DESC" : "")
        if let limit = request.limit {
            sql += " LIMIT " + parameters.next(.integer)
            values.append(.int64(Int64(limit)))
        }
        return SQLStatement(sql: sql, parameters: values, parameterTypes: Array(parameters.types.dropFirst(first - 1)))
    }

    /// The SQL of `condition` on history rows, its values appended to `values` as `parameters` places them.
    package static func condition<Dialect: SQLDialect>(
        _ condition: HistoryCondition, _ parameters: inout StatementParameters<Dialect>, _ values: inout [StoreValue]
    ) -> String {
        let dialect = parameters.dialect
        func parameter(_ value: StoreValue, _ type: SQLType) -> String {
            values.append(value)
            return parameters.next(type)
        }
        switch condition {
        case .constant(let value):
            return dialect.boolean(value)
        case .and(let lhs, let rhs):
            let left = self.condition(lhs, &parameters, &values)
            return "(\(left) AND \(self.condition(rhs, &parameters, &values)))"
        case .or(let lhs, let rhs):
            let left = self.condition(lhs, &parameters, &values)
            return "(\(left) OR \(self.condition(rhs, &parameters, &values)))"
        case .not(let condition):
            return "NOT \(self.condition(condition, &parameters, &values))"
        case .number(let comparison, let value):
            return "number \(comparison.sql) \(parameter(.int64(value), .integer))"
        case .numbers(let numbers):
            values.append(dialect.integerList(numbers))
            let index = parameters.nextIndex
            _ = parameters.next(.text)
            return dialect.integerListCondition("number", parameter: index)
        case .timestamp(let comparison, let date):
            return "timestamp \(comparison.sql) \(parameter(.double(date.timeIntervalSinceReferenceDate), .real))"
        case .text(let field, let isEqual, let value):
            let column =
                switch field {
                case .author: "author"
                case .bundleIdentifier: "bundle"
                case .processIdentifier: "process"
                }
            let placeholder = parameter(value.map { .string($0) } ?? .null, .text)
            return "\(column) \(dialect.nullSafeEquality(negated: !isEqual)) \(placeholder)"
        }
    }
}

extension HistoryComparison {
    /// The SQL operator.
    fileprivate var sql: String {
        switch self {
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .equal: "="
        case .notEqual: "<>"
        }
    }
}
