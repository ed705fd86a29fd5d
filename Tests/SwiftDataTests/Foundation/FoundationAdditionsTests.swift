import Foundation
import SwiftData
import Testing

/// The pieces of Apple's Foundation that Linux lacks and this module supplies: code written for Apple's platforms
/// compiles unchanged, and evaluates as Apple's does, in memory and in the store alike.
@Suite struct FoundationAdditionsTests {
    @Test func stringPredicateMethodsCompileAndEvaluateAsFoundationDoes() throws {
        let text = "CAFE"
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let contains = #Predicate<Sample> { $0.string.localizedStandardContains(text) }
        let caseInsensitive = #Predicate<Sample> { $0.string.caseInsensitiveCompare("straße") == same }
        let localized = #Predicate<Sample> { $0.string.localizedCompare("b") == ascending }
        let sample = Sample()
        for string in ["Un café au lait", "cafe", "Straße", "STRASSE", "a", "B", "ä", ""] {
            sample.string = string
            #expect(try contains.evaluate(sample) == string.localizedStandardContains(text))
            #expect(try caseInsensitive.evaluate(sample) == (string.caseInsensitiveCompare("straße") == same))
            #expect(try localized.evaluate(sample) == (string.localizedCompare("b") == ascending))
        }
        sample.string = "Un café au lait"
        #expect(try contains.evaluate(sample), "case- and diacritic-insensitive")
    }

    @Test func newNodesAreCodable() throws {
        let node = PredicateExpressions.build_localizedStandardContains(
            PredicateExpressions.Value("Crème Brûlée"), PredicateExpressions.Value("creme"))
        let decoded = try JSONDecoder().decode(type(of: node), from: try JSONEncoder().encode(node))
        #expect(try decoded.evaluate(PredicateBindings()))
        #expect("\(node)".hasPrefix("StringLocalizedStandardContains("))
    }

    @Test func localizedComparatorsSortModelsAsFinderDoesInMemoryAndInTheStore() throws {
        let context = ModelContext(try makeMemoryContainer(Sample.self))
        let names = ["file10", "File9", "file9", "b", "A", "a", "ä", "Zebra", "é", "e\u{301}", "10", "9", ""]
        for name in names {
            let sample = Sample()
            sample.string = name
            sample.optionalString = name.isEmpty ? nil : name
            context.insert(sample)
        }
        try context.save()
        let all = try context.fetch(FetchDescriptor<Sample>())
        for descriptor in [
            SortDescriptor(\Sample.string, comparator: .localizedStandard),
            SortDescriptor(\Sample.string, comparator: .localizedStandard, order: .reverse),
            SortDescriptor(\Sample.string, comparator: .localized),
            SortDescriptor(\Sample.optionalString, comparator: .localizedStandard),
            SortDescriptor(\Sample.string, comparator: .lexical),
        ] {
            let expected = all.sorted(using: descriptor).map(\.string)
            #expect(try context.fetch(FetchDescriptor(sortBy: [descriptor])).map(\.string) == expected)
        }
        let finder = all.sorted(using: SortDescriptor(\Sample.string, comparator: .localizedStandard)).map(\.string)
        #expect(finder.firstIndex(of: "file9")! < finder.firstIndex(of: "file10")!, "numbers compare by value")
        #expect(finder.firstIndex(of: "b")! < finder.firstIndex(of: "Zebra")!, "case does not decide")
        #expect(finder.firstIndex(of: "ä")! < finder.firstIndex(of: "b")!, "accented letters sort with their base")
    }

    @Test func boolAttributesSort() throws {
        let context = ModelContext(try makeMemoryContainer(Sample.self))
        for (index, value) in [true, false, true, false].enumerated() {
            let sample = Sample()
            sample.int = index
            sample.bool = value
            sample.optionalBool = index == 0 ? nil : value
            context.insert(sample)
        }
        try context.save()
        let byBool = try context.fetch(FetchDescriptor(sortBy: [SortDescriptor(\Sample.bool, order: .reverse)]))
        #expect(byBool.map(\.int) == [0, 2, 1, 3])
        let byOptional = try context.fetch(FetchDescriptor(sortBy: [SortDescriptor(\Sample.optionalBool)]))
        #expect(byOptional.map(\.int) == [0, 1, 3, 2])
    }
}
