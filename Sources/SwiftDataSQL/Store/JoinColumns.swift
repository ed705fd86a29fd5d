import SwiftDataCore

/// The columns of a join table, quoted, from the point of view of one side of its relationship.
package struct JoinColumns {
    /// The join table (not quoted).
    package let table: String
    /// This side's key column, and the other side's.
    package let owner: String
    package let member: String
    /// The member's position in this side's array, and this side's position in the member's inverse array.
    package let position: String
    package let otherPosition: String

    /// The columns of `relationship`'s join table, or `nil` when it has none.
    package init?(_ relationship: Schema.Relationship, dialect: some SQLDialect) {
        guard case .joinTable(let table, let isOwner) = relationship.storage else { return nil }
        self.table = table
        let columns = StoreLayout.joinColumns(isOwner: isOwner)
        owner = dialect.quote(columns.this)
        member = dialect.quote(columns.other)
        position = dialect.quote(isOwner ? "position" : "inverse_position")
        otherPosition = dialect.quote(isOwner ? "inverse_position" : "position")
    }
}
