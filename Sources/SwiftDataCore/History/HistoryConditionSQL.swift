import Foundation

/// Writes a `HistoryCondition` as SQL over a store's history table, whose columns are `number`, `timestamp`
/// (seconds since 2001), `author`, `bundle` and `process`: what both SQL stores share. Each store says how its SQL
/// spells the few things that differ (`HistoryConditionSQL.Syntax`) and how a value becomes a parameter.
package struct HistoryConditionSQL {
    /// How a store's SQL spells what differs between stores.
    package struct Syntax: Sendable {
        /// The constants `true` and `false`.
        package var constants: (true: String, false: String)
        /// A test that `column` is (or, when the flag is false, is not) the value of `placeholder`, `NULL` included.
        package var isEqual: @Sendable (_ column: String, _ placeholder: String, _ isEqual: Bool) -> String
        /// A list of numbers as one parameter's value.
        package var numberList: @Sendable ([Int64]) -> StoreValue
        /// A test that `number` is one of the list the placeholder holds.
        package var numberIn: @Sendable (_ placeholder: String) -> String

        package init(
            constants: (true: String, false: String),
            isEqual: @escaping @Sendable (String, String, Bool) -> String,
            numberList: @escaping @Sendable ([Int64]) -> StoreValue,
            numberIn: @escaping @Sendable (String) -> String
        ) {
            self.constants = constants
            self.isEqual = isEqual
            self.numberList = numberList
            self.numberIn = numberIn
        }
    }

    /// The SQL of `condition`; `parameter` takes each value in the order the SQL uses it and returns its
    /// placeholder.
    package static func render(
        _ condition: HistoryCondition, _ syntax: Syntax, parameter: (StoreValue) -> String
    ) -> String {
        func render(_ condition: HistoryCondition) -> String {
            switch condition {
            case .constant(let value):
                return value ? syntax.constants.true : syntax.constants.false
            case .and(let lhs, let rhs):
                let left = render(lhs)
                return "(\(left) AND \(render(rhs)))"
            case .or(let lhs, let rhs):
                let left = render(lhs)
                return "(\(left) OR \(render(rhs)))"
            case .not(let condition):
                return "NOT \(render(condition))"
            case .number(let comparison, let value):
                return "number \(comparison.sql) \(parameter(.int64(value)))"
            case .numbers(let values):
                return syntax.numberIn(parameter(syntax.numberList(values)))
            case .timestamp(let comparison, let date):
                return "timestamp \(comparison.sql) \(parameter(.double(date.timeIntervalSinceReferenceDate)))"
            case .text(let field, let isEqual, let value):
                let column =
                    switch field {
                    case .author: "author"
                    case .bundleIdentifier: "bundle"
                    case .processIdentifier: "process"
                    }
                return syntax.isEqual(column, parameter(value.map { .string($0) } ?? .null), isEqual)
            }
        }
        return render(condition)
    }
}

extension HistoryComparison {
    /// The SQL operator.
    var sql: String {
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
