import SwiftDataCore

/// What a write statement's text depends on: the entity (by name, within one store's schema), insert or update, and
/// the row's shape. A store keeps each shape's text, so that a save of a shape seen before writes no SQL.
/// (`@inlinable`: a save compares shapes once per row, which must cost no call into this module.)
package struct WriteShape: Hashable, Sendable {
    package let entity: String
    package let isInsert: Bool
    package let row: RowShape

    @inlinable
    package init(entity: String, isInsert: Bool, row: RowShape) {
        self.entity = entity
        self.isInsert = isInsert
        self.row = row
    }

    @inlinable
    package static func == (lhs: WriteShape, rhs: WriteShape) -> Bool {
        lhs.isInsert == rhs.isInsert && lhs.row == rhs.row && lhs.entity == rhs.entity
    }
}

/// The properties a row write sets: its attributes, and its references with their positions.
package struct RowShape: Hashable, Sendable {
    package let attributes: [Int]
    package let references: [Int]

    @inlinable
    package init(_ row: RowWrite) {
        attributes = row.attributes
        references = row.references.map(Self.number)
    }

    /// Whether `row` has this shape, found without making its shape.
    @inlinable
    package func matches(_ row: RowWrite) -> Bool {
        matches(attributes: row.attributes, references: row.references)
    }

    /// Whether a row that writes `attributes` and `references` has this shape. (A store's loop over rows passes the
    /// row's parts: passing the row itself to another module copies it first.)
    @inlinable
    package func matches(attributes: [Int], references: [ReferenceWrite]) -> Bool {
        guard attributes == self.attributes, references.count == self.references.count else { return false }
        for index in references.indices where Self.number(references[index]) != self.references[index] {
            return false
        }
        return true
    }

    /// A reference's relationship and whether its position goes after the owner's last member, as one number.
    @inlinable
    package static func number(_ reference: ReferenceWrite) -> Int {
        reference.relationship.index * 2 + (reference.position == .last ? 1 : 0)
    }
}
