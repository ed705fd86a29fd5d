import SwiftDataCore

extension PostgreSQLDialect: SQLAggregateDialect {
    /// PostgreSQL's own aggregates, with Swift's result types: a sum of integers (a `numeric`) cast back to `bigint`,
    /// which fails when it overflows; an average of integers as their exact sum in `double precision` divided by
    /// their count (as Swift divides, where `avg` would round a `numeric` first); `numeric` sums exact.
    package func renderAggregate(
        _ function: AggregateTerm.Function, of argument: SQLExpression?, kind: SQLValueKind,
        into generator: inout SQLGenerator
    ) {
        switch (function, kind) {
        case (.sum, .integer):
            generator.write("CAST(")
            generator.renderAggregate("sum", argument)
            generator.write(" AS bigint)")
        case (.average, .integer):
            generator.write("CAST(")
            generator.renderAggregate("sum", argument)
            generator.write(" AS double precision) / ")
            generator.renderAggregate("count", argument)
        default:
            generator.renderAggregate(function.sqlName, argument)
        }
    }
}
