/// Apple's interface for the values of one model as a store keeps them: made from a model's backing data when a
/// context saves, handed back by a store when it fetches, and `Codable`, so that a store can write it as it likes.
public protocol DataStoreSnapshot: Codable, Sendable {
    /// The snapshot of a model's values, through its backing data. Models it refers to that are not saved yet (so
    /// that only their backing data can say what they hold) join `relatedBackingDatas`.
    init(from: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData])
    /// The identifier of the model: temporary in a save's inserted snapshots, permanent otherwise.
    var persistentIdentifier: PersistentIdentifier { get }
    /// The same values under another identifier, with the identifiers of related models replaced as
    /// `remappedIdentifiers` says (a store calls it to give inserted models permanent identifiers).
    func copy(
        persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> Self
}

extension DataStoreSnapshot {
    /// The same values under another identifier; identifiers of related models stay as they are.
    public func copy(persistentIdentifier: PersistentIdentifier) -> Self {
        copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: nil)
    }
}
