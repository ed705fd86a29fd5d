/// One entity's lightweight migration, as `SchemaDiff` decides it and a store applies it: the columns of the
/// entity's new table and where each gets its values, whether the table must be rebuilt (a store that can change
/// columns in place may do so instead), values that move into or out of external storage, and join-table changes.
package struct EntityMigration {
    /// A column of the migrated table: attributes first, then to-one relationships stored in a column (each
    /// followed by its position column, when it has one).
    package struct Column: Equatable {
        package var name: String
        /// The column of the old table it takes its values from; `nil` for a new column.
        package var source: String?
        /// The value of new rows' column, and of old rows' `nil`s when the column becomes required.
        package var fill: StoreValue?
    }

    /// A change to a join table this entity owns.
    package enum JoinTableChange: Equatable {
        case create(String)
        /// The table's rows move to a table of the new name, made as a new store makes it; `reversed` when the
        /// relationship's inverse owned the old table (a rename changed which side owns it), so that its owner and
        /// member columns, and their positions, swap.
        case rename(from: String, to: String, reversed: Bool)
        case drop(String)
    }

    /// The model entity the table migrates to.
    package let entity: Schema.Entity
    package var columns: [Column] = []
    /// Whether the columns changed: renamed, added, removed, or their optionality or options changed.
    package var changesColumns = false
    /// Attributes whose values move between the rows and external storage (`toExternal`: into it).
    package var movedValues: [(column: String, toExternal: Bool)] = []
    /// Join tables to create, rename or drop, first.
    package var joinTables: [JoinTableChange] = []
    /// Whether the unique constraints or indexes changed.
    package var changesIndexes = false

    package init(entity: Schema.Entity) {
        self.entity = entity
    }
}
