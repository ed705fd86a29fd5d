import Foundation
import SwiftData
import Testing

/// Models whose `.rtree` indexes would share a name if column names were only joined with `_`.
enum SpatialNames {
    @Model final class Spot {
        #Index<Spot>(.rtree([\.a_b]), .rtree([\.a, \.b]))
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // A name with `_`, on purpose: joined with `_`, `[a_b]` and `[a, b]` read the same.
        var a_b: Double
        var a: Double
        var b: Double
        init(a_b: Double, a: Double, b: Double) {
            self.a_b = a_b
            self.a = a
            self.b = b
        }
    }

    @Model final class Mark {
        #Index<Mark>(.rtree([\.x_y]))
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // A name with `_`, on purpose: its index had another name in older stores.
        var x_y: Double
        init(x_y: Double) { self.x_y = x_y }
    }
}

/// Each `.rtree` index has a name of its own, and a store whose index was made under the name older stores used is
/// brought to the new name when it opens.
@Suite struct SpatialIndexNameTests {
    typealias Spot = SpatialNames.Spot
    typealias Mark = SpatialNames.Mark

    func virtualTables(_ store: URL) throws -> String {
        try sqlite(store, "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
    }

    @Test func indexesOfAColumnWithAnUnderscoreAndOfTwoColumnsHaveTheirOwnNames() throws {
        let location = StoreKind.sqlite.location()
        let context = ModelContext(try makeContainer(Spot.self, in: location))
        context.insert(Spot(a_b: 1, a: 10, b: 20))
        context.insert(Spot(a_b: 5, a: 1, b: 2))
        try context.save()
        #expect(try virtualTables(location.store()) == "4Spot5rtree3a_b\nSpot_rtree_a_b\n")
        let byColumn = try context.fetch(FetchDescriptor(predicate: #Predicate<Spot> { $0.a_b > 4 && $0.a_b < 6 }))
        #expect(byColumn.map(\.a) == [1])
        let (west, east, south, north): (Double, Double, Double, Double) = (9, 11, 19, 21)
        let box = #Predicate<Spot> { $0.a > west && $0.a < east && $0.b > south && $0.b < north }
        let byBox = try context.fetch(FetchDescriptor(predicate: box))
        #expect(byBox.map(\.a_b) == [1])
        #expect(try sqlite(location.store(), "SELECT count(*) FROM \"4Spot5rtree3a_b\"") == "2\n")
        #expect(try sqlite(location.store(), "SELECT count(*) FROM Spot_rtree_a_b") == "2\n")
    }

    /// A store written before names were unambiguous holds the index of `x_y` as `Mark_rtree_x_y`: opening it makes
    /// the index again under its name, drops the old one with its triggers, and finds every row through it.
    @Test func anIndexUnderItsOldNameIsMadeAgainUnderItsNameWhenTheStoreOpens() throws {
        let location = StoreKind.sqlite.location()
        do {
            let context = ModelContext(try makeContainer(Mark.self, in: location))
            context.insert(Mark(x_y: 1))
            context.insert(Mark(x_y: 2))
            try context.save()
        }
        // The index as older stores made it.
        _ = try sqlite(
            location.store(),
            """
            DROP TRIGGER "4Mark5rtree3x_y_insert"; DROP TRIGGER "4Mark5rtree3x_y_update";
            DROP TRIGGER "4Mark5rtree3x_y_delete"; DROP TABLE "4Mark5rtree3x_y";
            CREATE VIRTUAL TABLE "Mark_rtree_x_y" USING rtree("id", "x_y_min", "x_y_max");
            INSERT INTO "Mark_rtree_x_y" SELECT "_pk", coalesce("x_y", -9e999), coalesce("x_y", 9e999) FROM "Mark";
            CREATE TRIGGER "Mark_rtree_x_y_insert" AFTER INSERT ON "Mark" BEGIN
            INSERT INTO "Mark_rtree_x_y" VALUES (new."_pk", coalesce(new."x_y", -9e999), coalesce(new."x_y", 9e999));
            END;
            """)
        #expect(try virtualTables(location.store()) == "Mark_rtree_x_y\n")
        let context = ModelContext(try makeContainer(Mark.self, in: location))
        #expect(try virtualTables(location.store()) == "4Mark5rtree3x_y\n")
        let triggers = try sqlite(
            location.store(), "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        #expect(triggers == "4Mark5rtree3x_y_delete\n4Mark5rtree3x_y_insert\n4Mark5rtree3x_y_update\n")
        context.insert(Mark(x_y: 3))
        try context.save()
        let found = try context.fetch(
            FetchDescriptor(predicate: #Predicate<Mark> { $0.x_y > 1.5 }, sortBy: [SortDescriptor(\.x_y)]))
        #expect(found.map(\.x_y) == [2, 3])
        #expect(try sqlite(location.store(), "SELECT count(*) FROM \"4Mark5rtree3x_y\"") == "3\n")
    }
}
