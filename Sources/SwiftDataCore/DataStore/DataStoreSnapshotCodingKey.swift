/// Apple's key space for coding a data store's snapshots: the identifier of the model, or the name of one of its
/// modeled properties. A custom store's snapshot type may use it for its own `Codable` conformance.
public enum DataStoreSnapshotCodingKey: CodingKey, CustomStringConvertible, Sendable {
    /// The key of the model's persistent identifier.
    case persistentIdentifier
    /// The key of a modeled property, by its name.
    case modeledProperty(String)

    /// The string of the key: `"persistentIdentifier"`, or the property's name.
    public var stringValue: String {
        switch self {
        case .persistentIdentifier: "persistentIdentifier"
        case .modeledProperty(let name): name
        }
    }

    /// `"persistentIdentifier"` is the identifier's key; any other string names a modeled property.
    public init?(stringValue: String) {
        self = stringValue == "persistentIdentifier" ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    /// Snapshot keys are strings: always `nil`.
    public var intValue: Int? { nil }

    /// Snapshot keys are strings: there is no key for an integer.
    public init?(intValue: Int) { nil }

    /// The key's string.
    public var description: String { stringValue }
}

/// Apple's name for what a snapshot's values are: `Codable` and `Sendable`.
public typealias DataStoreSnapshotValue = Codable & Sendable
