import Foundation

/// The history token of this package's stores: the number of a transaction in its store's history.
///
/// Numbers grow with every save of any context or process, in the order the saves committed, so a token orders
/// the transactions of its store: `$0.token > token` selects those that committed after it. A token can hold
/// positions in several stores (`tokenValue` is keyed by store identifier), as the one a save's `didSave`
/// notification carries when the save wrote to several. Tokens compare on the stores they share: one is less
/// than another when their positions in every store both cover are less. Tokens that share no store are
/// unordered (neither is less, nor equal): a predicate comparing a transaction's token with a token of another
/// store selects nothing of that transaction's store. Sort transactions of several stores by `timestamp`.
public struct DefaultHistoryToken: HistoryToken {
    /// The position in each store the token covers: a transaction number, keyed by store identifier.
    public typealias TokenType = [String: Int64]

    /// The transaction number of each store the token covers: one store's inline (a transaction's token, the
    /// usual case), several in a dictionary.
    private enum Positions: Hashable {
        case one(store: String, number: Int64)
        case many([String: Int64])
    }

    private let stored: Positions

    package init(positions: [String: Int64]) {
        if positions.count == 1, let (store, number) = positions.first {
            stored = .one(store: store, number: number)
        } else {
            stored = .many(positions)
        }
    }

    /// The token of transaction `number` of the store `storeIdentifier`.
    package init(storeIdentifier: String, number: Int64) {
        stored = .one(store: storeIdentifier, number: number)
    }

    /// The transaction number of each store the token covers.
    package var positions: [String: Int64] {
        switch stored {
        case .one(let store, let number): [store: number]
        case .many(let positions): positions
        }
    }

    /// The position in each store the token covers, keyed by store identifier.
    public var tokenValue: [String: Int64]? { positions }

    /// The identifier of the store the token is a position in; for a token of several stores, the first
    /// identifier in alphabetical order.
    public var storeIdentifier: String {
        switch stored {
        case .one(let store, _): store
        case .many(let positions): positions.keys.min() ?? ""
        }
    }

    /// The transaction number, for a token of one store (the highest, for a token of several).
    public var id: Int {
        switch stored {
        case .one(_, let number): Int(truncatingIfNeeded: number)
        case .many(let positions): Int(truncatingIfNeeded: positions.values.max() ?? 0)
        }
    }

    /// The number of the transaction of `storeIdentifier` this token is at, if it covers that store.
    package func number(in storeIdentifier: String) -> Int64? {
        switch stored {
        case .one(let store, let number): store == storeIdentifier ? number : nil
        case .many(let positions): positions[storeIdentifier]
        }
    }

    /// How many stores the token covers.
    package var storeCount: Int {
        switch stored {
        case .one: 1
        case .many(let positions): positions.count
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs, <) }
    public static func <= (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs, <=) }
    public static func > (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs, >) }
    public static func >= (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs, >=) }

    /// Whether `holds` holds for the positions of every store both tokens cover, and they share one.
    private static func compare(_ lhs: Self, _ rhs: Self, _ holds: (Int64, Int64) -> Bool) -> Bool {
        if case .one(let store, let number) = lhs.stored, case .one(let other, let otherNumber) = rhs.stored {
            return store == other && holds(number, otherNumber)
        }
        var shared = false
        for (store, position) in lhs.positions {
            guard let other = rhs.positions[store] else { continue }
            guard holds(position, other) else { return false }
            shared = true
        }
        return shared
    }

    private enum CodingKeys: String, CodingKey { case tokenValue }

    /// Decodes a token that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(positions: try container.decode([String: Int64].self, forKey: .tokenValue))
    }

    /// Encodes the token's positions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(positions, forKey: .tokenValue)
    }
}

extension DefaultHistoryToken: CustomStringConvertible {
    public var description: String {
        let list = positions.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        return "DefaultHistoryToken(\(list.joined(separator: ", ")))"
    }
}
