import SwiftData

/// A model that one process writes and another copies to a store of its own by reading the first one's history:
/// its key is unique, and preserved when it is deleted, so the copy can delete it too.
@Model public final class SyncItem {
    @Attribute(.unique, .preserveValueOnDeletion) public var key: String
    public var value: Int
    public var label: String

    public init(key: String, value: Int, label: String) {
        self.key = key
        self.value = value
        self.label = label
    }
}
