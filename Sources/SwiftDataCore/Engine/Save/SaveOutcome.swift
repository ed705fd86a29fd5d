/// What a committed save did to the context's models, gathered while the context applies it and told in `didSave`.
struct SaveOutcome {
    /// The identifiers of the models the save inserted.
    var inserted: [PersistentIdentifier] = []
    /// The identifiers of the models the save changed (and of new models that became stored rows).
    var updated: [PersistentIdentifier] = []
    /// The identifiers of the rows the save deleted.
    var deleted: [PersistentIdentifier] = []
    /// New models that became stored rows by their unique values: registered once observers may run.
    var upserted: [(model: any PersistentModel, binding: EntityBinding, key: Int64)] = []
    /// Whether any saved model has relationships, which the links made after the save may concern.
    var hasRelationships = false
}

/// What happened while a save wrote its rows, for the phases after it.
struct SaveWriteAftermath {
    /// Properties changed while the save wrote (by a value transformer, an `Encodable` attribute's encoding, or an
    /// observer they set off).
    let changedWhileWriting: [(model: any PersistentModel, property: Int)]
    /// Models inserted, changed or deleted while the save wrote, which the next save writes; `nil` when none were.
    let others: (inserted: [any PersistentModel], changed: [any PersistentModel], deleted: [any PersistentModel])?
}
