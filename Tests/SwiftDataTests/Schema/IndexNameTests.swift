// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Property names with `_`, on purpose: joined with `_`, `[a_b]` and `[a, b]` read the same.

import Foundation
import PostgresTestSupport
import SwiftData
import Testing

@testable import SwiftDataPostgres

/// Models whose unique constraints and indexes would share a name if column names were only joined with `_`.
enum IndexNames {
    @Model final class Pair {
        #Unique<Pair>([\.a_b], [\.a, \.b])
        #Index<Pair>(
            [\.c_d], [\.c, \.d], [\.aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex_x],
            [\.aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex, \.x])
        var a_b: Int
        var a: Int
        var b: Int
        var c_d: Int
        var c: Int
        var d: Int
        var aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex_x: Int
        var aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex: Int
        var x: Int
        init(_ value: Int, a_b: Int, a: Int) {
            self.a_b = a_b
            self.a = a
            b = value
            c_d = value
            c = value
            d = value
            aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex_x = value
            aPropertyWithAVeryLongNameThatGoesOnAndOnForTheIndex = value
            x = value
        }
    }

    /// A unique attribute with `_` in its name, and a unique constraint on two properties.
    @Model final class Tag {
        #Unique<Tag>([\.a, \.b])
        @Attribute(.unique) var a_b: String
        var a: String
        var b: String
        init(a_b: String, a: String, b: String) {
            self.a_b = a_b
            self.a = a
            self.b = b
        }
    }

    /// An index and a unique constraint that older stores named `Old_index_x_y` and `Old_unique_u_v`.
    @Model final class Old {
        #Index<Old>([\.x_y])
        #Unique<Old>([\.u_v])
        var x_y: Int
        var u_v: Int
        init(_ value: Int) {
            x_y = value
            u_v = value
        }
    }
}

/// `IndexNames.Old` with one more property: its table changes in a migration.
enum IndexNamesChanged {
    @Model final class Old {
        #Index<Old>([\.x_y])
        #Unique<Old>([\.u_v])
        var x_y: Int
        var u_v: Int
        var note: String?
        init(_ value: Int) {
            x_y = value
            u_v = value
        }
    }
}

/// Each unique constraint and index has a name of its own, on both stores (within PostgreSQL's 63 bytes), and a store
/// whose indexes were made under the names older stores used gets the new names when it opens.
@Suite struct IndexNameTests {
    typealias Pair = IndexNames.Pair

    /// The names of the indexes of the store's table `table` (without its primary key's).
    static func indexNames(_ location: StoreLocation, table: String) throws -> [String] {
        let names: [String]
        switch location.kind {
        case .sqlite:
            names = try sqlite(
                location.store(), "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)'"
            ).split(separator: "\n").map(String.init)
        case .postgres, .pooled:
            let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
            let result = try connection.execute(
                """
                SELECT indexname FROM pg_indexes WHERE schemaname = '\(location.postgresSchema)' \
                AND tablename = '\(table)'
                """)
            names = try (0..<result.rowCount).compactMap { try result.string($0, 0) }
        }
        return names.filter { !$0.hasPrefix("sqlite_autoindex_") && !$0.hasSuffix("_pkey") }.sorted()
    }

    /// The names stores made by earlier versions gave the index and unique constraint of `IndexNames.Old`: the
    /// oldest (`Old_index_x_y`, `Old_unique_u_v`), or those of the version before this one (`Old_index_3x_y`, ...).
    static func oldNames(previousVersion: Bool) -> (index: String, unique: String) {
        previousVersion ? ("Old_index_3x_y", "Old_unique_3u_v") : ("Old_index_x_y", "Old_unique_u_v")
    }

    /// A store of `IndexNames.Old` with one model, holding its index and unique constraint under the names an
    /// earlier version gave them (see `oldNames`).
    static func storeWithOldNames(_ store: StoreKind, previousVersion: Bool = false) throws -> StoreLocation {
        let (index, unique) = oldNames(previousVersion: previousVersion)
        let location = store.location()
        do {
            let context = ModelContext(try location.container(IndexNames.Old.self))
            context.insert(IndexNames.Old(1))
            try context.save()
        }
        switch store {
        case .sqlite:
            try Self.execute(
                location,
                """
                DROP INDEX "3Old5index3x_y"; CREATE INDEX "\(index)" ON "Old" ("x_y");
                DROP INDEX "3Old6unique3u_v"; CREATE UNIQUE INDEX "\(unique)" ON "Old" ("u_v");
                """)
        case .postgres, .pooled:
            try Self.execute(
                location,
                """
                ALTER INDEX "3Old5index3x_y" RENAME TO "\(index)"; \
                ALTER INDEX "3Old6unique3u_v" RENAME TO "\(unique)"
                """)
        }
        return location
    }

