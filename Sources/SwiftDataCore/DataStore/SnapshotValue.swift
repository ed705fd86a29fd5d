import Foundation

/// One persisted property of a model in a `DefaultSnapshot`: an attribute's value (by meaning, as it crosses the
/// store seam), or the identifiers of the models a relationship holds.
package enum SnapshotValue: Hashable, Sendable {
    case attribute(StoreValue)
    /// A to-one relationship: the related model's identifier, or `nil`.
    case toOne(PersistentIdentifier?)
    /// A to-many relationship: the related models' identifiers, in order.
    case toMany([PersistentIdentifier])

    /// The identifiers of the related models (none for an attribute).
    package var identifiers: [PersistentIdentifier] {
        switch self {
        case .attribute: []
        case .toOne(let identifier): identifier.map { [$0] } ?? []
        case .toMany(let identifiers): identifiers
        }
    }

    /// The same value with related identifiers replaced as `remapped` says.
    package func remapping(_ remapped: [PersistentIdentifier: PersistentIdentifier]) -> SnapshotValue {
        switch self {
        case .attribute: self
        case .toOne(let identifier): .toOne(identifier.map { remapped[$0] ?? $0 })
        case .toMany(let identifiers): .toMany(identifiers.map { remapped[$0] ?? $0 })
        }
    }
}

/// A snapshot value's JSON: `null` for no attribute value, an object with one key naming the value's type
/// (`{"date": ...}`, `{"toMany": [...]}`) otherwise. Dates, data and identifiers use the encoder's own strategies;
/// decimals are exact text, and non-finite doubles are strings (`"nan"`, `"inf"`, `"-inf"`), which JSON lacks.
extension SnapshotValue: Codable {
    private enum Key: String, CodingKey {
        case bool, int64, uint64, double, decimal, string, data, date, uuid, url, json, toOne, toMany
    }

    package init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            self = .attribute(.null)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "a snapshot value has no type"))
        }
        switch key {
        case .bool: self = .attribute(.bool(try container.decode(Bool.self, forKey: key)))
        case .int64: self = .attribute(.int64(try container.decode(Int64.self, forKey: key)))
        case .uint64: self = .attribute(.uint64(try container.decode(UInt64.self, forKey: key)))
        case .double:
            if let number = try? container.decode(Double.self, forKey: key) {
                self = .attribute(.double(number))
            } else {
                let text = try container.decode(String.self, forKey: key)
                guard let number = Double(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "'\(text)' is not a number")
                }
                self = .attribute(.double(number))
            }
        case .decimal:
            let text = try container.decode(String.self, forKey: key)
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(text)' is not a decimal")
            }
            self = .attribute(.decimal(decimal))
        case .string: self = .attribute(.string(try container.decode(String.self, forKey: key)))
        case .data: self = .attribute(.data(try container.decode(Data.self, forKey: key)))
        case .date: self = .attribute(.date(try container.decode(Date.self, forKey: key)))
        case .uuid: self = .attribute(.uuid(try container.decode(UUID.self, forKey: key)))
        case .url:
            let text = try container.decode(String.self, forKey: key)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(text)' is not a URL")
            }
            self = .attribute(.url(url))
        case .json: self = .attribute(.json(try container.decode(String.self, forKey: key)))
        case .toOne: self = .toOne(try container.decodeIfPresent(PersistentIdentifier.self, forKey: key))
        case .toMany: self = .toMany(try container.decode([PersistentIdentifier].self, forKey: key))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        if case .attribute(.null) = self {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .attribute(let value):
            switch value {
            case .null: break
            case .bool(let value): try container.encode(value, forKey: .bool)
            case .int64(let value): try container.encode(value, forKey: .int64)
            case .uint64(let value): try container.encode(value, forKey: .uint64)
            case .double(let value):
                if value.isFinite {
                    try container.encode(value, forKey: .double)
                } else {
                    try container.encode(value.isNaN ? "nan" : value > 0 ? "inf" : "-inf", forKey: .double)
                }
            case .decimal(let value): try container.encode(value.description, forKey: .decimal)
            case .string(let value): try container.encode(value, forKey: .string)
            case .data(let value): try container.encode(value, forKey: .data)
            case .date(let value): try container.encode(value, forKey: .date)
            case .uuid(let value): try container.encode(value, forKey: .uuid)
            case .url(let value): try container.encode(value.absoluteString, forKey: .url)
            case .json(let value): try container.encode(value, forKey: .json)
            }
        case .toOne(let identifier): try container.encode(identifier, forKey: .toOne)
        case .toMany(let identifiers): try container.encode(identifiers, forKey: .toMany)
        }
    }
}
