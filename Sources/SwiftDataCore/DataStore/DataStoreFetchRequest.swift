/// Apple's fetch request a context hands a data store: what to fetch, and for which context.
public struct DataStoreFetchRequest<T: PersistentModel>: Sendable {
    /// The models to fetch, in which order and which window of them.
    public let descriptor: FetchDescriptor<T>
    /// The editing state of the context that fetches.
    public let editingState: EditingState

    package init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}
