// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Names with `_`, and a property named after a class, on purpose: these are the names that used to meet.

import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres

/// Models whose indexes got the same name in a store before each part of a name with an `_` was written after its
/// length, and a subentity's unique index was named after the subentity.
enum IndexNameClashes {
    /// A root whose unique constraint `[plate, Heavy, Lorry]` was named `Fleet_unique_plate_Heavy_Lorry`, as its
    /// subentity `Heavy_Lorry`'s unique constraint `[plate]` was (the subentity's name last).
    @Model class Fleet {
        #Unique<Fleet>([\.plate, \.Heavy, \.Lorry])
        var plate: Int
        var Heavy: Int
        var Lorry: Int

        init(plate: Int, Heavy: Int, Lorry: Int) {
            self.plate = plate
            self.Heavy = Heavy
            self.Lorry = Lorry
        }
    }

    /// A subentity whose plates are unique among its models.
    @Model final class Heavy_Lorry: Fleet {
        #Unique<Heavy_Lorry>([\.plate])
        var axles: Int = 2
    }

    /// A model whose index `[a]` was named `Shelf_index_index_a`, as `Shelf`'s index `[index, a]` was.
    @Model final class Shelf_index {
        #Index<Shelf_index>([\.a])
        var a: Int
        init(a: Int) { self.a = a }
    }

    /// `Shelf_index` with a unique constraint more: its indexes change in a migration, its table does not.
    enum Changed {
        @Model final class Shelf_index {
            #Index<Shelf_index>([\.a])
            #Unique<Shelf_index>([\.a])
            var a: Int
            init(a: Int) { self.a = a }
        }
    }

    /// A model with an index `[index, a]`.
    @Model final class Shelf {
        #Index<Shelf>([\.index, \.a])
        var index: Int
        var a: Int
        init(index: Int, a: Int) {
            self.index = index
            self.a = a
        }
    }

    /// The destination of to-one relationships.
    @Model final class Knot {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose relationship `index_knot`'s foreign key index was named `Rope_index_knot`, as its index `[knot]`
    /// was.
    @Model final class Rope {
        #Index<Rope>([\.knot])
        var knot: Int
        var index_knot: Knot?
        init(knot: Int, index_knot: Knot?) {
            self.knot = knot
            self.index_knot = index_knot
        }
    }

    /// A model whose relationship `a`'s foreign key index was named `Coil_index_a`, as `Coil`'s index `[a]` was.
    @Model final class Coil_index {
        var a: Knot?
        init(a: Knot?) { self.a = a }
    }

    /// A model with an index `[a]`.
    @Model final class Coil {
        #Index<Coil>([\.a])
        var a: Int
        init(a: Int) { self.a = a }
    }
}

/// Each index of a store has a name of its own, whatever the names of the models and their properties: before, each
/// of these stores failed to open, its second `CREATE INDEX` finding the name taken ("already exists").
@Suite struct IndexNameClashTests {
    typealias Fleet = IndexNameClashes.Fleet
    typealias Lorry = IndexNameClashes.Heavy_Lorry

    /// The indexes of a table, as `name: columns`.
    static func indexes(_ location: StoreLocation, table: String) throws -> [String] {
        try IndexNameTests.indexColumns(location, table: table)
    }

