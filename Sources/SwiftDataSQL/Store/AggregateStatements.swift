import SwiftDataCore

/// How a dialect writes the aggregate functions of an `AggregateQuery` with Swift's semantics (see
/// `AggregateStatements`).
package protocol SQLAggregateDialect: SQLDialect {
    /// Writes `function` over `argument` (`nil`: a count of the rows), whose values are of `kind`: a minimum's or
    /// maximum's argument is already the value's ordering key (collated), a sum's and average's a number. A sum of
    /// integers is an integer (an SQL error when it overflows 64 bits), an average a `Double`, a `Decimal` sum exact.
    func renderAggregate(
        _ function: AggregateTerm.Function, of argument: SQLExpression?, kind: SQLValueKind,
        into generator: inout SQLGenerator)
}

/// The one statement that computes an `AggregateQuery` over the rows a request selects, in every SQL store:
///
/// ```sql
/// SELECT _g0, _a0 FROM (
///     SELECT _g0, sum(_v0) AS _a0 FROM (
///         SELECT key AS _g0, attribute AS _v0 FROM table WHERE condition [ORDER BY ... LIMIT ... OFFSET ...]
///     ) AS _rows GROUP BY _g0
/// ) AS _groups WHERE having ORDER BY orderings, _g0
/// ```
///
/// The innermost select reads the values (through to-one relationships as the sort translator reads them), and
/// windows the rows when the request has a limit or an offset; the databases flatten it otherwise. Without groups,
/// the outer select is left out and the statement yields one row.
package enum AggregateStatements {
    /// The statement of `query` over the rows of `request`, whose predicate and sort the store's `translate`
    /// translates; `nil` when SQL cannot compute all of it (a request for keys, a predicate or a window's sort left to
    /// memory, or an aggregate SQL cannot compute with Swift's semantics, reported once), and the context computes it
    /// from models.
    package static func statement<T: PersistentModel>(
        _ request: FetchRequest<T>, query: AggregateQuery, schema: Schema, dialect: some SQLAggregateDialect,
        translate: (FetchRequest<T>) -> SelectPlan
    ) -> SQLStatement? {
        guard request.keys == nil, !query.terms.isEmpty || !query.groups.isEmpty else { return nil }
        let translation = translate(request)
        let windowed = request.fetchLimit != nil || request.fetchOffset != nil
        guard translation.coverage.predicate, !windowed || translation.coverage.sort else { return nil }
        do {
            var builder = Builder(
                translator: PredicateTranslator(
                    entity: request.entity, schema: schema, storeIdentifier: nil, dialect: dialect),
                dialect: dialect)
            return try builder.statement(request, translation: translation, query: query, windowed: windowed)
        } catch {
            Log.warningOnce("aggregates of \(request.entity.name) are computed in memory: \(error)")
            return nil
        }
    }

    /// Why SQL cannot compute `function` over values of `kind` as Swift does, or `nil` when it can.
    static func reasonUnsupported(_ function: AggregateTerm.Function, kind: SQLValueKind) -> String? {
        switch (function, kind) {
        case (.count, _), (.sum, .integer), (.sum, .double), (.sum, .float), (.sum, .decimal), (.average, .integer),
            (.average, .double), (.average, .float), (.minimum, .integer), (.minimum, .double), (.minimum, .float),
            (.minimum, .decimal), (.minimum, .string), (.minimum, .date), (.maximum, .integer), (.maximum, .double),
            (.maximum, .float), (.maximum, .decimal), (.maximum, .string), (.maximum, .date):
            nil
        default: "the \(function.rawValue) of \(kind) values has no SQL translation"
        }
    }

    /// Writes one statement.
    private struct Builder<Dialect: SQLAggregateDialect> {
        let translator: PredicateTranslator
        let dialect: Dialect
        /// The aggregated values the innermost select reads, by key path, with their column names.
        var values: [(keyPath: AnyKeyPath, term: SQLTerm, column: String)] = []

        mutating func statement<T: PersistentModel>(
            _ request: FetchRequest<T>, translation: SelectPlan, query: AggregateQuery, windowed: Bool
        ) throws -> SQLStatement {
            let groups = try query.groups.map { try SortTranslator.sortedValue($0, translator: translator).0 }
            let terms = query.allTerms
            let groupNames = groups.indices.map { "_g\($0)" }
            let termNames = terms.indices.map { "_a\($0)" }
            let results = try zip(terms, termNames).map { try result(of: $0, column: $1) }

            var sql = SQLGenerator(dialect: dialect)
            let grouped = !groups.isEmpty || query.condition != nil || !query.orderings.isEmpty
            if grouped {
                sql.write("SELECT ")
                write(groupNames + termNames.prefix(query.terms.count), into: &sql)
                sql.write(" FROM (")
            }
            sql.write("SELECT ")
            write(groupNames, into: &sql)
            for (index, term) in terms.enumerated() {
                if index > 0 || !groups.isEmpty { sql.write(", ") }
                let argument = try term.keyPath.map { try value($0) }
                let kind = argument?.term.kind ?? .integer(min: 0, max: 0)
                let column = argument.map { SQLTerm(expression: .column($0.column), type: $0.term.type) }
                let collated = try column.map {
                    term.function == .minimum || term.function == .maximum
                        ? try translator.orderingKey($0) : $0.expression
                }
                dialect.renderAggregate(term.function, of: collated, kind: kind, into: &sql)
                sql.write(" AS ")
                sql.writeIdentifier(termNames[index])
            }
            sql.write(" FROM (SELECT ")
            let columns =
                Array(zip(groups.map(\.expression), groupNames)) + values.map { ($0.term.expression, $0.column) }
            if columns.isEmpty { sql.writeIdentifier(StoreLayout.keyColumn) }
            for (index, (expression, name)) in columns.enumerated() {
                if index > 0 { sql.write(", ") }
                sql.render(expression)
                sql.write(" AS ")
                sql.writeIdentifier(name)
            }
            sql.write(" FROM ")
            sql.writeIdentifier(StoreLayout.table(of: request.entity))
            if let condition = StoreLayout.condition(request, translation.condition) {
                sql.write(" WHERE ")
                sql.render(condition)
            }
            if windowed {
                sql.write(" ORDER BY ")
                sql.render(
                    (translation.orderings ?? []) + [SQLOrdering(.column(StoreLayout.keyColumn), descending: false)])
                dialect.renderWindow(
                    limit: request.fetchLimit.map { max($0, 0) }, offset: request.fetchOffset.map { max($0, 0) },
                    into: &sql)
            }
            sql.write(") AS ")
            sql.writeIdentifier("_rows")
            if !groups.isEmpty {
                sql.write(" GROUP BY ")
                write(groupNames, into: &sql)
            }
            guard grouped else { return sql.statement }
            sql.write(") AS ")
            sql.writeIdentifier("_groups")
            if let condition = query.condition {
                sql.write(" WHERE ")
                sql.render(try self.condition(condition, terms: terms, results: results))
            }
            let byTerm = try query.orderings.map { ordering in
                switch ordering.target {
                case .group(let index):
                    SQLOrdering(
                        try groupOrderingKey(groups[index], column: groupNames[index]),
                        descending: ordering.descending, isNullable: true)
                case .term(let term):
                    SQLOrdering(
                        try translator.orderingKey(results[terms.firstIndex(of: term) ?? 0]),
                        descending: ordering.descending, isNullable: true)
                }
            }
            let byKey = try zip(groups, groupNames).map {
                SQLOrdering(try groupOrderingKey($0, column: $1), descending: false, isNullable: true)
            }
            if !(byTerm + byKey).isEmpty {
                sql.write(" ORDER BY ")
                sql.render(byTerm + byKey)
            }
            return sql.statement
        }

        /// Writes quoted names, separated by commas.
        private func write(_ names: [String], into sql: inout SQLGenerator) {
            for (index, name) in names.enumerated() {
                if index > 0 { sql.write(", ") }
                sql.writeIdentifier(name)
            }
        }

        /// The value of an aggregated key path, read once by the innermost select.
        private mutating func value(_ keyPath: AnyKeyPath) throws -> (term: SQLTerm, column: String) {
            if let read = values.first(where: { $0.keyPath == keyPath }) { return (read.term, read.column) }
            let term = try SortTranslator.sortedValue(keyPath, translator: translator).0
            values.append((keyPath, term, "_v\(values.count)"))
            return (term, "_v\(values.count - 1)")
        }

        /// A term's result, in the column `name`, as a value of its Swift type (after checking that SQL computes it).
        private mutating func result(of term: AggregateTerm, column name: String) throws -> SQLTerm {
            let column = SQLExpression.column(name)
            guard let keyPath = term.keyPath else { return SQLTerm(expression: column, type: Int64.self) }
            let value = try value(keyPath).term
            let kind = value.kind.comparable
            if let reason = AggregateStatements.reasonUnsupported(term.function, kind: kind) {
                throw SQLTranslationError(reason: reason)
            }
            switch term.function {
            case .count: return SQLTerm(expression: column, type: Int64.self)
            case .average: return SQLTerm(expression: column, type: Double?.self)
            case .sum, .minimum, .maximum: return SQLTerm(expression: column, type: value.type)
            }
        }

        /// The `WHERE` of the groups: each comparison false, not `NULL`, for a `NULL` aggregate, so that `!` keeps
        /// such groups as Swift's negation of `false` does.
        private func condition(_ condition: AggregateCondition, terms: [AggregateTerm], results: [SQLTerm]) throws
            -> SQLExpression
        {
            switch condition {
            case .compare(let term, let comparison, let value):
                let result = results[terms.firstIndex(of: term) ?? 0]
                let bound = SQLTerm(
                    expression: .bind(value, SQLType(storing: value.type ?? .int64)), type: result.type)
                let compared = SQLExpression.binary(
                    try translator.orderingKey(result), Self.sqlOperator(comparison), try translator.orderingKey(bound))
                return .coalesce([compared, .false])
            case .and(let lhs, let rhs):
                return .and(
                    try self.condition(lhs, terms: terms, results: results),
                    try self.condition(rhs, terms: terms, results: results))
            case .or(let lhs, let rhs):
                return .or(
                    try self.condition(lhs, terms: terms, results: results),
                    try self.condition(rhs, terms: terms, results: results))
            case .not(let operand):
                return .not(try self.condition(operand, terms: terms, results: results))
            }
        }

        private static func sqlOperator(_ comparison: AggregateCondition.Comparison) -> SQLBinaryOperator {
            switch comparison {
            case .equal: .equal
            case .notEqual: .notEqual
            case .less: .less
            case .lessOrEqual: .lessOrEqual
            case .greater: .greater
            case .greaterOrEqual: .greaterOrEqual
            }
        }

        /// The ordering key of a group key's column, in the order its stored values have in Swift (an enum's raw
        /// value's, `false` before `true`, bytes lexicographically).
        private func groupOrderingKey(_ group: SQLTerm, column: String) throws -> SQLExpression {
            var term = SQLTerm(expression: .column(column), type: group.type)
            term.kind = group.kind.comparable
            switch term.kind {
            case .bool, .data, .uuid: return term.expression
            case .url: return try translator.collated(term.expression, .string)
            default: return try translator.orderingKey(term)
            }
        }
    }
}

extension AggregateTerm.Function {
    /// The standard SQL aggregate function of this name.
    package var sqlName: String {
        switch self {
        case .count: "count"
        case .sum: "sum"
        case .average: "avg"
        case .minimum: "min"
        case .maximum: "max"
        }
    }
}

extension SQLGenerator {
    /// Writes `name(argument)`, or `name(*)` without an argument.
    package mutating func renderAggregate(_ name: String, _ argument: SQLExpression?) {
        write(name + "(")
        if let argument { render(argument) } else { write("*") }
        write(")")
    }
}
