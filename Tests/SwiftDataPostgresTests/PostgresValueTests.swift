import Foundation
import PostgresTestSupport
import Testing

@testable import SwiftDataPostgres

/// Every type the client layer sends and reads, with its extremes, through a table and back, in binary and in
/// text results.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresValueTests {
    /// Inserts each value into a column of `type`, reads them back in both formats with `read`, and returns what
    /// was read beside what was sent.
    func roundTrip<Value>(
        _ type: String, _ values: [PostgresValue], read: (PostgresResult, Int) throws -> Value?
    ) throws -> [(read: Value?, sent: PostgresValue, format: PostgresFormat)] {
        let connection = try connect()
        let table = uniqueName("values")
        try connection.execute("CREATE TEMPORARY TABLE \(table) (position int8, value \(type))")
        for (position, value) in values.enumerated() {
            try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [.int8(Int64(position)), value])
        }
        var pairs: [(read: Value?, sent: PostgresValue, format: PostgresFormat)] = []
        for format in [PostgresFormat.binary, .text] {
            let result = try connection.query("SELECT value FROM \(table) ORDER BY position", format: format)
            #expect(result.rowCount == values.count)
            for (row, value) in values.enumerated() { pairs.append((try read(result, row), value, format)) }
        }
        return pairs
    }

    @Test func integers() throws {
        let values: [Int64?] = [0, 1, -1, 42, .min, .max, nil]
        for (read, sent, format) in try roundTrip(
            "int8", values.map { $0.map { .int8($0) } ?? .null }, read: { try $0.int64($1, 0) })
        {
            #expect(read.map { .int8($0) } ?? .null == sent, "\(format)")
        }
    }

    @Test func keyArraysArriveWhole() throws {
        let connection = try connect()
        for keys in [[], [7], [0, 1, -1, .min, .max, 42]] as [[Int64]] {
            let result = try connection.query(
                "SELECT cardinality($1::bigint[]), array_to_string($1::bigint[], ','), 42 = ANY($1::bigint[])",
                [.int8Array(keys)])
            #expect(try result.int64(0, 0) == Int64(keys.count))
            #expect(try result.string(0, 1) == keys.map(String.init).joined(separator: ","))
            #expect(try result.bool(0, 2) == keys.contains(42))
        }
    }

    @Test func smallerIntegerColumnsReadAsInt64() throws {
        let connection = try connect()
        for format in [PostgresFormat.binary, .text] {
            let result = try connection.query(
                "SELECT (-32768)::int2, 2147483647::int4, 4294967295::oid", format: format)
            #expect(try result.int64(0, 0) == -32768)
            #expect(try result.int64(0, 1) == 2_147_483_647)
            #expect(try result.int64(0, 2) == 4_294_967_295)
        }
    }

    @Test func doubles() throws {
        let values: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .pi, 0.1 + 0.2, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            -1e-300,
        ]
        for (read, sent, format) in try roundTrip("float8", values.map { .float8($0) }, read: { try $0.double($1, 0) })
        {
            guard case .float8(let sent) = sent, let read else {
                Issue.record("no value")
                continue
            }
            #expect(read.bitPattern == sent.bitPattern || (read.isNaN && sent.isNaN), "\(sent) \(format)")
        }
    }

    @Test func strings() throws {
        let values = [
            "", "plain", "héllo wörld", "日本語 🎉 مرحبا", "quote ' and \\ backslash \"", "line\nbreak\ttab",
            String(repeating: "long text ", count: 20_000),
        ]
        for (read, sent, format) in try roundTrip("text", values.map { .text($0) }, read: { try $0.string($1, 0) }) {
            #expect(read.map { .text($0) } == sent, "\(format)")
        }
    }

    @Test func aStringWithNULIsRefusedNotCut() throws {
        let connection = try connect()
        #expect(throws: PostgresError.self) { try connection.query("SELECT $1::text", [.text("a\u{0}b")]) }
    }

    @Test func booleans() throws {
        for (read, sent, format) in try roundTrip(
            "bool", [.bool(true), .bool(false), .null], read: { try $0.bool($1, 0) })
        {
            #expect(read.map { .bool($0) } ?? .null == sent, "\(format)")
        }
    }

    @Test func bytes() throws {
        var generator = SystemRandomNumberGenerator()
        var large = Data(count: 4 << 20)
        large.withUnsafeMutableBytes { bytes in
            for index in bytes.bindMemory(to: UInt64.self).indices {
                bytes.storeBytes(of: generator.next(), toByteOffset: index * 8, as: UInt64.self)
            }
        }
        let values = [Data(), Data([0]), Data(0...255), large]
        for (read, sent, format) in try roundTrip("bytea", values.map { .bytea($0) }, read: { try $0.data($1, 0) }) {
            #expect(read.map { .bytea($0) } == sent, "\(format) \(read?.count ?? -1) bytes")
        }
    }

    @Test func decimals() throws {
        let values: [Decimal] = [
            0, 1, -1.5, Decimal(string: "123.4500")!, Decimal(string: "12345678901234567890.123456789012345678")!,
            Decimal(string: "-99999999999999999999999999999999999999")!,
            Decimal(string: "0.00000000000000000000000000000000000001")!, Decimal(string: "1e100")!,
            Decimal(string: "-3.4e-100")!, Decimal(string: "10000")!, Decimal(string: "0.0001")!, .nan,
        ]
        for (read, sent, format) in try roundTrip(
            "numeric", values.map { .numeric($0) }, read: { try $0.decimal($1, 0) })
        {
            guard case .numeric(let sent) = sent, let read else {
                Issue.record("no value")
                continue
            }
            #expect(read == sent || (read.isNaN && sent.isNaN), "\(sent) came back as \(read) (\(format))")
        }
    }

    @Test func uuids() throws {
        let values = [
            UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
            UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
        ]
        for (read, sent, format) in try roundTrip("uuid", values.map { .uuid($0) }, read: { try $0.uuid($1, 0) }) {
            #expect(read.map { .uuid($0) } == sent, "\(format)")
        }
    }

    @Test func dates() throws {
        let values = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0.5), Date(timeIntervalSince1970: -0.000001),
            Date(timeIntervalSince1970: -1_000_000_000.123456),
            Date(timeIntervalSinceReferenceDate: 123_456_789.654321),
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: -62_135_596_800),  // 0001-01-01
            Date(timeIntervalSince1970: -70_000_000_000),  // 249 BC
            Date(timeIntervalSince1970: 253_402_300_799.999999),  // 9999-12-31 23:59:59.999999
            Date(timeIntervalSince1970: 4_102_444_800.25),  // 2100
            Date(timeIntervalSinceReferenceDate: .infinity), Date(timeIntervalSinceReferenceDate: -.infinity),
        ]
        for (read, sent, format) in try roundTrip(
            "timestamptz", values.map { .timestamptz($0) }, read: { try $0.date($1, 0) })
        {
            #expect(
                read.map { .timestamptz($0) } == sent, "\(sent) came back as \(String(describing: read)) (\(format))")
        }
    }

    @Test func datesKeepMicrosecondsAndRoundFinerFractions() throws {
        let connection = try connect()
        let date = Date(timeIntervalSinceReferenceDate: 21_692_800.123_456_7)
        let result = try connection.query("SELECT $1::timestamptz, $1::timestamptz::text", [.timestamptz(date)])
        #expect(try result.string(0, 1)?.hasPrefix("2001-09-09 01:46:40.123457") == true)
        #expect(try result.date(0, 0) == Date(timeIntervalSinceReferenceDate: 21_692_800.123_457))
    }

    /// Times without a zone, dates, offsets and years BC, against the server's own count of seconds since 1970.
    @Test func timestampsAndDatesWithoutZoneReadAsUTC() throws {
        let connection = try connect()
        let literals = [
            "'1969-07-20 20:17:40.5'::timestamp", "'1969-07-20'::date", "'1969-07-20 20:17:40.5-05:30'::timestamptz",
            "'0044-03-15 12:00:00 BC'::timestamp", "'4713-11-24 00:00:00.000001 BC'::timestamptz",
            "'294276-12-31 23:59:59.999999'::timestamp",
        ]
        let sql = "SELECT " + literals.map { "\($0), extract(epoch FROM \($0))::float8" }.joined(separator: ", ")
        for format in [PostgresFormat.binary, .text] {
            let result = try connection.query(sql, format: format)
            for index in literals.indices {
                let date = try result.date(0, 2 * index)
                let epoch = try result.double(0, 2 * index + 1)
                #expect(date?.timeIntervalSince1970 == epoch, "\(literals[index]) \(format)")
            }
        }
    }

    @Test func json() throws {
        let values = ["{}", "[]", #"{"a": [1, 2.5, "ü", null, true], "b": {"c": "quote \" inside"}}"#, "\"text\"", "3"]
        for (read, sent, format) in try roundTrip("jsonb", values.map { .jsonb($0) }, read: { try $0.string($1, 0) }) {
            #expect(read.map { .jsonb($0) } == sent, "\(format)")
        }
    }

    @Test func nullsOfEveryTypeReadAsNil() throws {
        let connection = try connect()
        let types = ["int8", "float8", "text", "bytea", "bool", "numeric", "uuid", "timestamptz", "jsonb"]
        for format in [PostgresFormat.binary, .text] {
            let result = try connection.query(
                "SELECT " + types.map { "NULL::\($0)" }.joined(separator: ", "), format: format)
            #expect(try result.int64(0, 0) == nil)
            #expect(try result.double(0, 1) == nil)
            #expect(try result.string(0, 2) == nil)
            #expect(try result.data(0, 3) == nil)
            #expect(try result.bool(0, 4) == nil)
            #expect(try result.decimal(0, 5) == nil)
            #expect(try result.uuid(0, 6) == nil)
            #expect(try result.date(0, 7) == nil)
            #expect(try result.string(0, 8) == nil)
            for column in types.indices { #expect(try result.value(0, column) == .null) }
        }
    }

    @Test func valueReadsEachTypeAsItsCase() throws {
        let connection = try connect()
        let sent: [PostgresValue] = [
            .bool(true), .int8(7), .float8(2.5), .text("t"), .bytea(Data([1, 2])), .numeric(Decimal(string: "1.25")!),
            .uuid(UUID()), .timestamptz(Date(timeIntervalSince1970: 12.5)), .jsonb(#"{"k": 1}"#),
        ]
        let placeholders = sent.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        for format in [PostgresFormat.binary, .text] {
            let result = try connection.query("SELECT \(placeholders)", sent, format: format)
            #expect(try sent.indices.map { try result.value(0, $0) } == sent, "\(format)")
        }
    }

    @Test func readingAColumnAsTheWrongTypeThrowsNamingIt() throws {
        let connection = try connect()
        let result = try connection.query("SELECT 'text'::text AS label, 5::int8 AS number")
        #expect(throws: PostgresError.self) { try result.int64(0, 0) }
        do {
            _ = try result.uuid(0, 1)
            Issue.record("no error")
        } catch let error as PostgresError {
            #expect(error.kind == .decoding)
            #expect(error.message.contains("number") && error.message.contains("int8"), "\(error)")
        }
        #expect(throws: PostgresError.self) { try result.int64(1, 0) }
        #expect(throws: PostgresError.self) { try result.int64(0, 2) }
        #expect(throws: PostgresError.self) { try result.int64(-1, 0) }
    }
}
