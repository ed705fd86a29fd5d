import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// The SQL that representative predicates and sorts become (the `WHERE` and `ORDER BY` clauses).
@Suite struct GoldenSQLTests {
    let context: ModelContext

    init() throws {
        context = ModelContext(try makeMemoryContainer(Row.self))
        context.insert(Row(number: 0))
        try context.save()
    }

    /// The clauses after `FROM` of the fetch's `SELECT`.
    func clauses(_ predicate: Predicate<Row>? = nil, sortBy: [SortDescriptor<Row>] = []) throws -> String {
        let log = StatementLog(context.container)
        _ = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
        let select = try #require(log.selects.first)
        let from = try #require(select.range(of: #"FROM "Row" "#))
        return String(select[from.upperBound...])
    }

    @Test func comparisonsAndLogic() throws {
        #expect(
            try clauses(#Predicate { $0.int > 3 && $0.string == "x" })
                == #"WHERE (("int" > ?) AND ("string" COLLATE SWIFTDATA_STRING = ?)) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.optionalString == nil || $0.optionalString != "x" })
                == #"WHERE (("optionalString" IS NULL) OR ("optionalString" COLLATE SWIFTDATA_STRING IS NOT ?)) "#
                + #"ORDER BY "_pk""#)
        #expect(try clauses(#Predicate { $0.double < 1.5 }) == #"WHERE coalesce(("double" < ?), 0) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { (1...5).contains($0.int) })
                == #"WHERE ((? <= "int") AND ("int" <= ?)) ORDER BY "_pk""#)
        let half: UInt64 = 1 << 63
        #expect(
            try clauses(#Predicate { $0.uint64 < half })
                == #"WHERE (CASE WHEN ("uint64" < 0) THEN (("uint64" + 9223372036854775807) + 1) "#
                + #"ELSE (("uint64" - 9223372036854775807) - 1) END < ?) ORDER BY "_pk""#)
        let high = Priority.high
        #expect(
            try clauses(#Predicate { $0.priority < high })
                == #"WHERE (CASE WHEN ("priority" = ?) THEN ? WHEN ("priority" = ?) THEN ? "#
                + #"WHEN ("priority" = ?) THEN ? ELSE NULL END < ?) ORDER BY "_pk""#)
    }

    @Test func arithmeticOptionalsAndConditionals() throws {
        #expect(
            try clauses(#Predicate { $0.small + 1 > 3 })
                == #"WHERE (swiftdata_checked(("small" + ?), ?, ?) > ?) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.optionalInt != nil && $0.optionalInt! > 3 })
                == #"WHERE CASE WHEN ("optionalInt" IS NOT NULL) THEN (swiftdata_unwrap("optionalInt") > ?) "#
                + #"ELSE 0 END ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { ($0.optionalInt ?? 0) > 3 })
                == #"WHERE (coalesce("optionalInt", ?) > ?) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.bool ? $0.small / 2 == 1 : false })
                == #"WHERE CASE WHEN ("bool" = 1) THEN (swiftdata_divide("small", ?, ?, ?) = ?) ELSE 0 END "#
                + #"ORDER BY "_pk""#)
    }

    @Test func stringsCollectionsAndCodableMembers() throws {
        #expect(
            try clauses(#Predicate { $0.string.contains("é") || $0.string.localizedStandardContains("e") })
                == #"WHERE (swiftdata_contains("string", ?) OR swiftdata_localized_standard_contains("string", ?)) "#
                + #"ORDER BY "_pk""#)
        let same = ComparisonResult.orderedSame
        #expect(
            try clauses(#Predicate { $0.string.caseInsensitiveCompare("x") == same })
                == #"WHERE (swiftdata_case_insensitive_compare("string", ?) = ?) ORDER BY "_pk""#)
        let names = ["a", "b"]
        #expect(
            try clauses(#Predicate { names.contains($0.string) })
                == #"WHERE ("string" COLLATE SWIFTDATA_STRING IN (?, ?)) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.tags.contains("a") })
                == #"WHERE EXISTS (SELECT 1 FROM json_each("Row"."tags") AS "_element" "#
                + #"WHERE ("_element"."value" COLLATE SWIFTDATA_STRING = ?)) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.address.city == "Paris" })
                == #"WHERE (json_extract("address", ?) COLLATE SWIFTDATA_STRING = ?) ORDER BY "_pk""#)
        #expect(
            try clauses(#Predicate { $0.optionalAddress?.city == "Paris" })
                == #"WHERE (json_extract("optionalAddress", ?) COLLATE SWIFTDATA_STRING IS ?) ORDER BY "_pk""#)
    }

    @Test func sorting() throws {
        let descriptors = [
            SortDescriptor(\Row.string, comparator: .localizedStandard), SortDescriptor(\Row.bool, order: .reverse),
            SortDescriptor(\Row.optionalInt), SortDescriptor(\Row.decimal),
        ]
        #expect(
            try clauses(sortBy: descriptors)
                == #"ORDER BY "string" COLLATE SWIFTDATA_LOCALIZED_STANDARD, "bool" DESC, "optionalInt", "#
                + #""decimal" COLLATE SWIFTDATA_DECIMAL, "_pk""#)
    }
}