    /// A subentity's unique constraint `[plate]` and its root's `[plate, Heavy, Lorry]` each get an index, each
    /// enforcing its own constraint: two fleets may share a plate, two heavy lorries may not (the second takes the
    /// first's row).
    @Test(arguments: StoreKind.all) func aSubentitysUniqueConstraintAndItsRootsHaveTheirOwnNames(store: StoreKind)
        throws
    {
        let location = store.location()
        let context = ModelContext(try location.container(Fleet.self, Lorry.self))
        context.insert(Fleet(plate: 1, Heavy: 1, Lorry: 1))
        context.insert(Fleet(plate: 1, Heavy: 1, Lorry: 2))
        try context.save()
        context.insert(Lorry(plate: 2, Heavy: 1, Lorry: 1))
        try context.save()
        context.insert(Lorry(plate: 2, Heavy: 1, Lorry: 2))
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<Lorry>()).map(\.Lorry) == [2])
        #expect(try fresh.fetchCount(FetchDescriptor<Fleet>()) == 3)
        let indexes = try Self.indexes(location, table: "Fleet")
        #expect(indexes.contains("Fleet_unique_plate_Heavy_Lorry: plate, Heavy, Lorry"), "\(indexes)")
        #expect(indexes.contains("11Heavy_Lorry6unique5plate: plate"), "\(indexes)")
    }

    /// `Shelf_index`'s index `[a]` and `Shelf`'s `[index, a]` each get an index, on their own tables.
    @Test(arguments: StoreKind.all) func anIndexOfAModelWhoseNameEndsInIndexHasItsOwnName(store: StoreKind) throws {
        let location = store.location()
        let context = ModelContext(
            try location.container(IndexNameClashes.Shelf_index.self, IndexNameClashes.Shelf.self))
        context.insert(IndexNameClashes.Shelf_index(a: 1))
        context.insert(IndexNameClashes.Shelf(index: 1, a: 1))
        try context.save()
        #expect(try Self.indexes(location, table: "Shelf_index").contains("11Shelf_index5index1a: a"))
        #expect(try Self.indexes(location, table: "Shelf").contains("Shelf_index_index_a: index, a"))
    }

    /// `Rope`'s foreign key `index_knot` and its index `[knot]` each get an index; so do `Coil_index`'s foreign key `a`
    /// and `Coil`'s index `[a]`.
    @Test(arguments: StoreKind.all) func aForeignKeysIndexAndAnIndexHaveTheirOwnNames(store: StoreKind) throws {
        let location = store.location()
        let context = ModelContext(
            try location.container(
                IndexNameClashes.Knot.self, IndexNameClashes.Rope.self, IndexNameClashes.Coil_index.self,
                IndexNameClashes.Coil.self))
        let knot = IndexNameClashes.Knot(size: 1)
        context.insert(IndexNameClashes.Rope(knot: 1, index_knot: knot))
        context.insert(IndexNameClashes.Coil_index(a: knot))
        context.insert(IndexNameClashes.Coil(a: 1))
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<IndexNameClashes.Rope>()).first?.index_knot?.size == 1)
        let rope = try Self.indexes(location, table: "Rope")
        #expect(rope.contains("Rope_index_knot: knot") && rope.contains("4Rope10index_knot: index_knot"), "\(rope)")
        #expect(try Self.indexes(location, table: "Coil_index").contains("10Coil_index1a: a"))
        #expect(try Self.indexes(location, table: "Coil").contains("Coil_index_a: a"))
    }

    /// Gives an index of the store another name, as an earlier version named it, through `container`'s connection
    /// (an SQLite index of text is in the store's collation, which only its connections know).
    static func rename(_ location: StoreLocation, index: String, to earlier: String, container: ModelContainer) throws {
        switch location.kind {
        case .sqlite:
            let sql = try location.rows("SELECT sql FROM sqlite_master WHERE name = '\(index)'", container: container)
            let statement = try #require(sql.first?.first)
            try #require(statement.contains("\"\(index)\""), "\(index): \(statement)")
            _ = try location.rows("DROP INDEX \"\(index)\"", container: container)
            _ = try location.rows(
                statement.replacingOccurrences(of: "\"\(index)\"", with: "\"\(earlier)\""), container: container)
        case .postgres, .pooled:
            _ = try location.rows("ALTER INDEX \"\(index)\" RENAME TO \"\(earlier)\"", container: container)
        }
    }

    /// A store the previous version made holds a subentity's unique indexes, an index of a model whose name holds an
    /// `_` and a foreign key's index of such a model under the names it gave them: a read-only container reads it as
    /// it is, and opening it to save gives them their names, with every row and constraint kept.
    @Test(arguments: StoreKind.all) func indexesUnderThePreviousVersionsNamesGetTheirNamesWhenTheStoreOpens(
        store: StoreKind
    ) throws {
        let models: [any PersistentModel.Type] =
            accountModels + [
                IndexNameClashes.Shelf_index.self, IndexNameClashes.Knot.self, IndexNameClashes.Coil_index.self,
            ]
        let location = store.location()
        let renames = [
            ("Account", "Business_unique_taxID", "Account_unique_taxID_Business"),
            ("Account", "Team_unique_region", "Account_unique_region_Team"),
            ("Shelf_index", "11Shelf_index5index1a", "Shelf_index_index_a"),
            ("Coil_index", "10Coil_index1a", "Coil_index_a"),
        ]
        do {
            let context = ModelContext(try location.container(Schema(models)))
            context.insert(Business(handle: "acme", taxID: "1"))
            context.insert(IndexNameClashes.Shelf_index(a: 1))
            context.insert(IndexNameClashes.Coil_index(a: IndexNameClashes.Knot(size: 1)))
            try context.save()
            for (_, name, earlier) in renames {
                try Self.rename(location, index: name, to: earlier, container: context.container)
            }
        }
        func names(_ table: String) throws -> [String] { try IndexNameTests.indexNames(location, table: table) }
        do {
            let context = ModelContext(try location.container(Schema(models), allowsSave: false))
            #expect(try context.fetch(FetchDescriptor<Business>()).map(\.taxID) == ["1"])
            for (table, name, earlier) in renames {
                #expect(try names(table).contains(earlier) && !names(table).contains(name), "the store is as it was")
            }
        }
        let context = ModelContext(try location.container(Schema(models)))
        for (table, name, earlier) in renames {
            let now = try names(table)
            #expect(now.contains(name) && !now.contains(earlier), "\(now)")
        }
        // The subentity's unique constraint holds: a business with the same tax ID takes the first one's row.
        context.insert(Business(handle: "acme-corp", taxID: "1"))
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<Business>()).map(\.handle) == ["acme-corp"])
        #expect(try fresh.fetch(FetchDescriptor<IndexNameClashes.Coil_index>()).first?.a?.size == 1)
        #expect(try fresh.fetchCount(FetchDescriptor<IndexNameClashes.Shelf_index>()) == 1)
    }

    /// A store the previous version made of `Shelf_index` and `Coil_index` holds their indexes under the names it
    /// gave them (`Shelf_index_index_a`, `Coil_index_a`): models that add `Shelf` and `Coil`, whose indexes have
    /// those names now, open it, the migration finding their names free, and every index has its name.
    @Test(arguments: StoreKind.all) func aMigrationMakesIndexesUnderNamesEarlierVersionsGaveOthers(store: StoreKind)
        throws
    {
        typealias Models = IndexNameClashes
        let location = store.location()
        do {
            let context = ModelContext(
                try location.container(Models.Shelf_index.self, Models.Knot.self, Models.Coil_index.self))
            context.insert(Models.Shelf_index(a: 1))
            context.insert(Models.Coil_index(a: Models.Knot(size: 1)))
            try context.save()
            try Self.rename(
                location, index: "11Shelf_index5index1a", to: "Shelf_index_index_a", container: context.container)
            try Self.rename(location, index: "10Coil_index1a", to: "Coil_index_a", container: context.container)
        }
        let context = ModelContext(
            try location.container(
                Models.Shelf_index.self, Models.Shelf.self, Models.Knot.self, Models.Coil_index.self, Models.Coil.self))
        context.insert(Models.Shelf(index: 1, a: 1))
        context.insert(Models.Coil(a: 1))
        try context.save()
        func names(_ table: String) throws -> [String] { try IndexNameTests.indexNames(location, table: table) }
        #expect(try names("Shelf_index") == ["11Shelf_index5index1a"])
        #expect(try names("Shelf") == ["Shelf_index_index_a"])
        #expect(try names("Coil_index") == ["10Coil_index1a"])
        #expect(try names("Coil") == ["Coil_index_a"])
        #expect(try context.fetch(FetchDescriptor<Models.Coil_index>()).first?.a?.size == 1)
    }

    /// A migration that changes the indexes of `Shelf_index` (and not its table) finds them under their names, each
    /// part after its length, and makes them again: before, the index `[a]` was left in place, and making it again
    /// failed.
    @Test(arguments: StoreKind.all) func aMigrationFindsIndexesWhoseNamesWriteEachPartAfterItsLength(store: StoreKind)
        throws
    {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(IndexNameClashes.Shelf_index.self))
            context.insert(IndexNameClashes.Shelf_index(a: 1))
            try context.save()
        }
        let context = ModelContext(try location.container(IndexNameClashes.Changed.Shelf_index.self))
        #expect(
            try IndexNameTests.indexNames(location, table: "Shelf_index") == [
                "11Shelf_index5index1a", "11Shelf_index6unique1a",
            ])
        // The new unique constraint holds: a model with the same value takes the first one's row.
        context.insert(IndexNameClashes.Changed.Shelf_index(a: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<IndexNameClashes.Changed.Shelf_index>()) == 1)
    }
}
