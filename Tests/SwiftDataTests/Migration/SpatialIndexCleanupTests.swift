import Foundation
import SwiftData
import Testing

/// Models with `.rtree` indexes whose names begin, as SQLite's `LIKE` compares them (ignoring case), with another
/// model's name and `_rtree_`, the prefix of that model's index tables.
enum SpatialNeighbours {
    @Model final class Zone {
        #Index<Zone>(.rtree([\.x]))
        var x: Double
        init(x: Double) { self.x = x }
    }

    /// `Zone` with one more property: its table is rebuilt, and its indexes made again.
    enum Changed {
        @Model final class Zone {
            #Index<Zone>(.rtree([\.x]))
            var x: Double
            var note: String?
            init(x: Double) { self.x = x }
        }
    }

    @Model final class Zone_rtree_Area {
        #Index<Zone_rtree_Area>(.rtree([\.x]))
        var x: Double
        init(x: Double) { self.x = x }
    }

    @Model final class ZONE_RTREE_Box {
        #Index<ZONE_RTREE_Box>(.rtree([\.x]))
        var x: Double
        init(x: Double) { self.x = x }
    }
}

/// Making a model's `.rtree` indexes again (in a migration) drops its own index tables and triggers, by their exact
/// names, and never another model's.
@Suite struct SpatialIndexCleanupTests {
    typealias Area = SpatialNeighbours.Zone_rtree_Area
    typealias Box = SpatialNeighbours.ZONE_RTREE_Box

    @Test func migratingAModelKeepsTheIndexesOfModelsWhoseNamesBeginLikeItsIndexes() throws {
        let location = StoreKind.sqlite.location()
        do {
            let context = ModelContext(
                try makeContainer(SpatialNeighbours.Zone.self, Area.self, Box.self, in: location))
            context.insert(SpatialNeighbours.Zone(x: 1))
            context.insert(Area(x: 1))
            context.insert(Box(x: 1))
            try context.save()
        }
        let container = try makeContainer(SpatialNeighbours.Changed.Zone.self, Area.self, Box.self, in: location)
        let tables = try sqlite(
            location.store(), "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
        #expect(tables == "14ZONE_RTREE_Box5rtree1x\n15Zone_rtree_Area5rtree1x\nZone_rtree_x\n")
        let context = ModelContext(container)
        context.insert(SpatialNeighbours.Changed.Zone(x: 2))
        context.insert(Area(x: 2))
        context.insert(Box(x: 2))
        try context.save()
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<Area> { $0.x > 1.5 && $0.x < 2.5 })).count == 1)
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<Box> { $0.x > 1.5 && $0.x < 2.5 })).count == 1)
        #expect(
            try context.fetch(
                FetchDescriptor(predicate: #Predicate<SpatialNeighbours.Changed.Zone> { $0.x > 1.5 && $0.x < 2.5 })
            ).count == 1)
    }
}
