import Foundation

/// The identity of a context's unit of work, and who makes it: each `ModelContext` has its own (its
/// `editingState`). As in Apple's, only the framework creates one.
public struct EditingState: Identifiable, Sendable {
    public typealias ID = UUID

    /// The identity, unique to the context.
    public let id: UUID
    /// The name recorded with the context's saves; the context's `author` is this value.
    public var author: String?

    package init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
