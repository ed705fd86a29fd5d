import SwiftDataCore

extension SQLiteDialect: SQLAggregateDialect {
    /// The aggregate function the SQLite store registers for an exact sum of `Decimal` text.
    package static let decimalSum = "swiftdata_decimal_sum"

    /// SQLite's own `count`, `sum` (which fails on integer overflow), `avg`, `min` and `max` (which compare by their
    /// argument's collation), and `swiftdata_decimal_sum` for `Decimal` text.
    package func renderAggregate(
        _ function: AggregateTerm.Function, of argument: SQLExpression?, kind: SQLValueKind,
        into generator: inout SQLGenerator
    ) {
        let name = function == .sum && kind == .decimal ? SQLiteDialect.decimalSum : function.sqlName
        generator.renderAggregate(name, argument)
    }
}
