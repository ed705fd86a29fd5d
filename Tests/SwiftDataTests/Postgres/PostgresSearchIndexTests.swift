import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres
@testable import SwiftDataSQL

/// The PostgreSQL store keeps a `.search` index as a `pg_trgm` GIN index on the column's folded text, which the
/// condition fetches add serves; migrations add and drop it.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresSearchIndexTests {
    typealias Note = SearchVersions.Note

    func rows(_ sql: String) throws -> [String] {
        let result = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString).execute(sql)
        return try (0..<result.rowCount).map { row in
            try (0..<result.columnCount).map { try result.string(row, $0) ?? "NULL" }.joined(separator: "|")
        }
    }

    @Test func theIndexIsAGINTrigramIndexThatTheFetchConditionUses() throws {
        let location = StoreKind.postgres.location()
        let schema = location.postgresSchema
        do {
            let context = ModelContext(try location.container(SearchVersions.Plain.Note.self))
            context.insert(SearchVersions.Plain.Note(title: "old", body: "An old Café fox"))
            try context.save()
        }
        let context = ModelContext(try location.container(Note.self))
        let definitions = try rows(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = '\(schema)' AND indexname = 'Note_search_body'")
        #expect(definitions.count == 1)
        #expect(definitions.first?.contains("USING gin (") == true, "\(definitions)")
        #expect(definitions.first?.contains(".swiftdata_search_text(body) ") == true, "\(definitions)")
        #expect(definitions.first?.contains("gin_trgm_ops)") == true, "\(definitions)")
        let plan = try rows(
            """
            SET enable_seqscan = off; EXPLAIN SELECT "_pk" FROM "\(schema)"."Note" \
            WHERE "\(schema)".swiftdata_search_text("body") LIKE '%cafe%'
            """)
        #expect(plan.contains { $0.contains("Note_search_body") }, "\(plan)")
        let (found, _) = try capturingLog {
            try context.fetch(
                FetchDescriptor<Note>(predicate: #Predicate { $0.body.localizedStandardContains("CAFE") }))
        }
        #expect(found.map(\.body) == ["An old Café fox"])

        _ = try location.container(SearchVersions.Plain.Note.self)
        #expect(
            try rows("SELECT indexname FROM pg_indexes WHERE schemaname = '\(schema)' AND indexname LIKE '%search%'")
                .isEmpty)
    }

    /// The condition: the folded column `LIKE` the folded needle, its `%`, `_` and `\` escaped; a needle outside
    /// ASCII, or shorter than three characters, is not looked up.
    @Test func theConditionEscapesTheNeedleAndSkipsWhatItCannotServe() {
        let dialect = PostgreSQLDialect()
        var generator = SQLGenerator(dialect: dialect)
        generator.render(.search(key: .column("_pk"), column: .column("body"), index: "i", needle: "50%_a\\b"))
        #expect(generator.statement.sql == #"swiftdata_search_text("body") LIKE $1::text"#)
        #expect(generator.statement.parameters == [.string(#"%50\%\_a\\b%"#)])
        #expect(!dialect.searches("ab"))
        #expect(!dialect.searches("café"))
        #expect(dialect.searches("cafe"))
    }
}
