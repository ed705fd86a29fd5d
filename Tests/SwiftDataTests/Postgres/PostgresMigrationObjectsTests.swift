import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// A pamphlet, then without its note, then with its note renamed.
enum PamphletV1 {
    @Model final class Pamphlet {
        var title: String
        var note: String?
        init(title: String, note: String?) {
            self.title = title
            self.note = note
        }
    }
}

enum PamphletWithoutNote {
    @Model final class Pamphlet {
        var title: String
        init(title: String) { self.title = title }
    }
}

enum PamphletRenamedNote {
    @Model final class Pamphlet {
        var title: String
        @Attribute(originalName: "note") var remark: String?
        init(title: String, remark: String?) {
            self.title = title
            self.remark = remark
        }
    }
}

/// A place with an `.rtree` index, which the PostgreSQL store keeps as a btree index of each column.
enum PostgresSpatial {
    @Model final class Place {
        #Index<Place>(.rtree([\.latitude, \.longitude]), .binary([\.latitude]))
        var latitude: Double
        var longitude: Double
        var name: String
        init(latitude: Double, longitude: Double, name: String) {
            self.latitude = latitude
            self.longitude = longitude
            self.name = name
        }
    }
}

/// What a PostgreSQL migration does with the program's own objects on the store's tables (views, triggers), and the
/// indexes it makes for `.rtree`.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresMigrationObjectsTests {
    func superuser() throws -> PostgresConnection {
        try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
    }

    func rows(_ sql: String) throws -> [String] {
        let result = try superuser().execute(sql)
        return try (0..<result.rowCount).map { row in
            try (0..<result.columnCount).map { try result.string(row, $0) ?? "NULL" }.joined(separator: "|")
        }
    }

    func makeStore(_ location: StoreLocation) throws {
        let context = ModelContext(try location.container(PamphletV1.Pamphlet.self))
        context.insert(PamphletV1.Pamphlet(title: "Tides", note: "keep"))
        try context.save()
    }

    /// The migration does not drop the program's view with `CASCADE`: it fails, naming the model, the property, the
    /// view and what to do, and leaves the store, its rows and the view as they were.
    @Test func aViewOnARemovedColumnFailsTheMigrationNamingItAndKeepsTheStore() throws {
        let location = StoreKind.postgres.location()
        try makeStore(location)
        let schema = location.postgresSchema
        try superuser().execute(
            "CREATE VIEW \"\(schema)\".\"notes\" AS SELECT \"title\", \"note\" FROM \"\(schema)\".\"Pamphlet\"")
        do {
            _ = try location.container(PamphletWithoutNote.Pamphlet.self)
            Issue.record("the migration dropped a column a view needs")
        } catch let error as SwiftDataError {
            #expect(error == SwiftDataError.loadIssueModelContainer)
            #expect(error.modelName == "Pamphlet")
            #expect(error.propertyName == "note")
            #expect(error.reason?.contains("view \"\(schema)\".notes depends on it") == true, "\(error)")
            #expect(error.suggestion?.contains("DROP VIEW") == true, "\(error)")
        }
        #expect(try rows("SELECT \"title\", \"note\" FROM \"\(schema)\".\"notes\"") == ["Tides|keep"])
        let context = ModelContext(try location.container(PamphletV1.Pamphlet.self))
        #expect(try context.fetch(FetchDescriptor<PamphletV1.Pamphlet>()).map(\.note) == ["keep"])
        // Once the program drops its view, the migration goes through.
        try superuser().execute("DROP VIEW \"\(schema)\".\"notes\"")
        let migrated = ModelContext(try location.container(PamphletWithoutNote.Pamphlet.self))
        #expect(try migrated.fetch(FetchDescriptor<PamphletWithoutNote.Pamphlet>()).map(\.title) == ["Tides"])
    }

    /// A view on a renamed column follows the rename; a trigger's function still names the old column, which the
    /// migration finds (and warns of, naming the trigger), without failing.
    @Test func aTriggerWhoseFunctionNamesARenamedColumnIsFound() throws {
        let (_, log) = try capturingLog {
            let location = StoreKind.postgres.location()
            try makeStore(location)
            let schema = location.postgresSchema
            try superuser().execute(
                """
                CREATE VIEW "\(schema)"."notes" AS SELECT "note" FROM "\(schema)"."Pamphlet";
                CREATE FUNCTION "\(schema)"."check_note"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.note = '' THEN RAISE EXCEPTION 'empty note'; END IF; RETURN NEW; END $$;
                CREATE FUNCTION "\(schema)"."unrelated"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN NEW.title = upper(NEW.title); RETURN NEW; END $$;
                CREATE TRIGGER "pamphlet_note" BEFORE INSERT ON "\(schema)"."Pamphlet"
                FOR EACH ROW EXECUTE FUNCTION "\(schema)"."check_note"();
                CREATE TRIGGER "pamphlet_title" BEFORE INSERT ON "\(schema)"."Pamphlet"
                FOR EACH ROW EXECUTE FUNCTION "\(schema)"."unrelated"();
                """)
            let context = ModelContext(try location.container(PamphletRenamedNote.Pamphlet.self))
            #expect(try context.fetch(FetchDescriptor<PamphletRenamedNote.Pamphlet>()).map(\.remark) == ["keep"])
            #expect(try rows("SELECT * FROM \"\(schema)\".\"notes\"") == ["keep"])
            let migration = PostgresMigration(
                connection: try superuser(), recorded: StoredSchema(entities: []),
                configuration: PostgresConfiguration(url: try PostgresTestServer.shared().url, postgresSchema: schema),
                identifier: "")
            #expect(
                try migration.triggers(naming: "note", of: "Pamphlet")
                    == ["trigger pamphlet_note on Pamphlet (function check_note)"])
            #expect(try migration.triggers(naming: "remark", of: "Pamphlet").isEmpty)
        }
        #expect(
            log.count == 1
                && log[0].hasPrefix(
                    "SwiftData warning: the migration of Pamphlet renamed its column note to remark, but trigger pamphlet_note on Pamphlet (function check_note) still names note"
                ), "\(log)")
    }

    /// PostgreSQL has no R*Tree: each column of an `.rtree` index gets a btree index (one the models already declare
    /// is not made twice), and a bounded fetch can combine them.
    @Test func anRTreeIndexIsABtreeIndexOfEachColumn() throws {
        let location = StoreKind.postgres.location()
        let context = ModelContext(try location.container(PostgresSpatial.Place.self))
        context.insert(PostgresSpatial.Place(latitude: 45.5, longitude: 7.5, name: "Aosta"))
        context.insert(PostgresSpatial.Place(latitude: 48.8, longitude: 2.3, name: "Paris"))
        try context.save()
        let indexes = try rows(
            """
            SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = '\(location.postgresSchema)' \
            AND tablename = 'Place' AND indexname <> 'Place_pkey' ORDER BY indexname
            """)
        #expect(indexes.count == 2, "\(indexes)")
        #expect(indexes.first?.hasPrefix("Place_index_latitude|CREATE INDEX") == true, "\(indexes)")
        #expect(indexes.last?.hasPrefix("Place_index_longitude|CREATE INDEX") == true, "\(indexes)")
        #expect(indexes.last?.hasSuffix("USING btree (longitude)") == true, "\(indexes)")
        let (south, north, west, east): (Double, Double, Double, Double) = (45, 46, 7, 8)
        let box = #Predicate<PostgresSpatial.Place> {
            $0.latitude >= south && $0.latitude <= north && $0.longitude >= west && $0.longitude <= east
        }
        let found = try context.fetch(FetchDescriptor(predicate: box))
        #expect(found.map(\.name) == ["Aosta"])
        let plan = try rows(
            """
            SET enable_seqscan = off; EXPLAIN SELECT * FROM "\(location.postgresSchema)"."Place" \
            WHERE latitude >= 45 AND latitude <= 46 AND longitude >= 7 AND longitude <= 8
            """
        ).joined(separator: "\n")
        #expect(plan.contains("Place_index_longitude") || plan.contains("Place_index_latitude"), "\(plan)")
    }

    /// A store made before `.rtree` had indexes on PostgreSQL gets them when it next opens.
    @Test func aStoreWithoutTheIndexesOfItsRTreeGetsThemWhenItOpens() throws {
        let location = StoreKind.postgres.location()
        _ = try location.container(PostgresSpatial.Place.self)
        try superuser().execute("DROP INDEX \"\(location.postgresSchema)\".\"Place_index_longitude\"")
        let query = """
            SELECT indexname FROM pg_indexes WHERE schemaname = '\(location.postgresSchema)' \
            AND indexname = 'Place_index_longitude'
            """
        #expect(try rows(query).isEmpty)
        _ = try location.container(PostgresSpatial.Place.self)
        #expect(try rows(query) == ["Place_index_longitude"])
    }
}
