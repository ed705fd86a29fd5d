import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres

/// Where the PostgreSQL store differs from the SQLite store, it says so clearly: text with U+0000, and a schema name
/// that is PostgreSQL's own. And a URL made relative to a base URL reads back, on both stores, as the same absolute
/// URL.
@Suite struct PostgresDocumentedDifferencesTests {
    @Test(.enabled(if: PostgresTestServer.isAvailable))
    func textWithANulCharacterIsRefusedNamingTheModelAndProperty() throws {
        let container = try StoreKind.postgres.location().container(Counter.self)
        let context = ModelContext(container)
        context.insert(Counter(label: "before\0after"))
        #expect {
            try context.save()
        } throws: { error in
            let error = error as? SwiftDataError
            return error == .modelValidationFailure && error?.modelName == "Counter"
                && error?.propertyName == "label" && (error?.reason ?? "").contains("U+0000")
        }
        #expect(context.hasChanges, "the context keeps its changes")
        try context.delete(model: Counter.self)
        context.insert(Counter(label: "clean"))
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label) == ["clean"])
    }

    @Test(
        .enabled(if: PostgresTestServer.isAvailable),
        arguments: ["information_schema", "pg_catalog", "pg_toast", "pg_mine"])
    func postgreSQLsOwnSchemaNamesAreRefused(_ name: String) throws {
        let configuration = PostgresConfiguration(url: try PostgresTestServer.shared().url, postgresSchema: name)
        #expect {
            _ = try ModelContainer(for: Counter.self, configurations: configuration)
        } throws: { error in
            let error = error as? SwiftDataError
            return error == .loadIssueModelContainer && (error?.reason ?? "").contains("PostgreSQL's own")
                && (error?.reason ?? "").contains(name)
        }
    }

    @Test(arguments: StoreKind.all)
    func aURLRelativeToABaseReadsBackAsTheSameAbsoluteURL(_ kind: StoreKind) throws {
        let location = kind.location()
        let container = try location.container(Sample.self)
        let base = try #require(URL(string: "https://example.com/docs/"))
        let relative = try #require(URL(string: "guide/intro.html?x=1", relativeTo: base))
        let context = ModelContext(container)
        let model = Sample()
        model.optionalURL = relative
        context.insert(model)
        try context.save()
        let read = try #require(try ModelContext(container).fetch(FetchDescriptor<Sample>()).first?.optionalURL)
        #expect(read == relative.absoluteURL, "\(kind)")
        #expect(read.absoluteString == "https://example.com/docs/guide/intro.html?x=1", "\(kind)")
    }
}
