import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// The SQL that representative predicates and sorts become in each dialect (the clauses after `FROM`): in SQLite, as
/// the store runs it, and in PostgreSQL, or why a part of it is left to memory there. See `DialectSQL`.
@Suite(.serialized) struct GoldenSQLTests {
    let sql: DialectSQL

    init() throws {
        let context = ModelContext(try makeMemoryContainer(Row.self))
        let (first, second) = (Row(number: 0), Row(number: 1))
        second.parent = first
        second.peers = [first]
        [first, second].forEach(context.insert)
        try context.save()
        sql = try DialectSQL(context)
    }

    @Test func comparisonsAndLogic() throws {
        try sql.check(
            #Predicate<Row> { $0.int > 3 && $0.string == "x" },
            sqlite: #"WHERE (("int" > ?) AND ("string" COLLATE SWIFTDATA_STRING = ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (("int" > $1::bigint) AND (normalize("string", NFC) COLLATE "C" = "#
                + #"normalize($2::text, NFC) COLLATE "C")) ORDER BY "_pk""#)
        let cutoff = Date(timeIntervalSinceReferenceDate: 1000)
        try sql.check(
            #Predicate<Row> { $0.int8 <= -1 || $0.date < cutoff },
            sqlite: #"WHERE (("int8" <= ?) OR ("date" < ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (("int8" <= $1::bigint) OR ("date" < $2::double precision)) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.double < 1.5 },
            sqlite: #"WHERE coalesce(("double" < ?), 0) ORDER BY "_pk""#,
            postgres: #"WHERE coalesce(("double" < $1::double precision), FALSE) ORDER BY "_pk""#)
        let price = Decimal(string: "10.5")!
        try sql.check(
            #Predicate<Row> { $0.decimal >= price },
            sqlite: #"WHERE ("decimal" COLLATE SWIFTDATA_DECIMAL >= ?) ORDER BY "_pk""#,
            postgres: #"WHERE ("decimal" >= $1::numeric) ORDER BY "_pk""#)
        let half: UInt64 = 1 << 63
        try sql.check(
            #Predicate<Row> { $0.uint64 < half },
            sqlite: #"WHERE (CASE WHEN ("uint64" < 0) THEN (("uint64" + 9223372036854775807) + 1) ELSE (("uint64" "#
                + #"- 9223372036854775807) - 1) END < ?) ORDER BY "_pk""#,
            postgres: #"WHERE (CASE WHEN ("uint64" < 0) THEN (("uint64" + 9223372036854775807) + 1) ELSE "#
                + #"(("uint64" - 9223372036854775807) - 1) END < $1::bigint) ORDER BY "_pk""#)
        let high = Priority.high
        try sql.check(
            #Predicate<Row> { $0.priority < high },
            sqlite: #"WHERE (CASE WHEN ("priority" = ?) THEN ? WHEN ("priority" = ?) THEN ? WHEN ("priority" = ?) "#
                + #"THEN ? ELSE NULL END < ?) ORDER BY "_pk""#,
            postgres: #"WHERE (CASE WHEN ("priority" = $1::bigint) THEN $2::bigint WHEN ("priority" = $3::bigint) "#
                + #"THEN $4::bigint WHEN ("priority" = $5::bigint) THEN $6::bigint ELSE NULL END < $7::bigint) ORDER "#
                + #"BY "_pk""#)
        let (uuid, data, url) = (UUID(), Data([1, 2]), URL(string: "https://example.com/a")!)
        try sql.check(
            #Predicate<Row> { $0.uuid == uuid && $0.data != data && $0.url == url },
            sqlite: #"WHERE ((("uuid" = ?) AND ("data" <> ?)) AND ("url" COLLATE SWIFTDATA_STRING = ?)) ORDER BY "#
                + #""_pk""#,
            postgres: #"WHERE ((("uuid" = $1::uuid) AND ("data" <> $2::bytea)) AND (normalize("url", NFC) COLLATE "#
                + #""C" = normalize($3::text, NFC) COLLATE "C")) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.string < "b" && !($0.string.isEmpty) },
            sqlite: #"WHERE (("string" COLLATE SWIFTDATA_STRING < ?) AND NOT (("string" = ?))) ORDER BY "_pk""#,
            postgres: #"WHERE ((normalize("string", NFC) COLLATE "C" < normalize($1::text, NFC) COLLATE "C") AND "#
                + #"NOT (("string" = $2::text))) ORDER BY "_pk""#)
    }

    @Test func nilOptionalsAndBooleans() throws {
        try sql.check(
            #Predicate<Row> { $0.optionalString == nil || $0.optionalString != "x" },
            sqlite: #"WHERE (("optionalString" IS NULL) OR ("optionalString" COLLATE SWIFTDATA_STRING IS NOT ?)) "#
                + #"ORDER BY "_pk""#,
            postgres: #"WHERE (("optionalString" IS NULL) OR (normalize("optionalString", NFC) COLLATE "C" IS "#
                + #"DISTINCT FROM normalize($1::text, NFC) COLLATE "C")) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.optionalInt == 5 },
            sqlite: #"WHERE ("optionalInt" IS ?) ORDER BY "_pk""#,
            postgres: #"WHERE ("optionalInt" IS NOT DISTINCT FROM $1::bigint) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.optionalInt != nil && $0.optionalInt! > 3 },
            sqlite: #"WHERE CASE WHEN ("optionalInt" IS NOT NULL) THEN (swiftdata_unwrap("optionalInt") > ?) ELSE "#
                + #"0 END ORDER BY "_pk""#,
            postgres: #"WHERE CASE WHEN ("optionalInt" IS NOT NULL) THEN (swiftdata_unwrap("optionalInt") > "#
                + #"$1::bigint) ELSE FALSE END ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { ($0.optionalInt ?? 0) > 3 },
            sqlite: #"WHERE (coalesce("optionalInt", ?) > ?) ORDER BY "_pk""#,
            postgres: #"WHERE (coalesce("optionalInt", $1::bigint) > $2::bigint) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.optionalString.flatMap { $0.isEmpty } == false },
            sqlite: #"WHERE (CASE WHEN ("optionalString" IS NULL) THEN NULL ELSE ("optionalString" = ?) END IS 0) "#
                + #"ORDER BY "_pk""#,
            postgres: #"WHERE (CASE WHEN ("optionalString" IS NULL) THEN NULL ELSE ("optionalString" = $1::text) "#
                + #"END IS NOT DISTINCT FROM FALSE) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.bool && !$0.bool == ($0.int > 0) },
            sqlite: #"WHERE (("bool" = 1) AND ((NOT (("bool" = 1))) = ("int" > ?))) ORDER BY "_pk""#,
            postgres: #"WHERE (("bool" = TRUE) AND ((NOT (("bool" = TRUE))) = ("int" > $1::bigint))) ORDER BY "#
                + #""_pk""#)
        try sql.check(
            #Predicate<Row> { $0.optionalBool == true || $0.optionalBool == nil },
            sqlite: #"WHERE (("optionalBool" IS 1) OR ("optionalBool" IS NULL)) ORDER BY "_pk""#,
            postgres: #"WHERE (("optionalBool" IS NOT DISTINCT FROM TRUE) OR ("optionalBool" IS NULL)) ORDER BY "#
                + #""_pk""#)
        try sql.check(
            #Predicate<Row> { $0.bool ? $0.small / 2 == 1 : false },
            sqlite: #"WHERE CASE WHEN ("bool" = 1) THEN (swiftdata_divide("small", ?, ?, ?) = ?) ELSE 0 END ORDER "#
                + #"BY "_pk""#,
            postgres: #"WHERE CASE WHEN ("bool" = TRUE) THEN (swiftdata_divide("small", $1::bigint, $2::bigint, "#
                + #"$3::bigint) = $4::bigint) ELSE FALSE END ORDER BY "_pk""#)
    }

    @Test func arithmetic() throws {
        try sql.check(
            #Predicate<Row> { $0.small + 1 > 3 && $0.int * 2 != $0.int - 1 },
            sqlite: #"WHERE CASE WHEN (swiftdata_checked(("small" + ?), ?, ?) > ?) THEN (swiftdata_checked(("int" "#
                + #"* ?), ?, ?) <> swiftdata_checked(("int" - ?), ?, ?)) ELSE 0 END ORDER BY "_pk""#,
            postgres: #"WHERE CASE WHEN (swiftdata_add("small", $1::bigint, $2::bigint, $3::bigint) > $4::bigint) "#
                + #"THEN (swiftdata_multiply("int", $5::bigint, $6::bigint, $7::bigint) <> swiftdata_subtract("int", "#
                + #"$8::bigint, $9::bigint, $10::bigint)) ELSE FALSE END ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { -$0.small < 0 && $0.small % 3 == 1 },
            sqlite: #"WHERE CASE WHEN (swiftdata_checked(- ("small"), ?, ?) < ?) THEN "#
                + #"(swiftdata_remainder("small", ?, ?, ?) = ?) ELSE 0 END ORDER BY "_pk""#,
            postgres: #"WHERE CASE WHEN (swiftdata_negate("small", $1::bigint, $2::bigint) < $3::bigint) THEN "#
                + #"(swiftdata_remainder("small", $4::bigint, $5::bigint, $6::bigint) = $7::bigint) ELSE FALSE END "#
                + #"ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { -$0.double < 0 },
            sqlite: #"WHERE coalesce((("double" * -1.0) < ?), 0) ORDER BY "_pk""#,
            postgres: #"WHERE coalesce((- ("double") < $1::double precision), FALSE) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.int > 3 && $0.double * 2 > 1 },
            sqlite: #"WHERE (("int" > ?) AND coalesce((("double" * ?) > ?), 0)) ORDER BY "_pk""#,
            postgres: #"WHERE ("int" > $1::bigint) ORDER BY "_pk""#, postgresInMemory: "Double arithmetic")
        try sql.check(
            #Predicate<Row> { $0.double / 2 > 1 },
            sqlite: #"WHERE coalesce((swiftdata_real_divide("double", ?) > ?), 0) ORDER BY "_pk""#,
            postgres: #"ORDER BY "_pk""#, postgresInMemory: "Double arithmetic")
    }

    @Test func strings() throws {
        try sql.check(
            #Predicate<Row> { $0.int > 3 && $0.string.contains("é") },
            sqlite: #"WHERE (("int" > ?) AND swiftdata_contains("string", ?)) ORDER BY "_pk""#,
            postgres: #"WHERE ("int" > $1::bigint) ORDER BY "_pk""#, postgresInMemory: "Characters")
        try sql.check(
            #Predicate<Row> { $0.string.starts(with: "a") },
            sqlite: #"WHERE swiftdata_starts_with("string", ?) ORDER BY "_pk""#,
            postgres: #"ORDER BY "_pk""#, postgresInMemory: "Characters")
        try sql.check(
            #Predicate<Row> { $0.string.localizedStandardContains("e") },
            sqlite: #"WHERE swiftdata_localized_standard_contains("string", ?) ORDER BY "_pk""#,
            postgres: #"ORDER BY "_pk""#, postgresInMemory: "localizedStandardContains")
        let same = ComparisonResult.orderedSame
        try sql.check(
            #Predicate<Row> { $0.string.caseInsensitiveCompare("x") == same },
            sqlite: #"WHERE (swiftdata_case_insensitive_compare("string", ?) = ?) ORDER BY "_pk""#,
            postgres: #"ORDER BY "_pk""#, postgresInMemory: "caseInsensitiveCompare")
    }

    @Test func rangesAndCapturedCollections() throws {
        try sql.check(
            #Predicate<Row> { (1...5).contains($0.int) },
            sqlite: #"WHERE ((? <= "int") AND ("int" <= ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (($1::bigint <= "int") AND ("int" <= $2::bigint)) ORDER BY "_pk""#)
        let dates = Date(timeIntervalSinceReferenceDate: 0)..<Date(timeIntervalSinceReferenceDate: 60)
        try sql.check(
            #Predicate<Row> { dates.contains($0.date) },
            sqlite: #"WHERE ((? <= "date") AND ("date" < ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (($1::double precision <= "date") AND ("date" < $2::double precision)) ORDER BY "#
                + #""_pk""#)
        try sql.check(
            #Predicate<Row> { (0...$0.small).contains(3) },
            sqlite: #"WHERE CASE WHEN (? > "small") THEN swiftdata_fail(?) ELSE ((? <= ?) AND (? <= "small")) END "#
                + #"ORDER BY "_pk""#,
            postgres: #"WHERE CASE WHEN ($1::bigint > "small") THEN swiftdata_fail($2::text) ELSE (($3::bigint <= "#
                + #"$4::bigint) AND ($5::bigint <= "small")) END ORDER BY "_pk""#)
        let names = ["a", "b"]
        try sql.check(
            #Predicate<Row> { names.contains($0.string) },
            sqlite: #"WHERE ("string" COLLATE SWIFTDATA_STRING IN (?, ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (normalize("string", NFC) COLLATE "C" IN (normalize($1::text, NFC) COLLATE "C", "#
                + #"normalize($2::text, NFC) COLLATE "C")) ORDER BY "_pk""#)
        let numbers: [Int?] = [1, nil]
        try sql.check(
            #Predicate<Row> { numbers.contains($0.optionalInt) },
            sqlite: #"WHERE (coalesce(("optionalInt" IN (?)), 0) OR ("optionalInt" IS NULL)) ORDER BY "_pk""#,
            postgres: #"WHERE (coalesce(("optionalInt" IN ($1::bigint)), FALSE) OR ("optionalInt" IS NULL)) ORDER "#
                + #"BY "_pk""#)
    }

    @Test func codableMembersAndArrays() throws {
        try sql.check(
            #Predicate<Row> { $0.address.city == "Paris" },
            sqlite: #"WHERE (json_extract("address", ?) COLLATE SWIFTDATA_STRING = ?) ORDER BY "_pk""#,
            postgres: #"WHERE (normalize(("address" ->> $1::text), NFC) COLLATE "C" = normalize($2::text, NFC) "#
                + #"COLLATE "C") ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.optionalAddress?.city == "Paris" },
            sqlite: #"WHERE (json_extract("optionalAddress", ?) COLLATE SWIFTDATA_STRING IS ?) ORDER BY "_pk""#,
            postgres: #"WHERE (normalize(("optionalAddress" ->> $1::text), NFC) COLLATE "C" IS NOT DISTINCT FROM "#
                + #"normalize($2::text, NFC) COLLATE "C") ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.tags.contains("a") },
            sqlite: #"WHERE EXISTS (SELECT 1 FROM json_each("Row"."tags") AS "_element" WHERE ("_element"."value" "#
                + #"COLLATE SWIFTDATA_STRING = ?)) ORDER BY "_pk""#,
            postgres: #"WHERE EXISTS (SELECT TRUE FROM jsonb_array_elements_text("Row"."tags") AS "#
                + #""_element"("value") WHERE (normalize("_element"."value", NFC) COLLATE "C" = normalize($1::text, "#
                + #"NFC) COLLATE "C")) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.tags.count > 1 || $0.tags.isEmpty },
            sqlite: #"WHERE ((json_array_length("tags") > ?) OR (json_array_length("tags") = 0)) ORDER BY "_pk""#,
            postgres: #"WHERE ((jsonb_array_length("tags") > $1::bigint) OR (jsonb_array_length("tags") = 0)) "#
                + #"ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.tags.allSatisfy { $0 > "b" } },
            sqlite: #"WHERE NOT (EXISTS (SELECT 1 FROM json_each("Row"."tags") AS "_element" WHERE NOT "#
                + #"(("_element"."value" COLLATE SWIFTDATA_STRING > ?)))) ORDER BY "_pk""#,
            postgres: #"WHERE NOT (EXISTS (SELECT TRUE FROM jsonb_array_elements_text("Row"."tags") AS "#
                + #""_element"("value") WHERE NOT ((normalize("_element"."value", NFC) COLLATE "C" > "#
                + #"normalize($1::text, NFC) COLLATE "C")))) ORDER BY "_pk""#)
    }

    @Test func relationships() throws {
        try sql.check(
            #Predicate<Row> { $0.parent?.string == "x" },
            sqlite: #"WHERE ((SELECT "_r1"."string" FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "Row"."parent")) "#
                + #"COLLATE SWIFTDATA_STRING IS ?) ORDER BY "_pk""#,
            postgres: #"WHERE (normalize((SELECT "_r1"."string" FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "#
                + #""Row"."parent")), NFC) COLLATE "C" IS NOT DISTINCT FROM normalize($1::text, NFC) COLLATE "C") "#
                + #"ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.parent?.parent?.int == 1 || $0.parent == nil },
            sqlite: #"WHERE (((SELECT "_r2"."int" FROM "Row" AS "_r2" WHERE ("_r2"."_pk" = (SELECT "_r1"."parent" "#
                + #"FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "Row"."parent")))) IS ?) OR ("parent" IS NULL)) ORDER "#
                + #"BY "_pk""#,
            postgres: #"WHERE (((SELECT "_r2"."int" FROM "Row" AS "_r2" WHERE ("_r2"."_pk" = (SELECT "#
                + #""_r1"."parent" FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "Row"."parent")))) IS NOT DISTINCT FROM "#
                + #"$1::bigint) OR ("parent" IS NULL)) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.children.contains { $0.int > 3 } },
            sqlite: #"WHERE EXISTS (SELECT 1 FROM "Row" AS "_r1" WHERE (("_r1"."parent" = "Row"."_pk") AND "#
                + #"("_r1"."int" > ?))) ORDER BY "_pk""#,
            postgres: #"WHERE EXISTS (SELECT TRUE FROM "Row" AS "_r1" WHERE (("_r1"."parent" = "Row"."_pk") AND "#
                + #"("_r1"."int" > $1::bigint))) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.children.count > 2 || $0.children.filter { $0.bool }.count == 1 },
            sqlite: #"WHERE (((SELECT count(*) FROM "Row" AS "_r1" WHERE ("_r1"."parent" = "Row"."_pk")) > ?) OR "#
                + #"((SELECT count(*) FROM "Row" AS "_r2" WHERE (("_r2"."parent" = "Row"."_pk") AND ("_r2"."bool" = "#
                + #"1))) = ?)) ORDER BY "_pk""#,
            postgres: #"WHERE (((SELECT count(*) FROM "Row" AS "_r1" WHERE ("_r1"."parent" = "Row"."_pk")) > "#
                + #"$1::bigint) OR ((SELECT count(*) FROM "Row" AS "_r2" WHERE (("_r2"."parent" = "Row"."_pk") AND "#
                + #"("_r2"."bool" = TRUE))) = $2::bigint)) ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.peers.contains { $0.string == "x" } && !$0.peerOf.isEmpty },
            sqlite: #"WHERE (EXISTS (SELECT 1 FROM "Row" AS "_r1" JOIN "Row_peerOf" AS "_r2" ON ("_r2"."owner" = "#
                + #""_r1"."_pk") WHERE (("_r2"."member" = "Row"."_pk") AND ("_r1"."string" COLLATE SWIFTDATA_STRING "#
                + #"= ?))) AND NOT (NOT (EXISTS (SELECT 1 FROM "Row" AS "_r3" JOIN "Row_peerOf" AS "_r4" ON "#
                + #"("_r4"."member" = "_r3"."_pk") WHERE ("_r4"."owner" = "Row"."_pk"))))) ORDER BY "_pk""#,
            postgres: #"WHERE (EXISTS (SELECT TRUE FROM "Row" AS "_r1" JOIN "Row_peerOf" AS "_r2" ON "#
                + #"("_r2"."owner" = "_r1"."_pk") WHERE (("_r2"."member" = "Row"."_pk") AND "#
                + #"(normalize("_r1"."string", NFC) COLLATE "C" = normalize($1::text, NFC) COLLATE "C"))) AND NOT "#
                + #"(NOT (EXISTS (SELECT TRUE FROM "Row" AS "_r3" JOIN "Row_peerOf" AS "_r4" ON ("_r4"."member" = "#
                + #""_r3"."_pk") WHERE ("_r4"."owner" = "Row"."_pk"))))) ORDER BY "_pk""#)
        let id = try #require(try sql.context.fetch(FetchDescriptor<Row>()).first?.persistentModelID)
        try sql.check(
            #Predicate<Row> { $0.persistentModelID == id || $0.parent?.persistentModelID == id },
            sqlite: #"WHERE (("_pk" IS ?) OR (CASE WHEN ("parent" IS NULL) THEN NULL ELSE "parent" END IS ?)) "#
                + #"ORDER BY "_pk""#,
            postgres: #"WHERE (("_pk" IS NOT DISTINCT FROM $1::bigint) OR (CASE WHEN ("parent" IS NULL) THEN NULL "#
                + #"ELSE "parent" END IS NOT DISTINCT FROM $2::bigint)) ORDER BY "_pk""#)
    }

    @Test func sortsAndWindows() throws {
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.int), SortDescriptor(\Row.optionalInt)],
            sqlite: #"ORDER BY "int", "optionalInt", "_pk""#,
            postgres: #"ORDER BY "int", "optionalInt" NULLS FIRST, "_pk""#)
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.optionalString, order: .reverse), SortDescriptor(\Row.decimal)],
            sqlite: #"ORDER BY "optionalString" COLLATE SWIFTDATA_STRING DESC, "decimal" COLLATE "#
                + #"SWIFTDATA_DECIMAL, "_pk""#,
            postgres: #"ORDER BY normalize("optionalString", NFC) COLLATE "C" DESC NULLS LAST, "decimal", "_pk""#)
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.bool, order: .reverse), SortDescriptor(\Row.string)],
            sqlite: #"ORDER BY "bool" DESC, "string" COLLATE SWIFTDATA_STRING, "_pk""#,
            postgres: #"ORDER BY "bool" DESC, normalize("string", NFC) COLLATE "C", "_pk""#)
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.parent?.string), SortDescriptor(\Row.parent?.int, order: .reverse)],
            sqlite: #"ORDER BY (SELECT "_r1"."string" FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "Row"."parent")) "#
                + #"COLLATE SWIFTDATA_STRING, (SELECT "_r2"."int" FROM "Row" AS "_r2" WHERE ("_r2"."_pk" = "#
                + #""Row"."parent")) DESC, "_pk""#,
            postgres: #"ORDER BY normalize((SELECT "_r1"."string" FROM "Row" AS "_r1" WHERE ("_r1"."_pk" = "#
                + #""Row"."parent")), NFC) COLLATE "C" NULLS FIRST, (SELECT "_r2"."int" FROM "Row" AS "_r2" WHERE "#
                + #"("_r2"."_pk" = "Row"."parent")) DESC NULLS LAST, "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.int > 0 }, sortBy: [SortDescriptor(\Row.int)], limit: 10, offset: 20,
            sqlite: #"WHERE ("int" > ?) ORDER BY "int", "_pk" LIMIT ? OFFSET ?"#,
            postgres: #"WHERE ("int" > $1::bigint) ORDER BY "int", "_pk" LIMIT $2::bigint OFFSET $3::bigint"#)
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.int)], limit: 10,
            sqlite: #"ORDER BY "int", "_pk" LIMIT ? OFFSET ?"#,
            postgres: #"ORDER BY "int", "_pk" LIMIT $1::bigint"#)
        try sql.check(
            nil, sortBy: [SortDescriptor(\Row.string, comparator: .localizedStandard)], limit: 10,
            sqlite: #"ORDER BY "string" COLLATE SWIFTDATA_LOCALIZED_STANDARD, "_pk" LIMIT ? OFFSET ?"#,
            postgres: #"ORDER BY "_pk""#, postgresInMemory: "localizedStandard")
    }

    /// A member of a captured value is a constant: the predicate runs in SQL with its value bound.
    @Test func capturedMembersAreConstants() throws {
        struct Owner: Codable, Sendable {
            var name: String
            var address: Address
            var scores: [String: Int]
        }
        let owner = Owner(name: "x", address: Address(street: "s", city: "Paris"), scores: ["a": 1])
        try sql.check(
            #Predicate<Row> { $0.string == owner.name && $0.address.city == owner.address.city },
            sqlite: #"WHERE (("string" COLLATE SWIFTDATA_STRING = ?) AND (json_extract("address", ?) COLLATE "#
                + #"SWIFTDATA_STRING = ?)) ORDER BY "_pk""#,
            postgres: #"WHERE ((normalize("string", NFC) COLLATE "C" = normalize($1::text, NFC) COLLATE "C") AND "#
                + #"(normalize(("address" ->> $2::text), NFC) COLLATE "C" = normalize($3::text, NFC) COLLATE "C")) "#
                + #"ORDER BY "_pk""#)
        try sql.check(
            #Predicate<Row> { $0.int == owner.scores["a"] ?? 0 },
            sqlite: #"WHERE ("int" = ?) ORDER BY "_pk""#,
            postgres: #"WHERE ("int" = $1::bigint) ORDER BY "_pk""#)
    }
}
