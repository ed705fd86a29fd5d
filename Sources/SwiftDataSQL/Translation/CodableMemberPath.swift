import Foundation
import Synchronization

/// Finds the JSON key under which a `Codable` type's encoding stores one of its properties, so that a predicate
/// on `$0.address.city` can read the stored JSON in SQL.
///
/// Nothing is assumed about the conformance: the type is decoded from a probe decoder that hands every `String`
/// and integer property a distinct value (and each `Bool`, in turn, `true`), then the probe instance is encoded
/// with the store's encoder; the member's key is the one key whose JSON equals the member's own encoding. A
/// conformance that renames, transforms or nests the property fails to match, and the predicate is then
/// evaluated in memory.
enum CodableMemberPath {
    /// Found keys by type and key path.
    private static let cache = Mutex<[CacheKey: String?]>([:])

    /// `@unchecked Sendable`: key paths are immutable.
    private struct CacheKey: Hashable, @unchecked Sendable {
        var type: ObjectIdentifier
        var keyPath: AnyKeyPath
    }

    /// The JSON key (`city`) of `keyPath`'s property in `type`'s encoding, or `nil`. Keys holding a `"` are not
    /// found: SQLite's JSON paths cannot name them.
    static func key(of keyPath: AnyKeyPath, in type: Any.Type) -> String? {
        let cacheKey = CacheKey(type: ObjectIdentifier(type), keyPath: keyPath)
        if let cached = cache.withLock({ $0[cacheKey] }) { return cached }
        let key = (type as? any Codable.Type).flatMap { find(keyPath, in: $0, trueBool: nil) }
        cache.withLock { $0[cacheKey] = key }
        return key
    }

    private static func find<T: Codable>(_ keyPath: AnyKeyPath, in type: T.Type, trueBool: String?) -> String? {
        let probe = ProbeDecoder(state: ProbeState(trueBool: trueBool))
        guard let instance = try? T(from: probe), let member = instance[keyPath: keyPath] as? any Encodable,
            let encoded = json(instance) as? [String: Any], let memberJSON = json(member)
        else { return nil }
        let keys = encoded.keys.filter { canonical(encoded[$0]) == canonical(memberJSON) }
        if keys.count == 1, let key = keys.first { return usable(key) }
        guard trueBool == nil, member is Bool else { return nil }
        // Every Bool decoded as false: try each Bool property as true to find the one the member reads.
        let matches = probe.state.bools.compactMap { candidate -> String? in
            guard let instance = try? T(from: ProbeDecoder(state: ProbeState(trueBool: candidate))),
                instance[keyPath: keyPath] as? Bool == true,
                (json(instance) as? [String: Any])?[candidate] as? Bool == true
            else { return nil }
            return candidate
        }
        return matches.count == 1 ? matches.first.flatMap(usable) : nil
    }

    /// The value's encoding as the store writes it, as a JSON object graph.
    private static func json(_ value: any Encodable) -> Any? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// A JSON object graph as text with sorted keys, to compare two of them.
    private static func canonical(_ value: Any?) -> Data? {
        guard let value else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// The key, unless it holds a `"`.
    private static func usable(_ key: String) -> String? {
        key.contains("\"") ? nil : key
    }
}

/// What a probe decoding hands out and records.
private final class ProbeState {
    /// The key of the one `Bool` property that decodes as `true`.
    let trueBool: String?
    /// The keys of the top-level `Bool` properties.
    var bools: [String] = []
    var counter = 0

    init(trueBool: String?) { self.trueBool = trueBool }

    /// A value of a type the probe decodes directly, distinct per property where it can be.
    func value<T>(_ type: T.Type, key: String, depth: Int) throws -> T? {
        counter += 1
        let value: Any?
        switch type {
        case is String.Type: value = "probe-\(counter)"
        case is Bool.Type:
            if depth == 0 { bools.append(key) }
            value = depth == 0 && key == trueBool
        case let integer as any FixedWidthInteger.Type: value = ProbeState.integer(integer, counter)
        case is Double.Type: value = Double(counter)
        case is Float.Type: value = Float(counter)
        case is Decimal.Type: value = Decimal(counter)
        case is Date.Type: value = Date(timeIntervalSinceReferenceDate: Double(counter))
        case is UUID.Type: value = UUID()
        case is URL.Type: value = URL(string: "probe:\(counter)")
        case is Data.Type: value = Data()
        case let cases as any CaseIterable.Type: value = ProbeState.firstCase(cases)
        default: return nil
        }
        guard let typed = value as? T else { throw ProbeError() }
        return typed
    }

    private static func integer<I: FixedWidthInteger>(_ type: I.Type, _ counter: Int) -> Any? {
        I(exactly: counter)
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? {
        C.allCases.first
    }
}

private struct ProbeError: Error {}

/// A decoder that builds an instance of any `Decodable` type from probe values.
private struct ProbeDecoder: Decoder {
    let state: ProbeState
    var path: [String] = []

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { ProbeSingleValue(decoder: self) }

    /// Decodes a value at `key` below this decoder's path.
    func decode<T: Decodable>(_ type: T.Type, key: String) throws -> T {
        if let value = try state.value(type, key: key, depth: path.count) { return value }
        return try T(from: ProbeDecoder(state: state, path: path + [key]))
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, key: key.stringValue)
    }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(
            ProbeKeyedContainer<NestedKey>(
                decoder: ProbeDecoder(state: decoder.state, path: decoder.path + [key.stringValue])))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        ProbeDecoder(state: decoder.state, path: decoder.path + [key.stringValue])
    }
}

private struct ProbeSingleValue: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value = try decoder.state.value(type, key: "", depth: decoder.path.count + 1) else {
            throw ProbeError()
        }
        return value
    }
}

/// Collections decode empty.
private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { throw ProbeError() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ProbeError() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw ProbeError()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeError() }
    mutating func superDecoder() throws -> any Decoder { throw ProbeError() }
}
