import SwiftData

/// A model written by a child process and read by the tests.
@Model public final class Visit {
    public var name: String
    public var count: Int = 1

    public init(name: String) {
        self.name = name
    }
}
