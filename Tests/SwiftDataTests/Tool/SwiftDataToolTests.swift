import Foundation
import PostgresTestSupport
import SwiftData
import SwiftDataPostgres
import Testing

@testable import ExampleModels

/// The `swiftdata` tool on both stores: inspect, dump, copy (SQLite to PostgreSQL and back, compared row by row) and
/// check, its errors, and that it never writes to a source store.
@Suite struct SwiftDataToolTests {
    /// A location's store filled with `books` of the tool's books.
    func library(_ kind: StoreKind, books: Int) throws -> StoreLocation {
        let location = kind.location()
        try ToolLibrary.fill(location.container(Schema(ToolLibrary.types)), books: books)
        return location
    }

    @Test(arguments: StoreKind.all) func inspectShowsWhatTheStoreRecords(_ kind: StoreKind) throws {
        let location = try library(kind, books: 30)
        let result = swiftdata("inspect", try location.toolAddress())
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let data = kind == .sqlite ? "blob" : "bytea"
        for expected in [
            "Schema version: 1.0.0", "ToolBook: 30 rows", "ToolShelf: 1 row", "ToolTag: 20 rows",
            "  cover: Data (\(data)) [externalStorage]", "  shelf -> ToolShelf (column, inverse books)",
            "  tags -> [ToolTag] (join:ToolBook_tags:owner, inverse books)", "  unique [name]",
        ] {
            #expect(lines.contains(expected), "\(expected) in \(result.output)")
        }
        #expect(lines.contains { $0.hasPrefix("History: 1 transaction, ") && $0.hasSuffix(" bytes, oldest token 1") })
        #expect(lines.contains { $0.hasPrefix("External storage: 3 values, ") }, "\(result.output)")
    }

    @Test(arguments: StoreKind.all) func dumpWritesRowsAsJSONLinesAndCSV(_ kind: StoreKind) throws {
        let location = try library(kind, books: 12)
        let shelves = swiftdata("dump", try location.toolAddress(), "--entity", "ToolShelf")
        #expect(shelves.status == 0, "\(shelves.errors)")
        let line = try #require(shelves.output.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["_entity"] as? String == "ToolShelf")
        #expect(object["name"] as? String == "shelf 0")
        // The books in the shelf's order, as the app sees them.
        let books = swiftdata("dump", try location.toolAddress(), "--entity", "ToolBook")
        var titles: [Int: String] = [:]
        for line in books.output.split(separator: "\n") {
            let book = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            titles[try #require(book["_pk"] as? Int)] = book["title"] as? String
        }
        let container = try location.container(Schema(ToolLibrary.types))
        let shelf = try #require(try ModelContext(container).fetch(FetchDescriptor<ToolShelf>()).first)
        let dumped = try #require(object["books"] as? [Int])
        #expect(dumped.count == 12)
        #expect(dumped.map { titles[$0] } == shelf.books.map(\.title))
        let csv = swiftdata("dump", try location.toolAddress(), "--entity", "ToolTag", "--format", "csv")
        #expect(csv.output.hasPrefix("_pk,name,books\n1,tag 0,"), "\(csv.output.prefix(200))")
        #expect(csv.output.split(separator: "\n").count == 21)
        let all = swiftdata("dump", try location.toolAddress())
        #expect(all.output.split(separator: "\n").count == 1 + 12 + 20)
        #expect(swiftdata("dump", try location.toolAddress(), "--entity", "Nope").status == 3)
        #expect(swiftdata("dump", try location.toolAddress(), "--format", "xml").status == 2)
    }
}
