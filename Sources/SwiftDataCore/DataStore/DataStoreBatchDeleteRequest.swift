import Foundation

/// Apple's request to delete the models a predicate selects.
public struct DataStoreBatchDeleteRequest<T: PersistentModel>: Sendable {
    /// The editing state of the context that deletes.
    public let editingState: EditingState
    /// Whether models of subclasses of `T` are deleted too.
    public let includeSubclasses: Bool
    /// The models to delete; `nil` deletes every model of the type.
    public let predicate: Predicate<T>?

    package init(editingState: EditingState, includeSubclasses: Bool, predicate: Predicate<T>?) {
        self.editingState = editingState
        self.includeSubclasses = includeSubclasses
        self.predicate = predicate
    }
}
