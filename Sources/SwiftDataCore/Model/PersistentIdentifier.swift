import Foundation
import Synchronization

/// The identity of a model: its entity, the store that holds it and its key in that store.
///
/// A model that was inserted but not yet saved has a temporary identifier (no store identifier); the save
/// replaces it with a permanent one, as Apple's does. Identifiers are `Sendable`: pass them, not models,
/// between actors.
public struct PersistentIdentifier: Hashable, Identifiable, Comparable, Codable, Sendable {
    /// The stable identity of a model, opaque as in Apple's API.
    public struct ID: Hashable, Sendable {
        let storeIdentifier: String?
        let entityName: String
        let key: Key
    }

    /// A key in a store (permanent) or a number handed out at insert (temporary).
    package enum Key: Hashable, Sendable, Comparable {
        case temporary(UInt64)
        /// A key of this package's stores, which are integers.
        case permanent(Int64)
        /// A key of a store of your own (see `DataStore`), which may be of any type: its description.
        case custom(String)
    }

    public let id: ID

    /// The entity name of the identified model.
    public var entityName: String { id.entityName }
    /// The identifier of the store that holds the model; `nil` while the identifier is temporary.
    public var storeIdentifier: String? { id.storeIdentifier }

    package var key: Key { id.key }
    /// The primary key in one of this package's stores, or `nil` for a temporary identifier or another store's.
    package var primaryKey: Int64? {
        if case .permanent(let key) = id.key { return key }
        return nil
    }
    /// Whether the identifier is temporary: a model's until its first save, which gives it a permanent one.
    /// Keep only permanent identifiers.
    public var isTemporary: Bool {
        if case .temporary = id.key { return true }
        return false
    }

    package init(storeIdentifier: String?, entityName: String, key: Key) {
        id = ID(storeIdentifier: storeIdentifier, entityName: entityName, key: key)
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    /// A new temporary key, unique in this process, as stored in a model's state.
    package static func nextTemporaryKey() -> Int64 {
        Int64(bitPattern: temporaryCounter.add(1, ordering: .relaxed).newValue)
    }

    /// A permanent identifier for the model with `primaryKey` in the store `storeIdentifier`: an integer key of
    /// this package's stores, or any key of a store of your own (a `UUID`, a `String`, ...), which two identifiers
    /// compare by its description.
    public static func identifier<T>(for storeIdentifier: String, entityName: String, primaryKey: T) throws
        -> PersistentIdentifier where T: Comparable & CustomStringConvertible & Codable & Hashable
    {
        if let integer = primaryKey as? any BinaryInteger, let key = Int64(exactly: integer) {
            return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, key: .permanent(key))
        }
        return PersistentIdentifier(
            storeIdentifier: storeIdentifier, entityName: entityName, key: .custom(primaryKey.description))
    }

    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        (lhs.storeIdentifier ?? "", lhs.entityName, lhs.key) < (rhs.storeIdentifier ?? "", rhs.entityName, rhs.key)
    }

    private enum CodingKeys: String, CodingKey { case store, entity, key, temporary, primaryKey }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let store = try container.decodeIfPresent(String.self, forKey: .store)
        let entity = try container.decode(String.self, forKey: .entity)
        if let temporary = try container.decodeIfPresent(UInt64.self, forKey: .temporary) {
            self.init(storeIdentifier: store, entityName: entity, key: .temporary(temporary))
        } else if let custom = try container.decodeIfPresent(String.self, forKey: .primaryKey) {
            self.init(storeIdentifier: store, entityName: entity, key: .custom(custom))
        } else {
            self.init(
                storeIdentifier: store, entityName: entity,
                key: .permanent(try container.decode(Int64.self, forKey: .key)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(storeIdentifier, forKey: .store)
        try container.encode(entityName, forKey: .entity)
        switch key {
        case .temporary(let number): try container.encode(number, forKey: .temporary)
        case .permanent(let key): try container.encode(key, forKey: .key)
        case .custom(let key): try container.encode(key, forKey: .primaryKey)
        }
    }
}

extension PersistentIdentifier: CustomStringConvertible {
    public var description: String {
        switch key {
        case .temporary(let number): "\(entityName)/temporary-\(number)"
        case .permanent(let key): "\(entityName)/\(key)"
        case .custom(let key): "\(entityName)/\(key)"
        }
    }
}
