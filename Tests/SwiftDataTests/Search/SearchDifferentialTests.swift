import Foundation
import SwiftData
import Testing

/// The search differential: random texts, Unicode included, fetched with `contains`, `localizedStandardContains`
/// and `starts(with:)` from a store with a `.search` index and from one without: the rows must be the same.
/// `SWIFTDATA_SEARCH_DIFFERENTIAL_ROWS` sets how many texts (200 by default), and as many needles are tried a
/// tenth of that.
@Suite struct SearchDifferentialTests {
    typealias Indexed = SearchVersions.Note
    typealias Plain = SearchVersions.Plain.Note

    static let rows = ProcessInfo.processInfo.environment["SWIFTDATA_SEARCH_DIFFERENTIAL_ROWS"].flatMap(Int.init) ?? 200

    /// Pieces texts are made of: ASCII, precomposed and decomposed accents, letters whose case or compatibility form
    /// folds to several, marks alone, ignorable characters, emoji, and LIKE's and FTS5's special characters.
    static let pieces = [
        "a", "b", "c", "x", "A", "B", "C", "X", "ab", "abc", "Abc", "ABC", "e", "E", "é", "É", "e\u{301}", "s", "S",
        "ss", "SS", "ß", "ẞ", "i", "I", "ı", "İ", "ﬁ", "fi", "\u{212A}", "k", "Σ", "σ", "ς", "æ", "ae", "ø", "o",
        "Å", "\u{301}", "\u{20DD}", "中文", "😀", "👍🏽", " ", "\u{AD}", "\u{200B}", "\r\n", "%", "_", "\\", "\"", "'",
        "ﾃ", "ｱ", "Ａ", "①", "1",
    ]

    struct Random {
        var seed: UInt64
        mutating func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        mutating func text(_ count: Int) -> String {
            (0..<count).map { _ in SearchDifferentialTests.pieces[next(SearchDifferentialTests.pieces.count)] }
                .joined()
        }
    }

    @Test(arguments: StoreKind.all) func indexedAndUnindexedStoresSelectTheSameRows(store: StoreKind) throws {
        var random = Random(seed: 7)
        let texts = (0..<Self.rows).map { _ in random.text(1 + random.next(12)) }
        let indexed = ModelContext(try store.makeContainer(Indexed.self))
        let plain = ModelContext(try store.makeContainer(Plain.self))
        for (index, text) in texts.enumerated() {
            indexed.insert(Indexed(title: "\(index)", body: text))
            plain.insert(Plain(title: "\(index)", body: text))
        }
        try indexed.save()
        try plain.save()
        var needles: [String] = []
        for _ in 0..<max(Self.rows / 10, 10) {
            // Half are pieces of a stored text, changed in case, half random.
            let text = texts[random.next(texts.count)]
            let characters = Array(text)
            let start = random.next(max(characters.count, 1))
            let piece = String(characters.dropFirst(start).prefix(3 + random.next(4)))
            needles.append(random.next(2) == 0 ? piece : random.next(2) == 0 ? piece.uppercased() : random.text(3))
        }
        var checked = 0
        let log = store == .sqlite ? StatementLog(indexed.container) : nil
        let (_, _) = try capturingLog {
            for needle in needles {
                let kinds: [(Predicate<Indexed>, Predicate<Plain>)] = [
                    (#Predicate { $0.body.contains(needle) }, #Predicate { $0.body.contains(needle) }),
                    (
                        #Predicate { $0.body.localizedStandardContains(needle) },
                        #Predicate { $0.body.localizedStandardContains(needle) }
                    ),
                    (#Predicate { $0.body.starts(with: needle) }, #Predicate { $0.body.starts(with: needle) }),
                ]
                for (withIndex, without) in kinds {
                    let found = try indexed.fetch(FetchDescriptor(predicate: withIndex)).map(\.title).sorted()
                    let expected = try plain.fetch(FetchDescriptor(predicate: without)).map(\.title).sorted()
                    let missed = Set(expected).symmetricDifference(found).sorted().map { title in
                        texts[Int(title) ?? 0].unicodeScalars.map { "\($0.value)" }
                    }
                    #expect(
                        found == expected,
                        "needle \(needle.unicodeScalars.map { "\($0.value)" }) on \(store): rows told apart \(missed)")
                    checked += 1
                }
            }
        }
        #expect(checked == needles.count * 3)
        if let log {
            #expect(log.selects.filter { $0.contains("MATCH") }.count > needles.count, "most needles use the index")
        }
    }
}
