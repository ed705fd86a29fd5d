/// The values of one `Record`, as both sides create them and as the raw side reads them back.
struct RecordValues: Equatable {
    var key: Int
    var group: Int
    var amount: Int
    var rank: Int
    var price: Double
    var weight: Double
    var ratio: Double
    var name: String
    var city: String
    var note: String
}

/// The data every workload uses, the same for both sides: deterministic, so that the two sides' results can be
/// compared.
enum SampleData {
    /// The number of groups: workload 3 selects one of them, about 1% of the rows.
    static let groups = 100
    /// The group workload 3 selects.
    static let selectedGroup = 42
    /// Workload 4 counts the rows whose `amount` is below this (about half of them).
    static let amountLimit = 5_000
    /// Children per parent in workload 8's graph.
    static let childrenPerParent = 100
    /// Workload 9 reads this many pages of `pageSize` models.
    static let pageCount = 50
    static let pageSize = 20

    /// Text of varied length and script, so that a check over contents (not lengths) can tell values apart: some
    /// short enough for Swift to keep inline, most on the heap, some outside ASCII.
    private static let cities = [
        "Amsterdam", "København", "Dublin", "Zürich", "Kraków", "São Paulo", "東京", "Reykjavík",
    ]
    private static let firstNames = ["Ann", "Björn", "Zoë", "José María", "Łukasz", "美咲", "Siobhán", "Ólafur"]
    private static let notes = [
        "", "deliver to the back door", "fragile — handle with care", "gift wrap, no invoice",
        "Lieferung am Montag früh", "東京駅で受け取り", "call before: +44 20 7946 0000",
    ]

    /// `count` records after the first `existing` ones (all of them by default). Their keys are a permutation of
    /// `existing..<existing + count`, so that key order differs from insertion order.
    static func records(_ count: Int, after existing: Int = 0) -> [RecordValues] {
        let multiplier = keyMultiplier(count)
        return (0..<count).map { record(existing + $0, key: existing + $0 * multiplier % count) }
    }

    private static func record(_ index: Int, key: Int) -> RecordValues {
        RecordValues(
            key: key,
            group: index % groups,
            amount: index * 37 % 10_000,
            rank: index / 10,
            price: Double(index % 10_000) / 4,
            weight: Double(index) * 0.001,
            ratio: Double(index % 7) / 7,
            name: "Customer \(index) " + firstNames[index % firstNames.count],
            city: cities[index % cities.count] + " \(index % 997)",
            note: "Order \(index * 7 % 100_000): " + notes[index % notes.count])
    }

    /// The number of parents of workload 8's graph: one per `childrenPerParent` rows, at least one.
    static func parentCount(rows: Int) -> Int { max(1, rows / childrenPerParent) }

    static func parentName(_ index: Int) -> String { "Parent \(index) " + firstNames[index % firstNames.count] }
    static func childName(_ index: Int) -> String { "Child \(index) " + cities[index % cities.count] }

    /// A multiplier coprime with `count`, which makes `index * multiplier % count` a permutation.
    private static func keyMultiplier(_ count: Int) -> Int {
        var multiplier = 7_919
        while gcd(multiplier, count) != 1 { multiplier += 1 }
        return multiplier
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

extension RecordValues {
    /// A number that depends on every value: both sides sum it over what they read, and the sums must agree.
    var digest: Int {
        var digest = key
        digest = digest &* 31 &+ group
        digest = digest &* 31 &+ amount
        digest = digest &* 31 &+ rank
        digest = digest &* 31 &+ Int(truncatingIfNeeded: price.bitPattern)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: weight.bitPattern)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: ratio.bitPattern)
        digest = digest &* 31 &+ name.contentDigest
        digest = digest &* 31 &+ city.contentDigest
        return digest &* 31 &+ note.contentDigest
    }
}

extension String {
    /// A number that depends on every byte of the text and its place (one wrong or swapped character changes it),
    /// folded eight bytes at a time, so that both sides pay little for it in their timed parts.
    var contentDigest: Int {
        func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            let raw = UnsafeRawBufferPointer(bytes)
            var digest = bytes.count
            var offset = 0
            while offset + 8 <= raw.count {
                digest =
                    digest &* 1_000_003
                    &+ Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            while offset < raw.count {
                digest = digest &* 31 &+ Int(raw[offset])
                offset += 1
            }
            return digest
        }
        if let digest = utf8.withContiguousStorageIfAvailable(fold) { return digest }
        var copy = self
        return copy.withUTF8(fold)
    }
}

/// The values of one model of workload 12's hierarchy: `kind` 0 is an `Asset`, 1 a `Stock`, 2 a `Bond`; the
/// subclasses' attributes are `nil` for the other kinds.
struct AssetValues: Equatable {
    var kind: Int
    var key: Int
    var name: String
    var price: Double
    var ticker: String?
    var shares: Int?
    var coupon: Double?
    var maturity: Int?

    /// `count` models, a third of each kind, in turn.
    static func all(_ count: Int) -> [AssetValues] {
        (0..<count).map { index in
            let kind = index % 3
            return AssetValues(
                kind: kind, key: index, name: "Asset \(index) " + SampleData.parentName(index % 8),
                price: Double(index % 1_000) / 8, ticker: kind == 1 ? "T\(index)" : nil,
                shares: kind == 1 ? index % 500 : nil,
                coupon: kind == 2 ? Double(index % 40) / 8 : nil, maturity: kind == 2 ? 2030 + index % 20 : nil)
        }
    }

    /// A number that depends on every value, as `RecordValues.digest`.
    var digest: Int {
        var digest = kind &* 31 &+ key
        digest = digest &* 31 &+ name.contentDigest
        digest = digest &* 31 &+ Int(truncatingIfNeeded: price.bitPattern)
        digest = digest &* 31 &+ (ticker?.contentDigest ?? -1)
        digest = digest &* 31 &+ (shares ?? -1)
        digest = digest &* 31 &+ Int(truncatingIfNeeded: (coupon ?? -1).bitPattern)
        return digest &* 31 &+ (maturity ?? -1)
    }
}

/// Workload 8's digest: each parent's rank and name and its children's values and names in order, summed over
/// parents in any order (our side fetches the parents unsorted).
enum GraphDigest {
    static func parent(rank: Int, name: String, children: some Sequence<(name: String, value: Int)>) -> Int {
        var digest = rank &* 31 &+ name.contentDigest
        for child in children { digest = (digest &* 31 &+ child.value) &* 31 &+ child.name.contentDigest }
        return digest
    }
}
