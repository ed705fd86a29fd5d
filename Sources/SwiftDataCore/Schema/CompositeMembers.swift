import Foundation

/// Finds the members of a `Codable` struct that a model stores as one attribute, to describe it as a
/// `Schema.CompositeAttribute`: the type is decoded once from a decoder that records each key it is asked for, with
/// the key's type, and answers with a stand-in value (zero, empty, the first case of a `CaseIterable` enum, `nil`
/// for optionals). A type whose decoding needs anything else (a value it must validate, an enum without cases to
/// pick from, an unkeyed or single-value form) has no members: it is an ordinary attribute.
enum CompositeMembers {
    /// The member attributes of `type`, or `nil` when it is not a keyed `Decodable` type with members.
    static func of(_ type: Any.Type) -> [Schema.Attribute]? {
        guard let decodable = type as? any Decodable.Type else { return nil }
        return members(of: decodable, recorder: Recorder(depth: 0, visiting: []))
    }

    private static func members<T: Decodable>(of type: T.Type, recorder: Recorder) -> [Schema.Attribute]? {
        do {
            _ = try T(from: RecordingDecoder(recorder: recorder))
        } catch {
            return nil
        }
        return recorder.usedKeys && !recorder.members.isEmpty ? recorder.members : nil
    }

    /// Not a struct of members.
    struct NotComposite: Error {}

    /// What one decoding recorded.
    final class Recorder {
        /// How deep the decoded type is nested; deeper than a few levels, members are not explored.
        let depth: Int
        /// The types being decoded around this one, so that a recursive type ends the exploration.
        let visiting: Set<ObjectIdentifier>
        var members: [Schema.Attribute] = []
        /// Whether the decoded type asked for a keyed container.
        var usedKeys = false

        init(depth: Int, visiting: Set<ObjectIdentifier>) {
            self.depth = depth
            self.visiting = visiting
        }

        /// Records the member `name` of type `T` (or `T?`), and returns a stand-in value for it.
        func member<T: Decodable>(_ name: String, _ type: T.Type, optional: Bool) throws -> T? {
            let valueType: Any.Type = optional ? T?.self : T.self
            if let value = Self.standIn(T.self) {
                members.append(Schema.Attribute(name: name, valueType: valueType))
                return value
            }
            if depth < 8, !visiting.contains(ObjectIdentifier(T.self)) {
                let nested = Recorder(depth: depth + 1, visiting: visiting.union([ObjectIdentifier(T.self)]))
                if let value = try? T(from: RecordingDecoder(recorder: nested)) {
                    if nested.usedKeys && !nested.members.isEmpty {
                        members.append(
                            Schema.CompositeAttribute(name: name, valueType: valueType, properties: nested.members))
                    } else {
                        members.append(Schema.Attribute(name: name, valueType: valueType))
                    }
                    return value
                }
            }
            guard optional else { throw NotComposite() }
            members.append(Schema.Attribute(name: name, valueType: valueType))
            return nil
        }

        /// A value of a type the stores hold natively, or the first case of a `CaseIterable` type.
        private static func standIn<T>(_ type: T.Type) -> T? {
            let values: [Any] = [
                false, "", 0 as Int, 0 as Int8, 0 as Int16, 0 as Int32, 0 as Int64, 0 as UInt, 0 as UInt8,
                0 as UInt16, 0 as UInt32, 0 as UInt64, 0 as Double, 0 as Float, Decimal(0),
                Date(timeIntervalSinceReferenceDate: 0), Data(), UUID(),
                URL(fileURLWithPath: "/"),
            ]
            if let value = values.first(where: { Swift.type(of: $0) == T.self }) { return value as? T }
            if let cases = T.self as? any CaseIterable.Type { return firstCase(cases) as? T }
            return nil
        }

        private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }
    }

    /// A decoder that records keyed members (see `CompositeMembers`); collections decode empty.
    struct RecordingDecoder: Decoder {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            recorder.usedKeys = true
            return KeyedDecodingContainer(RecordingContainer<Key>(recorder: recorder))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotComposite() }
    }

    /// Answers every key with a stand-in value, recording it.
    struct RecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = try recorder.member(key.stringValue, T.self, optional: false) else {
                throw NotComposite()
            }
            return value
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try recorder.member(key.stringValue, T.self, optional: true)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

        private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
            try decode(type, forKey: key)
        }

        private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            try recorder.member(key.stringValue, T.self, optional: true)
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> { throw NotComposite() }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotComposite() }
        func superDecoder() throws -> any Decoder { throw NotComposite() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw NotComposite() }
    }

    /// An empty array, set or other unkeyed value.
    struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        mutating func decodeNil() throws -> Bool { throw NotComposite() }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw NotComposite() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> { throw NotComposite() }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotComposite() }
        mutating func superDecoder() throws -> any Decoder { throw NotComposite() }
    }
}
