import Foundation

/// The compact form of a transaction's changes, which a store keeps as one value beside the transaction: a table of
/// the entity names it mentions, a table of property-name lists, then a few bytes per change (its kind and entity,
/// the difference of its key from the previous change's, an update's list of changed properties, a delete's
/// preserved values). Writing it costs one value per save, whatever the number of changes.
package enum HistoryPayload {
    /// The format's version, the first byte.
    static let version: UInt8 = 1

    /// What a change did.
    enum Kind: UInt8 {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// One change, decoded.
    struct Change {
        var kind: Kind
        /// An index in `Contents.entities`.
        var entity: Int
        var key: Int64
        /// An index in `Contents.shapes`: an update's changed properties, or a delete's preserved attributes.
        var shape: Int?
        /// A delete's preserved values, in the order of its shape's names.
        var values: [StoreValue] = []
    }

    /// A decoded transaction's changes.
    struct Contents {
        var entities: [String]
        var shapes: [[String]]
        var changes: [Change]
    }

    /// Decodes what `HistoryCollector.record` wrote with a `Writer`: the tables of names, then the changes.
    static func decode(_ data: Data) throws -> Contents {
        var reader = try Reader(data)
        let entities = try reader.strings()
        var shapes: [[String]] = []
        for _ in 0..<(try reader.count()) { shapes.append(try reader.strings()) }
        let count = try reader.count()
        var changes: [Change] = []
        changes.reserveCapacity(count)
        var key: Int64 = 0
        for _ in 0..<count {
            let header = try reader.unsigned()
            guard let kind = Kind(rawValue: UInt8(header & 3)), Int(header >> 2) < entities.count else {
                throw reader.corrupt
            }
            key = key &+ (try reader.signed())
            var change = Change(kind: kind, entity: Int(header >> 2), key: key)
            switch kind {
            case .insert: break
            case .update:
                let shape = try reader.count()
                guard shape < shapes.count else { throw reader.corrupt }
                change.shape = shape
            case .delete:
                let shape = try reader.count()
                if shape > 0 {
                    guard shape <= shapes.count else { throw reader.corrupt }
                    change.shape = shape - 1
                    change.values = try shapes[shape - 1].map { _ in try reader.value() }
                }
            }
            changes.append(change)
        }
        return Contents(entities: entities, shapes: shapes, changes: changes)
    }

    /// The entity names a transaction's changes mention, read without decoding the changes.
    static func entityNames(in data: Data) throws -> [String] {
        var reader = try Reader(data)
        return try reader.strings()
    }

    /// Appends the parts of the format to bytes.
    struct Writer {
        var bytes: [UInt8] = []
        /// The key of the last change written.
        private var lastKey: Int64 = 0

        /// A change: its kind and entity, and its key as the difference from the last change's.
        mutating func change(_ kind: Kind, entity: Int, key: Int64) {
            unsigned(UInt64(kind.rawValue) | UInt64(entity) << 2)
            signed(key &- lastKey)
            lastKey = key
        }

        /// An unsigned integer in 7-bit groups, least significant first.
        mutating func unsigned(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        /// A signed integer, zigzag-encoded so that small negative numbers stay short.
        mutating func signed(_ value: Int64) {
            unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                unsigned(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func data(_ value: Data) {
            unsigned(UInt64(value.count))
            bytes.append(contentsOf: value)
        }

        /// A value by its meaning: a tag (its `Tag`), then the value.
        mutating func value(_ value: StoreValue) {
            switch value {
            case .null: bytes.append(Tag.null.rawValue)
            case .bool(let bool): bytes.append(bool ? Tag.true.rawValue : Tag.false.rawValue)
            case .int64(let integer):
                bytes.append(Tag.int64.rawValue)
                signed(integer)
            case .uint64(let integer):
                bytes.append(Tag.uint64.rawValue)
                unsigned(integer)
            case .double(let double):
                bytes.append(Tag.double.rawValue)
                unsigned(double.bitPattern)
            case .decimal(let decimal):
                bytes.append(Tag.decimal.rawValue)
                string(decimal.description)
            case .string(let text):
                bytes.append(Tag.string.rawValue)
                string(text)
            case .data(let data):
                bytes.append(Tag.data.rawValue)
                self.data(data)
            case .date(let date):
                bytes.append(Tag.date.rawValue)
                unsigned(date.timeIntervalSinceReferenceDate.bitPattern)
            case .uuid(let uuid):
                bytes.append(Tag.uuid.rawValue)
                withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
            case .url(let url):
                bytes.append(Tag.url.rawValue)
                string(url.absoluteString)
            case .json(let text):
                bytes.append(Tag.json.rawValue)
                string(text)
            }
        }
    }

    /// The first byte of an encoded value: what it means.
    enum Tag: UInt8 {
        case null, `false`, `true`, int64, uint64, double, decimal, string, data, date, uuid, url, json
    }

    /// Reads the parts of the format, throwing on bytes the writer cannot have written.
    struct Reader {
        private let bytes: [UInt8]
        private var offset = 0

        init(_ data: Data) throws {
            bytes = [UInt8](data)
            guard bytes.first == HistoryPayload.version else { throw Self.corruption }
            offset = 1
        }

        static let corruption = SwiftDataError.corruptValue("a history transaction's changes cannot be read")
        var corrupt: SwiftDataError { Self.corruption }

        mutating func unsigned() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw corrupt
        }

        /// A count of things that follow, which cannot exceed the bytes left.
        mutating func count() throws -> Int {
            let value = try unsigned()
            guard value <= UInt64(bytes.count) else { throw corrupt }
            return Int(value)
        }

        mutating func signed() throws -> Int64 {
            let value = try unsigned()
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        mutating func raw(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count <= bytes.count - offset else { throw corrupt }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func string() throws -> String {
            let count = try count()
            return String(decoding: try raw(count), as: UTF8.self)
        }

        mutating func strings() throws -> [String] {
            var strings: [String] = []
            for _ in 0..<(try count()) { strings.append(try string()) }
            return strings
        }

        mutating func value() throws -> StoreValue {
            guard let tag = try raw(1).first.flatMap(Tag.init(rawValue:)) else { throw corrupt }
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int64: return .int64(try signed())
            case .uint64: return .uint64(try unsigned())
            case .double: return .double(Double(bitPattern: try unsigned()))
            case .decimal:
                guard let decimal = Decimal(string: try string(), locale: nil) else { throw corrupt }
                return .decimal(decimal)
            case .string: return .string(try string())
            case .data: return .data(Data(try raw(try count())))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try unsigned())))
            case .uuid:
                let bytes = Array(try raw(16))
                return .uuid(
                    UUID(
                        uuid: (
                            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                            bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                        )))
            case .url:
                guard let url = URL(string: try string()) else { throw corrupt }
                return .url(url)
            case .json: return .json(try string())
            }
        }
    }
}