    /// Runs SQL on the store (PostgreSQL: with its schema first on the search path).
    static func execute(_ location: StoreLocation, _ sql: String) throws {
        switch location.kind {
        case .sqlite:
            _ = try sqlite(location.store(), sql)
        case .postgres, .pooled:
            let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
            _ = try connection.execute("SET search_path TO \"\(location.postgresSchema)\"; \(sql)")
        }
    }

    /// `[a_b]` and `[a, b]` (unique constraints and indexes) each get an index, under names of their own; names too
    /// long for PostgreSQL are shortened apart. Before, the second `CREATE INDEX` failed ("already exists") and the
    /// container did not open.
    @Test(arguments: StoreKind.all) func constraintsAndIndexesOfAColumnWithAnUnderscoreAndOfTwoColumnsHaveTheirOwnNames(
        store: StoreKind
    ) throws {
        let location = store.location()
        let context = ModelContext(try location.container(Pair.self))
        context.insert(Pair(1, a_b: 1, a: 1))
        context.insert(Pair(2, a_b: 2, a: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Pair>()) == 2)
        let names = try Self.indexNames(location, table: "Pair")
        #expect(names.count == 6)
        #expect(names.contains("4Pair6unique3a_b") && names.contains("Pair_unique_a_b"))
        #expect(names.contains("4Pair5index3c_d") && names.contains("Pair_index_c_d"))
        // The two long ones pass PostgreSQL's 63 bytes: shortened, with a hash of the whole name.
        let long = names.filter { !$0.contains("unique") && !$0.contains("c_d") }
        #expect(long.count == 2)
        if store == .postgres { #expect(long.allSatisfy { $0.utf8.count <= 63 }) }

        let tags = ModelContext(try location.container(IndexNames.Tag.self))
        tags.insert(IndexNames.Tag(a_b: "1", a: "x", b: "y"))
        tags.insert(IndexNames.Tag(a_b: "2", a: "x", b: "z"))
        try tags.save()
        #expect(try Self.indexNames(location, table: "Tag") == ["3Tag6unique3a_b", "Tag_unique_a_b"])
    }

    /// A store made by an earlier version holds `Old_index_x_y` and `Old_unique_u_v` (or `Old_index_3x_y` and
    /// `Old_unique_3u_v`): opening it gives them their names, and the unique constraint still holds.
    @Test(arguments: StoreKind.all, [false, true])
    func indexesUnderTheirOldNamesGetTheirNamesWhenTheStoreOpens(store: StoreKind, previousVersion: Bool) throws {
        let location = try Self.storeWithOldNames(store, previousVersion: previousVersion)
        let old = Self.oldNames(previousVersion: previousVersion)
        #expect(try Self.indexNames(location, table: "Old") == [old.index, old.unique])
        let context = ModelContext(try location.container(IndexNames.Old.self))
        #expect(try Self.indexNames(location, table: "Old") == ["3Old5index3x_y", "3Old6unique3u_v"])
        // The unique constraint holds: a second model with the same value replaces the first.
        context.insert(IndexNames.Old(1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<IndexNames.Old>()) == 1)
    }

    /// The definitions of the indexes of the store's table `table`, as `name: columns`.
    static func indexColumns(_ location: StoreLocation, table: String) throws -> [String] {
        switch location.kind {
        case .sqlite:
            return try sqlite(
                location.store(),
                """
                SELECT m.name || ': ' || group_concat(i.name, ', ') FROM sqlite_master m, pragma_index_info(m.name) i \
                WHERE m.type = 'index' AND m.tbl_name = '\(table)' GROUP BY m.name ORDER BY m.name
                """
            ).split(separator: "\n").map(String.init)
        case .postgres, .pooled:
            let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
            let result = try connection.execute(
                """
                SELECT c.relname || ': ' || string_agg(a.attname, ', ' ORDER BY k.n) FROM pg_index x \
                JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid \
                JOIN pg_namespace s ON s.oid = t.relnamespace \
                CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) \
                JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum \
                WHERE s.nspname = '\(location.postgresSchema)' AND t.relname = '\(table)' \
                GROUP BY c.relname ORDER BY 1
                """)
            return try (0..<result.rowCount).compactMap { try result.string($0, 0) }
        }
    }

    /// A store made before names were unambiguous could hold `Pair_index_c_d` for `[c_d]` or for `[c, d]`, never
    /// both: opening it makes both indexes again under their names, each on its own columns.
    @Test(arguments: StoreKind.all) func anOldNameThatMayStandForTwoIndexesIsMadeAgainForEach(store: StoreKind) throws {
        let location = store.location()
        _ = try location.container(Pair.self)
        try Self.execute(
            location,
            """
            DROP INDEX "4Pair5index3c_d"; DROP INDEX "Pair_index_c_d"; CREATE INDEX "Pair_index_c_d" ON "Pair" ("c_d")
            """)
        let context = ModelContext(try location.container(Pair.self))
        let indexes = try Self.indexColumns(location, table: "Pair")
        #expect(indexes.contains("4Pair5index3c_d: c_d"))
        #expect(indexes.contains("Pair_index_c_d: c, d"))
        context.insert(Pair(1, a_b: 1, a: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Pair>()) == 1)
    }

    /// A store holding indexes under their old names (the oldest versions', or the previous one's) that migrates: the
    /// migrated table's indexes get their names, and none is left under an old one.
    @Test(arguments: StoreKind.all, [false, true])
    func aMigrationGivesIndexesUnderOldNamesTheirNames(store: StoreKind, previousVersion: Bool) throws {
        let location = try Self.storeWithOldNames(store, previousVersion: previousVersion)
        let context = ModelContext(try location.container(IndexNamesChanged.Old.self))
        #expect(try Self.indexNames(location, table: "Old") == ["3Old5index3x_y", "3Old6unique3u_v"])
        context.insert(IndexNamesChanged.Old(1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<IndexNamesChanged.Old>()) == 1)
    }

    /// A read-only store holding an `.rtree` index of a column with `_` under an old name (the oldest versions', or
    /// the previous one's) cannot make it again: a bounded fetch uses the index under its old name, and finds every
    /// row. Before, it failed ("no such table").
    @Test(arguments: ["Mark_rtree_x_y", "Mark_rtree_3x_y"])
    func aReadOnlyStoreFetchesThroughAnRTreeIndexUnderItsOldName(oldName: String) throws {
        let (_, log) = try capturingLog {
            typealias Mark = SpatialNames.Mark
            let location = StoreKind.sqlite.location()
            do {
                let context = ModelContext(try location.container(Mark.self))
                for value in [1.0, 2, 3] { context.insert(Mark(x_y: value)) }
                try context.save()
            }
            _ = try sqlite(
                location.store(),
                """
                DROP TRIGGER "4Mark5rtree3x_y_insert"; DROP TRIGGER "4Mark5rtree3x_y_update";
                DROP TRIGGER "4Mark5rtree3x_y_delete"; DROP TABLE "4Mark5rtree3x_y";
                CREATE VIRTUAL TABLE "\(oldName)" USING rtree("id", "x_y_min", "x_y_max");
                INSERT INTO "\(oldName)" SELECT "_pk", coalesce("x_y", -9e999), coalesce("x_y", 9e999) FROM "Mark";
                """)
            let context = ModelContext(try location.container(Mark.self, allowsSave: false))
            let found = try context.fetch(
                FetchDescriptor(
                    predicate: #Predicate<Mark> { $0.x_y > 1.5 && $0.x_y < 5 }, sortBy: [SortDescriptor(\.x_y)])
            )
            #expect(found.map(\.x_y) == [2, 3])
            #expect(
                try sqlite(location.store(), "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")
                    == "\(oldName)\n", "the store is as it was")
        }
        #expect(
            log == [
                "SwiftData warning: the read-only store holds the .rtree index of Mark.(x_y) under its older name \(oldName), and fetches use it; nothing is lost (open the store with allowsSave: true once to rename it)"
            ], "\(log)")
    }

