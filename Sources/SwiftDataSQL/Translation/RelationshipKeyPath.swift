import SwiftDataCore

/// A sort descriptor's key path through to-one relationships to an attribute, `\Animal.category?.name`, as
/// `RecognizedKeyPath` (Core's one recognizer of key paths) finds it. A key path it does not recognize whole is not
/// one, and the descriptor sorts in memory.
struct RelationshipKeyPath {
    /// The relationships followed, from the sorted entity on.
    var relationships: [Schema.Relationship]
    /// The attribute at the end.
    var attribute: Schema.Attribute
    /// The sort key a model sort descriptor appended to the attribute (see `SortKey`), if any.
    var sortKey: SortKey?

    /// The chain that `keyPath` follows from `entity`, or `nil` when it is not one.
    init?(_ keyPath: AnyKeyPath, from entity: Schema.Entity, in schema: Schema) {
        let recognized = RecognizedKeyPath(keyPath, from: entity, in: schema)
        guard !recognized.relationships.isEmpty, recognized.isComplete, let attribute = recognized.attribute else {
            return nil
        }
        relationships = recognized.relationships
        self.attribute = attribute
        sortKey = recognized.sortKey
    }
}
