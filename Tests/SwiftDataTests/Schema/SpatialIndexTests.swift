import Foundation
import SwiftData
import Testing

/// A spot, before and after it gained an `.rtree` index.
enum SpatialVersions {
    @Model final class Spot {
        var name: String
        var x: Double
        var y: Int
        init(name: String, x: Double, y: Int) {
            self.name = name
            self.x = x
            self.y = y
        }
    }

    enum Indexed {
        @Model final class Spot {
            #Index<Spot>(.rtree([\.x, \.y]))
            var name: String
            var x: Double
            var y: Int
            init(name: String, x: Double, y: Int) {
                self.name = name
                self.x = x
                self.y = y
            }
        }
    }

    /// An `.rtree` index on a string, which R*Tree cannot hold.
    @Model final class Label {
        #Index<Label>(.rtree([\.text]))
        var text: String
        init(text: String) { self.text = text }
    }
}

/// `#Index(.rtree(...))` is an R*Tree index that triggers keep current and that range queries use.
@Suite struct SpatialIndexTests {
    private func places(_ context: ModelContext, count: Int = 400) throws {
        var seed: UInt64 = 42
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for index in 0..<count {
            context.insert(
                Place(
                    name: "place \(index)", latitude: next() * 180 - 90, longitude: next() * 360 - 180,
                    elevation: index % 3 == 0 ? nil : Int(next() * 4000)))
        }
        try context.save()
    }

    /// Fetches with `predicate`, checking that SQL selected exactly what `evaluate` selects and whether the
    /// `SELECT` went through the index.
    private func fetch(
        _ predicate: Predicate<Place>, _ context: ModelContext, throughIndex: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Place] {
        let log = StatementLog(context.container)
        let places = try context.fetch(FetchDescriptor(predicate: predicate))
        let selects = log.selects
        #expect(selects.count == 1, sourceLocation: sourceLocation)
        #expect(
            selects.first?.contains(#"IN (SELECT "_spatial"."id" FROM "Place_rtree_latitude_longitude""#)
                == throughIndex, "\(selects)", sourceLocation: sourceLocation)
        let expected = try context.fetch(FetchDescriptor<Place>()).filter(predicate.evaluate)
        #expect(
            Set(places.map(\.persistentModelID)) == Set(expected.map(\.persistentModelID)),
            sourceLocation: sourceLocation)
        return places
    }

    @Test func rangeQueriesUseTheIndex() throws {
        let context = ModelContext(try makeMemoryContainer(Place.self))
        try places(context)
        let south = 10.0
        let north = 40.0
        let inBox = try fetch(
            #Predicate<Place> {
                $0.latitude >= south && $0.latitude <= north && $0.longitude > -60 && $0.longitude < 60
            }, context, throughIndex: true)
        #expect(!inBox.isEmpty)
        #expect(try !fetch(#Predicate<Place> { 0 < $0.latitude && $0.name != "" }, context, throughIndex: true).isEmpty)
        _ = try fetch(#Predicate<Place> { $0.longitude == 12.5 }, context, throughIndex: true)
        _ = try fetch(#Predicate<Place> { $0.latitude > 80 || $0.latitude < -80 }, context, throughIndex: false)
        _ = try fetch(#Predicate<Place> { $0.name == "place 7" }, context, throughIndex: false)
        let count = try context.fetchCount(
            FetchDescriptor<Place>(predicate: #Predicate { $0.latitude >= south && $0.latitude <= north }))
        #expect(
            count
                == (try context.fetch(FetchDescriptor<Place>()).filter { $0.latitude >= south && $0.latitude <= north }
                    .count))
    }

    @Test func triggersKeepTheIndexCurrent() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Place.self, in: directory)
        let context = ModelContext(container)
        try places(context, count: 100)
        let (low, high) = (0.0, 1.0)
        let box = #Predicate<Place> {
            $0.latitude >= low && $0.latitude <= high && $0.longitude >= low && $0.longitude <= high
        }
        #expect(try fetch(box, context, throughIndex: true).isEmpty)

        let all = try context.fetch(FetchDescriptor<Place>(sortBy: [SortDescriptor(\.name)]))
        all[0].latitude = 0.5
        all[0].longitude = 0.5
        all[1].latitude = .nan
        context.delete(all[2])
        context.insert(Place(name: "new", latitude: 0.25, longitude: 0.75))
        try context.save()
        #expect(try fetch(box, context, throughIndex: true).map(\.name).sorted() == ["new", all[0].name])
        let moved = all[1].longitude
        let column = #Predicate<Place> { $0.longitude >= moved && $0.longitude <= moved }
        #expect(
            try fetch(column, context, throughIndex: true).map(\.name) == [all[1].name],
            "a row without a latitude (NaN) is still found by its longitude")

        let rows = try sqlite(directory.store(), "SELECT count(*) FROM Place_rtree_latitude_longitude")
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "100")
        try container.erase()
        let empty = try sqlite(directory.store(), "SELECT count(*) FROM Place_rtree_latitude_longitude")
        #expect(empty.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func migrationsAddAndDropTheIndex() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(SpatialVersions.Spot.self, in: directory))
            for index in 0..<10 { context.insert(SpatialVersions.Spot(name: "\(index)", x: Double(index), y: index)) }
            try context.save()
        }
        do {
            let context = ModelContext(try makeContainer(SpatialVersions.Indexed.Spot.self, in: directory))
            #expect(
                try sqlite(directory.store(), "SELECT count(*) FROM Spot_rtree_x_y")
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "10")
            let log = StatementLog(context.container)
            let found = try context.fetch(
                FetchDescriptor<SpatialVersions.Indexed.Spot>(predicate: #Predicate { $0.x >= 2.5 && $0.y <= 5 }))
            #expect(found.map(\.name).sorted() == ["3", "4", "5"])
            #expect(log.selects.first?.contains("Spot_rtree_x_y") == true)
        }
        _ = try makeContainer(SpatialVersions.Spot.self, in: directory)
        #expect(
            try sqlite(directory.store(), "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Spot_rtree%'")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func anIndexRTreeCannotHoldIsRefused() throws {
        #expect {
            _ = try makeMemoryContainer(SpatialVersions.Label.self)
        } throws: { error in
            let error = error as? SwiftDataError
            return error == .loadIssueModelContainer && error?.modelName == "Label"
                && error?.reason?.contains(".rtree index on text") == true
        }
    }
}
