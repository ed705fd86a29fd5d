/// Writes the SQL of expressions, subqueries and selects into a statement: what is the same in every dialect here,
/// the rest through the dialect. Values become parameters, never text.
package struct SQLGenerator {
    /// The dialect that decides how dialect-specific nodes are written.
    package let dialect: any SQLDialect
    /// The statement written so far.
    package private(set) var statement: SQLStatement

    package init(dialect: any SQLDialect, statement: SQLStatement = SQLStatement()) {
        self.dialect = dialect
        self.statement = statement
        // A fetch's SQL is a few hundred bytes: one allocation instead of one per doubling.
        self.statement.sql.reserveCapacity(statement.sql.utf8.count + 256)
    }

    /// The statement of a top-level select in a dialect.
    package static func statement(of select: SQLSelect, in dialect: any SQLDialect) -> SQLStatement {
        var generator = SQLGenerator(dialect: dialect)
        generator.render(select)
        return generator.statement
    }

    /// Appends SQL text.
    package mutating func write(_ sql: String) {
        statement.sql += sql
    }

    /// Appends a parameter and its placeholder.
    package mutating func bind(_ binding: SQLBinding) {
        statement.append(binding)
        statement.sql += dialect.placeholder(statement.parameters.count, type: binding.type)
    }

    /// Appends a parameter whose placeholder the caller writes.
    package mutating func appendParameter(_ binding: SQLBinding) {
        statement.append(binding)
    }

    /// Appends a quoted identifier.
    package mutating func writeIdentifier(_ name: String) {
        statement.sql += dialect.quote(name)
    }

    /// Appends an expression.
    package mutating func render(_ expression: SQLExpression) {
        switch expression {
        case .column(let name):
            writeIdentifier(name)
        case .qualifiedColumn(let table, let column):
            statement.sql += dialect.quote(table) + "." + dialect.quote(column)
        case .value(let binding):
            bind(binding)
        case .null:
            write("NULL")
        case .boolean(let value):
            write(dialect.boolean(value))
        case .integer(let value):
            write(String(value))
        case .unary(let op, let operand):
            write(op == .not ? "NOT (" : "- (")
            render(operand)
            write(")")
        case .binary(let lhs, let op, let rhs):
            renderBinary(lhs, op, rhs)
        case .inList(let operand, let elements):
            write("(")
            renderComparisonOperand(operand)
            write(" IN (")
            for (index, element) in elements.enumerated() {
                if index > 0 { write(", ") }
                render(rightOperand(element, comparedWith: operand))
            }
            write("))")
        case .inSubquery(let operand, let subquery):
            write("(")
            renderComparisonOperand(operand)
            write(" IN (")
            render(subquery)
            write("))")
        case .collate(let operand, let comparison):
            let dialect = self.dialect
            dialect.renderCollated(operand, comparison, into: &self)
        case .coalesce(let arguments):
            write("coalesce")
            renderList(arguments)
        case .countRows:
            write("count(*)")
        case .call(let function, let arguments):
            let dialect = self.dialect
            dialect.renderCall(function, arguments, into: &self)
        case .jsonValue(let document, let path, let type):
            let dialect = self.dialect
            dialect.renderJSONValue(document, path: path, type: type, into: &self)
        case .jsonArrayLength(let document, let path):
            let dialect = self.dialect
            dialect.renderJSONArrayLength(document, path: path, into: &self)
        case .jsonArrayElements(let document, let path):
            let dialect = self.dialect
            dialect.renderJSONArrayElements(document, path: path, alias: nil, into: &self)
        case .jsonElement(let alias, let type):
            let dialect = self.dialect
            dialect.renderJSONElement(alias: alias, type: type, into: &self)
        case .cases(let branches, let otherwise):
            write("CASE")
            for branch in branches {
                write(" WHEN ")
                render(branch.condition)
                write(" THEN ")
                render(branch.result)
            }
            write(" ELSE ")
            render(otherwise)
            write(" END")
        case .table(let name):
            writeIdentifier(name)
        case .subquery(let subquery):
            write("(")
            render(subquery)
            write(")")
        case .exists(let subquery):
            write("EXISTS (")
            var selectsTrue = subquery
            selectsTrue.result = .true
            render(selectsTrue)
            write(")")
        case .search(let key, let column, let index, let needle):
            let dialect = self.dialect
            dialect.renderSearch(key: key, column: column, index: index, needle: needle, into: &self)
        }
    }

    /// `(lhs op rhs)`; `IS NULL` for null-safe comparisons with `NULL`.
    private mutating func renderBinary(_ lhs: SQLExpression, _ op: SQLBinaryOperator, _ rhs: SQLExpression) {
        write("(")
        if op.isComparison { renderComparisonOperand(lhs) } else { render(lhs) }
        if rhs == .null, op == .identical || op == .notIdentical {
            write(op == .identical ? " IS NULL)" : " IS NOT NULL)")
            return
        }
        switch op {
        case .equal: write(" = ")
        case .notEqual: write(" <> ")
        case .less: write(" < ")
        case .lessOrEqual: write(" <= ")
        case .greater: write(" > ")
        case .greaterOrEqual: write(" >= ")
        case .identical: write(" \(dialect.nullSafeEquality(negated: false)) ")
        case .notIdentical: write(" \(dialect.nullSafeEquality(negated: true)) ")
        case .and: write(" AND ")
        case .or: write(" OR ")
        case .add: write(" + ")
        case .subtract: write(" - ")
        case .multiply: write(" * ")
        }
        if op.isComparison { renderComparisonOperand(rightOperand(rhs, comparedWith: lhs)) } else { render(rhs) }
        write(")")
    }

    /// An operand of a comparison; `NOT`, which binds less tightly than comparisons, in parentheses.
    private mutating func renderComparisonOperand(_ operand: SQLExpression) {
        guard case .unary(.not, _) = operand else { return render(operand) }
        write("(")
        render(operand)
        write(")")
    }

    /// The right operand of a comparison as written: without its collation when the left operand's, the same,
    /// governs the comparison (see `SQLDialect.collatesByLeftOperand`).
    private func rightOperand(_ rhs: SQLExpression, comparedWith lhs: SQLExpression) -> SQLExpression {
        guard dialect.collatesByLeftOperand, case .collate(_, let comparison) = lhs,
            case .collate(let operand, comparison) = rhs
        else { return rhs }
        return operand
    }

    /// `(a, b, ...)`.
    package mutating func renderList(_ elements: [SQLExpression]) {
        write("(")
        for (index, element) in elements.enumerated() {
            if index > 0 { write(", ") }
            render(element)
        }
        write(")")
    }

    /// Appends a subquery's `SELECT` (without parentheses).
    package mutating func render(_ subquery: SQLSubquery) {
        let dialect = self.dialect
        write("SELECT ")
        render(subquery.result)
        for (index, source) in subquery.sources.enumerated() {
            write(index == 0 ? " FROM " : " JOIN ")
            if case .jsonArrayElements(let document, let path) = source.source {
                dialect.renderJSONArrayElements(document, path: path, alias: source.alias, into: &self)
            } else {
                render(source.source)
                write(" AS ")
                writeIdentifier(source.alias)
            }
            if let join = source.on {
                write(" ON ")
                render(join)
            }
        }
        if let condition = subquery.condition {
            write(" WHERE ")
            render(condition)
        }
        if !subquery.orderings.isEmpty {
            write(" ORDER BY ")
            render(subquery.orderings)
        }
        if let limit = subquery.limit { write(" LIMIT \(limit)") }
    }

    /// Appends `ORDER BY` terms (without the keywords).
    package mutating func render(_ orderings: [SQLOrdering]) {
        for (index, ordering) in orderings.enumerated() {
            if index > 0 { write(", ") }
            render(ordering.expression)
            if ordering.descending { write(" DESC") }
            if ordering.isNullable { write(dialect.nullsOrdering(descending: ordering.descending)) }
        }
    }

    /// Appends a top-level select.
    package mutating func render(_ select: SQLSelect) {
        let dialect = self.dialect
        write(select.countsRows ? "SELECT count(*)" : "SELECT ")
        for (index, column) in select.columns.enumerated() {
            if index > 0 { write(", ") }
            writeIdentifier(column)
        }
        write(" FROM ")
        writeIdentifier(select.table)
        if let condition = select.condition {
            write(" WHERE ")
            render(condition)
        }
        if !select.orderings.isEmpty {
            write(" ORDER BY ")
            render(select.orderings)
        }
        dialect.renderWindow(limit: select.limit, offset: select.offset, into: &self)
    }
}
