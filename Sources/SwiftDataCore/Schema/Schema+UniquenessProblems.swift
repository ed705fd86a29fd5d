extension Schema.Entity {
    /// The entity's unique constraints that no store can keep: those naming an attribute kept outside the rows
    /// (`.externalStorage`), one problem per such attribute.
    ///
    /// A store's row holds only a reference to an externally stored value (a file name on SQLite, a row of the
    /// external data table on PostgreSQL), so the store's unique index compares references, which always differ,
    /// and the upsert that looks an insert's values up in the rows never finds the stored model: every insert would
    /// save a duplicate. The container refuses the schema instead, so that no duplicate is ever written; the error
    /// names the model and the attribute and says to drop one of the two options.
    package var uniquenessProblems: [SwiftDataError] {
        let ownUnique = storedProperties.compactMap { $0 as? Schema.Attribute }.filter(\.isUnique).map(\.name)
        let constrained = Set(uniquenessConstraints.joined()).union(ownUnique)
        return orderedAttributes.filter { $0.isExternal && constrained.contains($0.name) }
            .map { attribute in
                SwiftDataError.loadIssueModelContainer.with(
                    reason:
                        "'\(attribute.name)' of \(name) is in a unique constraint and kept in external storage (.externalStorage); its row holds a reference to the data, so the constraint could not match equal data",
                    model: name, property: attribute.name,
                    suggestion:
                        "Drop .unique (or the #Unique constraint naming '\(attribute.name)') or .externalStorage; to keep large data unique, store a digest of it in a unique attribute of its own"
                )
            }
    }
}
