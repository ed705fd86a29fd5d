import SwiftDataCore

/// The rows of the models that a to-many relationship holds for one owner: the sources and condition of a
/// subquery over them, which tests (`EXISTS`) or counts them. A `filter` adds its test to the condition.
package struct RelatedRows {
    /// The members' entity.
    package var entity: Schema.Entity
    /// The members' model type.
    package var elementType: Any.Type
    /// The alias of the members' table in the subquery.
    package var alias: String
    /// The members' table, joined with the join table for relationships stored in one.
    package var sources: [SQLSource]
    /// Ties the members to their owner, and keeps those that pass the filters applied so far.
    package var condition: SQLExpression

    /// The subquery over the rows that also pass `test`, selecting `result`.
    func subquery(selecting result: SQLExpression = .true, where test: SQLExpression? = nil) -> SQLSubquery {
        SQLSubquery(result: result, sources: sources, condition: test.map { .and(condition, $0) } ?? condition)
    }

    /// A member, as the term of a closure's parameter: a model whose columns are the alias's.
    func member() -> SQLTerm {
        var term = SQLTerm(
            expression: .qualifiedColumn(table: alias, column: StoreLayout.keyColumn), type: elementType, nulls: .never)
        term.entity = entity
        term.row = .alias(alias)
        return term
    }
}
