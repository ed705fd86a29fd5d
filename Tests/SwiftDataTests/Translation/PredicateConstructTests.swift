import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Every construct `#Predicate` accepts runs in SQL (the statement log shows one `SELECT` with a `WHERE`, and
/// nothing is left to memory), and selects exactly what `Predicate.evaluate` selects.
@Suite struct PredicateConstructTests {
    let context: ModelContext

    init() throws {
        context = ModelContext(try makeMemoryContainer(Sample.self))
        for values in PredicateConstructTests.rows {
            let sample = Sample()
            values(sample)
            context.insert(sample)
        }
        try context.save()
    }

    /// Six samples, told apart by `int`, with `nil`s, empty strings, case and normalization variants, NaN and
    /// extreme numbers.
    static let rows: [@Sendable (Sample) -> Void] = [
        { $0.int = 0 },
        {
            $0.int = 1
            $0.string = "Café"
            $0.optionalString = "x"
            $0.bool = true
            $0.double = 1.5
            $0.mood = .happy
            $0.tags = ["a", "b"]
            $0.address = Address(street: "Main", city: "Paris")
            $0.optionalAddress = Address(street: "Rue", city: "Lyon")
            $0.optionalInt = 10
            $0.date = Date(timeIntervalSinceReferenceDate: 100)
            $0.decimal = Decimal(string: "1.50")!
            $0.uuid = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!
            $0.url = URL(string: "https://example.com/a")!
            $0.data = Data([1, 2])
            $0.uint64 = .max
        },
        {
            $0.int = -2
            $0.string = "Cafe\u{301}"
            $0.optionalString = "y"
            $0.double = .nan
            $0.mood = .grumpy
            $0.tags = ["b"]
            $0.address = Address(street: "Elm", city: "paris")
            $0.optionalInt = 3
            $0.decimal = Decimal(string: "-3")!
            $0.uint64 = 1 << 63
        },
        {
            $0.int = 3
            $0.string = "file10"
            $0.optionalString = ""
            $0.bool = true
            $0.double = -1
            $0.tags = ["c", "a"]
            $0.optionalAddress = Address(street: "x", city: "Paris")
            $0.optionalInt = 0
            $0.date = Date(timeIntervalSinceReferenceDate: -5)
            $0.int8 = -128
        },
        {
            $0.int = .max
            $0.string = "file9"
            $0.double = .infinity
            $0.int8 = 127
            $0.uint64 = 5
        },
        {
            $0.int = 5
            $0.string = "STRASSE"
            $0.optionalString = "Straße"
            $0.double = -0.0
            $0.int8 = 5
        },
    ]

    func ints(_ predicate: Predicate<Sample>) throws -> [Int] {
        try fetchInSQL(predicate, context).map(\.int)
    }

    @Test func comparisons() throws {
        #expect(try ints(#Predicate { $0.int == 3 }) == [3])
        #expect(try ints(#Predicate { $0.int != 3 && $0.int >= 1 }) == [1, .max, 5])
        #expect(try ints(#Predicate { $0.int < 1 || $0.int > 4 }) == [0, -2, .max, 5])
        #expect(try ints(#Predicate { $0.int <= 0 }) == [0, -2])
        #expect(try ints(#Predicate { !($0.int < 3) }) == [3, .max, 5])
    }

    @Test func arithmeticWithSwiftSemantics() throws {
        #expect(try ints(#Predicate { $0.int8 < 100 && $0.int8 + 1 == 6 }) == [5], "127 + 1 would trap")
        #expect(try ints(#Predicate { -$0.int == 2 }) == [-2])
        let max = Int.max
        #expect(try ints(#Predicate { $0.int != max && $0.int * 2 - 1 == 5 }) == [3])
        #expect(try ints(#Predicate { $0.int >= -2 && $0.int <= 5 && $0.int / 2 == -1 }) == [-2])
        #expect(try ints(#Predicate { $0.int < 100 && $0.int % 2 == -0 && $0.int % 3 != 0 }) == [-2])
        #expect(try ints(#Predicate { $0.double * 2 > 2 }) == [1, .max])
        #expect(try ints(#Predicate { $0.double / 0 < 0 }) == [3], "x / 0 is -infinity for negative x")
        #expect(try ints(#Predicate { $0.double != $0.double }) == [-2], "only NaN differs from itself")
    }

    @Test func overflowAndDivisionByZeroThrowInsteadOfTrapping() throws {
        for predicate in [
            #Predicate<Sample> { $0.int + 1 > 0 }, #Predicate<Sample> { $0.int8 - 1 < 0 },
            #Predicate<Sample> { 10 / $0.int > 0 }, #Predicate<Sample> { $0.int8 / -1 > 0 },
        ] {
            #expect(throws: SwiftDataError.unsupportedPredicate) {
                try context.fetch(FetchDescriptor(predicate: predicate))
            }
        }
        // Swift would not evaluate the division where the guard fails; neither does SQL.
        #expect(try ints(#Predicate { $0.int != 0 && $0.int < 100 && 10 / $0.int == 3 }) == [3])
    }

    @Test func conditionalExpressions() throws {
        #expect(try ints(#Predicate { ($0.bool ? $0.int : -$0.int) > 0 && $0.int < 100 }) == [1, -2, 3])
        let conditional = #Predicate<Sample> {
            if $0.bool {
                $0.int == 1
            } else {
                $0.int == 5
            }
        }
        #expect(try ints(conditional) == [1, 5])
    }

    @Test func ranges() throws {
        #expect(try ints(#Predicate { (1...3).contains($0.int) }) == [1, 3])
        #expect(try ints(#Predicate { (1..<3).contains($0.int) }) == [1])
        let range = -2...0
        #expect(try ints(#Predicate { range.contains($0.int) }) == [0, -2])
        let from = 5...
        #expect(try ints(#Predicate { from.contains($0.int) }) == [.max, 5])
    }

    @Test func optionals() throws {
        #expect(try ints(#Predicate { $0.optionalString == nil }) == [0, .max])
        #expect(try ints(#Predicate { $0.optionalString != nil }) == [1, -2, 3, 5])
        #expect(try ints(#Predicate { $0.optionalString != "x" }) == [0, -2, 3, .max, 5])
        #expect(try ints(#Predicate { $0.optionalAddress?.city == "Paris" }) == [3])
        #expect(try ints(#Predicate { $0.optionalInt.flatMap { $0 + 1 } == 4 }) == [-2])
        #expect(try ints(#Predicate { ($0.optionalInt ?? -1) < 1 }) == [0, 3, .max, 5])
        let ifLet = #Predicate<Sample> {
            if let value = $0.optionalInt {
                value > 2
            } else {
                false
            }
        }
        #expect(try ints(ifLet) == [1, -2])
        #expect(try ints(#Predicate { $0.optionalInt != nil && $0.optionalInt! > 2 }) == [1, -2])
    }

    @Test func forceUnwrappingNilThrowsAsEvaluateDoes() throws {
        let predicate = #Predicate<Sample> { $0.optionalInt! > 2 }
        #expect(throws: PredicateError.forceUnwrapFailure) { try predicate.evaluate(Sample()) }
        #expect(throws: PredicateError.forceUnwrapFailure) { try context.fetch(FetchDescriptor(predicate: predicate)) }
    }

    @Test func strings() throws {
        #expect(try ints(#Predicate { $0.string == "Café" }) == [1, -2], "canonically equivalent strings are equal")
        #expect(try ints(#Predicate { $0.string > "C" && $0.string < "G" }) == [1, -2])
        #expect(try ints(#Predicate { $0.string.contains("fi") }) == [3, .max])
        #expect(
            try ints(#Predicate { $0.string.contains("e") }) == [3, .max], "\"e\u{301}\" is one Character, not \"e\"")
        #expect(try ints(#Predicate { $0.string.starts(with: "Caf") }) == [1, -2])
        #expect(try ints(#Predicate { $0.string.isEmpty }) == [0])
        #expect(try ints(#Predicate { $0.string.localizedStandardContains("cafe") }) == [1, -2])
        #expect(try ints(#Predicate { $0.optionalString?.localizedStandardContains("STRASSE") == true }) == [5])
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        #expect(try ints(#Predicate { $0.string.caseInsensitiveCompare("strasse") == same }) == [5])
        #expect(try ints(#Predicate { $0.string.localizedCompare("D") == ascending }) == [0, 1, -2])
    }

    @Test func everyAttributeType() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0)
        #expect(try ints(#Predicate { $0.date > date }) == [1])
        let decimal = Decimal(string: "1.5")!
        #expect(try ints(#Predicate { $0.decimal == decimal }) == [1], "1.50 == 1.5")
        #expect(try ints(#Predicate { $0.decimal < 0 }) == [-2])
        let uuid = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!
        #expect(try ints(#Predicate { $0.uuid == uuid }) == [1])
        let url = URL(string: "https://example.com/a")!
        #expect(try ints(#Predicate { $0.url == url }) == [1])
        let data = Data([1, 2])
        #expect(try ints(#Predicate { $0.data == data }) == [1])
        let half: UInt64 = 1 << 63
        #expect(try ints(#Predicate { $0.uint64 >= half }) == [1, -2], "unsigned order, not the stored bit pattern's")
        let (min8, max8) = (Int8.min, Int8.max)
        #expect(try ints(#Predicate { $0.int8 == min8 || $0.int8 == max8 }) == [3, .max])
        #expect(try ints(#Predicate { $0.float == 0 }).count == 6)
        #expect(try ints(#Predicate { $0.optionalDouble == nil }).count == 6)
    }

    @Test func capturedCollectionsEnumsBoolsCodableMembersAndArrays() throws {
        let names = ["Café", "file9", "nope"]
        #expect(try ints(#Predicate { names.contains($0.string) }) == [1, -2, .max])
        let optionalNames: [String?] = [nil, "x"]
        #expect(try ints(#Predicate { optionalNames.contains($0.optionalString) }) == [0, 1, .max])
        let happy = Mood.happy
        #expect(try ints(#Predicate { $0.mood == happy }) == [1])
        #expect(try ints(#Predicate { $0.bool }) == [1, 3])
        #expect(try ints(#Predicate { !$0.bool && $0.int > 0 }) == [.max, 5])
        #expect(try ints(#Predicate { $0.address.city == "Paris" }) == [1])
        #expect(try ints(#Predicate { $0.tags.contains("a") }) == [1, 3])
        #expect(try ints(#Predicate { $0.tags.contains { $0 > "b" } }) == [3])
        #expect(try ints(#Predicate { $0.tags.allSatisfy { $0 == "b" } }) == [0, -2, .max, 5])
        #expect(try ints(#Predicate { $0.tags.isEmpty }) == [0, .max, 5])
        #expect(try ints(#Predicate { $0.tags.count == 2 }) == [1, 3])
    }

    /// Parts of a predicate that read no model are constants, evaluated once and bound, so that the predicate runs in
    /// SQL: members of captured values (which used to send the whole predicate to memory), arithmetic on constants,
    /// `if let` on a captured optional, a captured dictionary's value, the largest element of a captured array.
    @Test func inputIndependentPartsAreConstants() throws {
        struct User: Codable, Sendable {
            var id: Int
            var name: String
            var address: Address
            var limits: [String: Int]
        }
        let user = User(id: 3, name: "Café", address: Address(street: "", city: "Paris"), limits: ["max": 5])
        #expect(try ints(#Predicate { $0.int == user.id }) == [3])
        #expect(try ints(#Predicate { $0.string == user.name }) == [1, -2], "canonically equivalent")
        #expect(try ints(#Predicate { $0.address.city == user.address.city && $0.int > -1 }) == [1])
        #expect(try ints(#Predicate { $0.int == user.limits["max"] ?? 0 }) == [5])
        #expect(try ints(#Predicate { $0.int == user.id * 2 - 1 }) == [5])
        let someone: User? = user
        #expect(try ints(#Predicate { sample in someone.flatMap { $0.id } == sample.optionalInt }) == [-2])
        let nobody: User? = nil
        #expect(try ints(#Predicate { sample in nobody.flatMap { $0.id } == sample.optionalInt }) == [0, .max, 5])
        let numbers = [1, 5, 4]
        #expect(try ints(#Predicate { $0.int == numbers.max()! }) == [5])
    }
}