    /// The same, when the table under the old name is not the index of that column (its columns differ): the fetch
    /// reads the table without an index, and finds every row.
    @Test func aReadOnlyStoreWithoutTheRTreeIndexFetchesWithoutIt() throws {
        let (_, log) = try capturingLog {
            typealias Mark = SpatialNames.Mark
            let location = StoreKind.sqlite.location()
            do {
                let context = ModelContext(try location.container(Mark.self))
                for value in [1.0, 2, 3] { context.insert(Mark(x_y: value)) }
                try context.save()
            }
            _ = try sqlite(
                location.store(),
                """
                DROP TRIGGER "4Mark5rtree3x_y_insert"; DROP TRIGGER "4Mark5rtree3x_y_update";
                DROP TRIGGER "4Mark5rtree3x_y_delete"; DROP TABLE "4Mark5rtree3x_y";
                CREATE VIRTUAL TABLE "Mark_rtree_x_y" USING rtree("id", "x_min", "x_max", "y_min", "y_max");
                """)
            let context = ModelContext(try location.container(Mark.self, allowsSave: false))
            let found = try context.fetch(
                FetchDescriptor(
                    predicate: #Predicate<Mark> { $0.x_y > 1.5 && $0.x_y < 5 }, sortBy: [SortDescriptor(\.x_y)])
            )
            #expect(found.map(\.x_y) == [2, 3])
        }
        #expect(
            log == [
                "SwiftData warning: the read-only store has no .rtree index of Mark.(x_y), so fetches bounding it read the table without it; nothing is lost (open the store with allowsSave: true once to make it)"
            ], "\(log)")
    }
}
