/// The parts of a store's table layout that translated predicates read, the same in every SQL store: an integer
/// key column in every entity table, and join tables of (`owner`, `member`) pairs for many-to-many relationships
/// and to-many relationships without an inverse.
package enum StoreLayout {
    /// The primary key column of every entity table.
    package static let keyColumn = "_pk"

    /// The join table's column holding this side's key, and the one holding the other side's, for the side that
    /// is (or is not) the table's owner.
    package static func joinColumns(isOwner: Bool) -> (this: String, other: String) {
        isOwner ? ("owner", "member") : ("member", "owner")
    }
}
