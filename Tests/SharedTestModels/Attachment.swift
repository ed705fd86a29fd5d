import SwiftData

/// A model with a value kept in a file beside the store, written by child processes.
@Model public final class Attachment {
    public var name: String
    @Attribute(.externalStorage) public var bytes: Data

    public init(name: String, bytes: Data) {
        self.name = name
        self.bytes = bytes
    }
}

/// Two versions of a model, for processes that open a store needing migration at the same time.
public enum TallyV1 {
    @Model public final class Tally {
        public var name: String
        public init(name: String) { self.name = name }
    }
}

public enum TallyV2 {
    @Model public final class Tally {
        @Attribute(originalName: "name") public var label: String
        public var total: Int = 7
        public init(label: String) { self.label = label }
    }
}
