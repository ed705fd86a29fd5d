import Foundation
import SwiftData

/// An enum whose `<` is neither its raw values' order nor its declaration order, to prove that SQL orders enum
/// attributes by Swift's `<`.
enum Priority: Int, Codable, CaseIterable, Comparable {
    case low = 30
    case high = 10
    case medium = 20

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}

/// The model of the differential tests: an attribute of every kind the store holds, most with an optional twin.
@Model final class Row {
    var number: Int = 0
    var int: Int = 0
    /// Small values only, so that generated arithmetic cannot overflow (Swift would trap in memory).
    var small: Int32 = 0
    var optionalInt: Int?
    var int8: Int8 = 0
    var uint64: UInt64 = 0
    var double: Double = 0
    var optionalDouble: Double?
    var float: Float = 0
    var string: String = ""
    var optionalString: String?
    var bool: Bool = false
    var optionalBool: Bool?
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var decimal: Decimal = 0
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var url = URL(string: "https://example.com")!
    var data = Data()
    var priority: Priority = .low
    var mood: Mood?
    var address = Address(street: "", city: "")
    var optionalAddress: Address?
    var tags: [String] = []
    /// A tree (to-one and its to-many inverse) and a many-to-many relationship, for relationship paths.
    var parent: Row?
    @Relationship(inverse: \Row.parent) var children: [Row] = []
    var peers: [Row] = []
    @Relationship(inverse: \Row.peers) var peerOf: [Row] = []

    init(number: Int) { self.number = number }
}

/// Values chosen to find differences: `nil`s, empty strings, case, width and normalization variants, non-ASCII
/// text, extreme and special numbers, and repeats (equal keys).
enum DifferentialValues {
    static let ints = [Int.min, Int.min + 1, -1000, -1, 0, 0, 1, 2, 7, 1000, Int.max - 1, Int.max]
    static let smalls: [Int32] = [-20, -7, -3, -1, 0, 0, 1, 2, 3, 5, 12, 20]
    static let int8s: [Int8] = [.min, -1, 0, 1, 100, .max]
    static let uint64s: [UInt64] = [0, 1, 12345, 1 << 63, (1 << 63) + 1, .max]
    static let doubles = [
        Double.nan, .infinity, -.infinity, 0, -0.0, 1, -1, 1.5, 2, 1e300, -1e-300, .leastNonzeroMagnitude,
    ]
    static let floats: [Float] = [0, 1.5, -2, .infinity, 0.1]
    static let strings = [
        "", "a", "A", "b", "B", "ab", "é", "e\u{301}", "E", "É", "Straße", "STRASSE", "strasse", "file9", "file10",
        "File10", "ǅ", "日本", "a b", "z", "ä", "a\u{308}", "ﬁ", "Ｂ", "Café", "cafe",
    ]
    static let dates = [-1e9, -1, 0, 0.5, 1, 1e9].map { Date(timeIntervalSinceReferenceDate: $0) }
    static let decimals = ["0", "1", "1.0", "-1", "10.5", "1e20", "-0.001", "12345678901234567890.5", "2"].map {
        Decimal(string: $0)!
    }
    static let uuids = [
        "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-0000000000FF",
        "7F000000-0000-0000-0000-000000000000", "80000000-0000-0000-0000-000000000000",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ].map { UUID(uuidString: $0)! }
    static let urls = ["https://a.example/x", "https://a.example/X", "file:///tmp/a%20b", "https://b.example"].map {
        URL(string: $0)!
    }
    static let datas = [Data(), Data([0]), Data([0, 1]), Data([255]), Data([1])]
    static let tagLists: [[String]] = [[], ["a"], ["a", "b"], ["é"], ["e\u{301}"], ["A", "z"], ["b", "b"]]
    static let cities = ["", "Paris", "paris", "Lyon", "Zürich", "Zu\u{308}rich"]
}

/// A seeded pseudo-random generator (SplitMix64), so that a failure can be reproduced from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }

    /// `true` with the given probability.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    /// `nil` with probability `nilProbability`, otherwise a random element.
    mutating func maybe<T>(_ values: [T], nilProbability: Double = 0.3) -> T? {
        chance(nilProbability) ? nil : pick(values)
    }
}

extension Row {
    /// `count` rows with random values from `DifferentialValues`, the first with every optional `nil`.
    static func randomRows(count: Int, seed: UInt64) -> [Row] {
        var random = SeededRandom(seed: seed)
        let values = DifferentialValues.self
        return (0..<count).map { number in
            let row = Row(number: number)
            let allNil = number == 0
            row.int = random.pick(values.ints)
            row.small = random.pick(values.smalls)
            row.optionalInt = allNil ? nil : random.maybe(values.ints)
            row.int8 = random.pick(values.int8s)
            row.uint64 = random.pick(values.uint64s)
            row.double = random.pick(values.doubles)
            // An optional Double cannot hold NaN: the store keeps NaN as NULL, which reads back as nil.
            row.optionalDouble = allNil ? nil : random.maybe(values.doubles.filter { !$0.isNaN })
            row.float = random.pick(values.floats)
            row.string = random.pick(values.strings)
            row.optionalString = allNil ? nil : random.maybe(values.strings)
            row.bool = random.chance(0.5)
            row.optionalBool = allNil ? nil : random.maybe([false, true])
            row.date = random.pick(values.dates)
            row.decimal = random.pick(values.decimals)
            row.uuid = random.pick(values.uuids)
            row.url = random.pick(values.urls)
            row.data = random.pick(values.datas)
            row.priority = random.pick(Priority.allCases)
            row.mood = allNil ? nil : random.maybe(Mood.allCases)
            row.address = Address(street: random.pick(values.strings), city: random.pick(values.cities))
            row.optionalAddress =
                allNil ? nil : random.maybe(values.cities).map { Address(street: "s", city: $0) }
            row.tags = random.pick(values.tagLists)
            return row
        }
    }

    /// Relates random rows: most get a parent among the rows before them (a forest, so some have no parent and
    /// many no children) and some get peers. The first row has neither.
    static func link(_ rows: [Row], seed: UInt64) {
        var random = SeededRandom(seed: seed &+ 2)
        for (index, row) in rows.enumerated() where index > 0 {
            if random.chance(0.7) { row.parent = rows[Int.random(in: 0..<index, using: &random)] }
            if random.chance(0.4) {
                row.peers = (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(rows) }
                    .reduce(into: []) { peers, peer in if !peers.contains(where: { $0 === peer }) { peers.append(peer) }
                    }
            }
        }
    }
}
