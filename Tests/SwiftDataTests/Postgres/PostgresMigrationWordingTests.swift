import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// A booklet with an author whose booklets are in order (the booklet's table has the key and position columns of
/// `author`), then without that relationship.
enum BookletV1 {
    @Model final class Booklet {
        var title: String
        var author: Writer?
        init(title: String) { self.title = title }
    }

    @Model final class Writer {
        var name: String
        @Relationship(inverse: \Booklet.author) var booklets: [Booklet] = []
        init(name: String) { self.name = name }
    }
}

/// A leaflet with a note; no other test has a table of that name, whose triggers this one looks for everywhere.
enum LeafletV1 {
    @Model final class Leaflet {
        var title: String
        var note: String?
        init(title: String, note: String?) {
            self.title = title
            self.note = note
        }
    }
}

enum BookletWithoutAuthor {
    @Model final class Booklet {
        var title: String
        init(title: String) { self.title = title }
    }

    @Model final class Writer {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// What a PostgreSQL migration says about the program's objects: the triggers whose functions name a renamed column
/// (in code, not in comments or strings; on other tables only with the table named too, in any PostgreSQL schema),
/// and a view on a removed relationship's column, named as the relationship's.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresMigrationWordingTests {
    func superuser() throws -> PostgresConnection {
        try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
    }

    /// Before, the comment's and the string's functions counted, the other table's trigger that does not name the
    /// table counted, and the trigger of another PostgreSQL schema that writes the store's table was not found.
    @Test func onlyTriggersWhoseCodeNamesTheColumnOfTheTableAreFound() throws {
        let location = StoreKind.postgres.location()
        let context = ModelContext(try location.container(LeafletV1.Leaflet.self))
        context.insert(LeafletV1.Leaflet(title: "Tides", note: "keep"))
        try context.save()
        let schema = location.postgresSchema
        let other = "\(schema)_other"
        func trigger(_ name: String, on table: String, body: String) -> String {
            """
            CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \(body) RETURN NEW; END $$;
            CREATE TRIGGER \(name) BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)();
            """
        }
        try superuser().execute(
            """
            SET search_path TO "\(schema)";
            CREATE TABLE "Log" ("note" text);
            CREATE SCHEMA "\(other)";
            CREATE TABLE "\(other)"."Audit" ("id" int);
            \(trigger("in_code", on: "\"Leaflet\"", body: "IF NEW.note = '' THEN RAISE EXCEPTION 'x'; END IF;"))
            \(trigger("in_comment", on: "\"Leaflet\"", body: "-- the note is checked elsewhere\n /* note */"))
            \(trigger("in_string", on: "\"Leaflet\"", body: "RAISE NOTICE 'a note, it''s note';"))
            \(trigger("other_table", on: "\"Log\"", body: "NEW.note = upper(NEW.note);"))
            \(trigger("other_schema", on: "\"\(other)\".\"Audit\"",
                body: "UPDATE \"\(schema)\".\"Leaflet\" SET note = 'audited';"))
            """)
        let migration = PostgresMigration(
            connection: try superuser(), recorded: StoredSchema(entities: []),
            configuration: PostgresConfiguration(url: try PostgresTestServer.shared().url, postgresSchema: schema),
            identifier: "")
        #expect(
            try migration.triggers(naming: "note", of: "Leaflet") == [
                "trigger in_code on Leaflet (function in_code)",
                "trigger other_schema on Audit (function other_schema)",
            ])
        try superuser().execute("DROP SCHEMA \"\(other)\" CASCADE")
    }

    /// A view on the position column of a removed relationship: the error names the relationship as the property,
    /// and says which of its columns the view needs. Before, it named the column as if it were a property.
    @Test func aViewOnARemovedRelationshipsColumnNamesTheRelationship() throws {
        let location = StoreKind.postgres.location()
        do {
            let context = ModelContext(try location.container(BookletV1.Booklet.self, BookletV1.Writer.self))
            let writer = BookletV1.Writer(name: "Ann")
            let booklet = BookletV1.Booklet(title: "Tides")
            context.insert(writer)
            writer.booklets.append(booklet)
            try context.save()
        }
        let schema = location.postgresSchema
        let position = Schema.Relationship.positionColumn(of: "author")
        for (column, words) in [
            (position, "the position column \(position) of the relationship Booklet.author"),
            ("author", "the key column of the relationship Booklet.author"),
        ] {
            try superuser().execute(
                "CREATE VIEW \"\(schema)\".\"authors\" AS SELECT \"\(column)\" FROM \"\(schema)\".\"Booklet\"")
            do {
                _ = try location.container(BookletWithoutAuthor.Booklet.self, BookletWithoutAuthor.Writer.self)
                Issue.record("the migration dropped a column a view needs")
            } catch let error as SwiftDataError {
                #expect(error == SwiftDataError.loadIssueModelContainer)
                #expect(error.modelName == "Booklet")
                #expect(error.propertyName == "author")
                #expect(error.reason?.contains("removes \(words), but view") == true, "\(error)")
            }
            try superuser().execute("DROP VIEW \"\(schema)\".\"authors\"")
        }
    }
}
