// swift-format-ignore-file: AlwaysUseLowerCamelCase, TypeNamesShouldBeCapitalized
// Names with `_`, in lower case, and of the store's own tables, on purpose: these are the names that meet.

import Foundation
import SwiftData
import Testing

/// Models whose tables, join tables and indexes would get the name of another object of the store: SQLite and
/// PostgreSQL keep a schema's tables and indexes under one set of names.
enum StoreNameClashes {
    /// A model with an `#Index` on `[label]`, named `Crate_index_label`.
    @Model final class Crate {
        #Index<Crate>([\.label])
        var label: String
        init(label: String) { self.label = label }
    }

    /// A model whose table has the name of `Crate`'s index.
    @Model final class Crate_index_label {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of `Crate`'s index, but for the case of a letter.
    @Model final class crate_index_label {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// The destination of to-many relationships without an inverse.
    @Model final class Peg {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose to-many relationship `b` has the join table `Rack_index_b`.
    @Model final class Rack_index {
        var b: [Peg] = []
        init() {}
    }

    /// A model with an `#Index` on `[b]`, named `Rack_index_b`.
    @Model final class Rack {
        #Index<Rack>([\.b])
        var b: Int
        init(b: Int) { self.b = b }
    }

    /// A model whose to-many relationship `c` has the join table `Hook_c`, whose member column's index is
    /// `Hook_c_member`.
    @Model final class Hook {
        var c: [Peg] = []
        init() {}
    }

    /// A model whose table has the name of `Hook.c`'s join table.
    @Model final class Hook_c {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the index of `Hook.c`'s join table.
    @Model final class Hook_c_member {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model with an `.rtree` index on `[x]`: SQLite's virtual table `Spot_rtree_x`, with its tables
    /// `Spot_rtree_x_node`, `_parent` and `_rowid`; PostgreSQL's index `Spot_index_x`.
    @Model final class Spot {
        #Index<Spot>(.rtree([\.x]))
        var x: Double
        init(x: Double) { self.x = x }
    }

    /// A model whose table has the name of a table SQLite makes for `Spot`'s `.rtree` index.
    @Model final class Spot_rtree_x_node {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the index PostgreSQL makes for `Spot`'s `.rtree` index.
    @Model final class Spot_index_x {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the store's history table.
    @Model final class _swiftdata_history {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the PostgreSQL store's table of externally stored values.
    @Model final class _swiftdata_external {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the index of `Peg`'s primary key in PostgreSQL.
    @Model final class Peg_pkey {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// Two models whose names differ only after their first 63 bytes, which PostgreSQL keeps of a name.
    @Model final class Shelf_with_a_name_long_enough_to_run_past_what_PostgreSQL_keeps_A {
        var size: Int
        init(size: Int) { self.size = size }
    }

    @Model final class Shelf_with_a_name_long_enough_to_run_past_what_PostgreSQL_keeps_B {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model an SQLite migration rebuilds in the table `Bin__migrating`.
    @Model final class Bin {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has the name of the table a migration of `Bin` rebuilds it in on SQLite.
    @Model final class Bin__migrating {
        var size: Int
        init(size: Int) { self.size = size }
    }

    /// A model whose table has a name SQLite keeps for itself.
    @Model final class sqlite_shelf {
        var size: Int
        init(size: Int) { self.size = size }
    }
}

/// The next version of `StoreNameClashes.Bin`: an added property makes SQLite rebuild its table.
enum StoreNameClashesMigrated {
    @Model final class Bin {
        var size: Int
        var label: String?
        init(size: Int) { self.size = size }
    }
}

/// A container whose models would give two objects of its store one name is refused when it opens, with an error that
/// names both and what to rename; before, the store failed with "already exists" at the second object, or took one
/// object for the other. Where a store makes no such object, the models open.
@Suite struct StoreNameClashTests {
    typealias Clashes = StoreNameClashes

    /// Opens a container of `types` on a new store of `store`, expecting the error of a clash that names `names`.
    private func expectClash(
        _ store: StoreKind, _ types: [any PersistentModel.Type], naming names: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let location = store.location()
        let error = #expect(throws: SwiftDataError.self, sourceLocation: sourceLocation) {
            _ = try location.container(Schema(types))
        }
        #expect(error == .loadIssueModelContainer, sourceLocation: sourceLocation)
        #expect(error?.reason?.contains("share one set of names") == true, sourceLocation: sourceLocation)
        #expect(error?.modelName != nil, "the error names a model", sourceLocation: sourceLocation)
        for name in names {
            #expect(error?.reason?.contains(name) == true, "\(error?.reason ?? "")", sourceLocation: sourceLocation)
        }
        #expect(error?.suggestion?.contains("another name: rename the ") == true, sourceLocation: sourceLocation)
    }

    /// Opens a container of `types` on a new store of `store` and saves a model in it.
    private func expectOpens<M: PersistentModel>(
        _ store: StoreKind, _ types: [any PersistentModel.Type], saving model: M
    )
        throws
    {
        let location = store.location()
        let container = try location.container(Schema(types))
        let context = ModelContext(container)
        context.insert(model)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<M>()) == 1)
        withExtendedLifetime(location) {}
    }

    @Test(arguments: StoreKind.all) func aModelNamedAfterAnIndex(store: StoreKind) {
        expectClash(
            store, [Clashes.Crate.self, Clashes.Crate_index_label.self],
            naming: ["the table of the model Crate_index_label", "the index of Crate's #Index on [label]"])
    }

    /// SQLite takes names that differ only in case for one; PostgreSQL does not.
    @Test(arguments: StoreKind.all) func aModelNamedAfterAnIndexButForCase(store: StoreKind) throws {
        let types: [any PersistentModel.Type] = [Clashes.Crate.self, Clashes.crate_index_label.self]
        if store == .sqlite {
            expectClash(
                store, types, naming: ["Crate_index_label and crate_index_label, which the store takes for one name"])
        } else {
            try expectOpens(store, types, saving: Clashes.crate_index_label(size: 1))
        }
    }

    @Test(arguments: StoreKind.all) func aJoinTableNamedAfterAnIndex(store: StoreKind) {
        expectClash(
            store, [Clashes.Rack.self, Clashes.Rack_index.self, Clashes.Peg.self],
            naming: ["the join table of Rack_index.b", "the index of Rack's #Index on [b]", "Rack_index_b"])
    }

    @Test(arguments: StoreKind.all) func aModelNamedAfterAJoinTable(store: StoreKind) {
        expectClash(
            store, [Clashes.Hook.self, Clashes.Hook_c.self, Clashes.Peg.self],
            naming: ["the join table of Hook.c", "the table of the model Hook_c"])
    }

    @Test(arguments: StoreKind.all) func aModelNamedAfterAJoinTablesIndex(store: StoreKind) {
        expectClash(
            store, [Clashes.Hook.self, Clashes.Hook_c_member.self, Clashes.Peg.self],
            naming: ["the index of the join table of Hook.c", "the table of the model Hook_c_member"])
    }

    /// SQLite makes tables for an `.rtree` index, PostgreSQL an index of each of its columns.
    @Test(arguments: StoreKind.all) func aModelNamedAfterWhatAnRtreeIndexMakes(store: StoreKind) throws {
        let node: [any PersistentModel.Type] = [Clashes.Spot.self, Clashes.Spot_rtree_x_node.self]
        let index: [any PersistentModel.Type] = [Clashes.Spot.self, Clashes.Spot_index_x.self]
        if store == .sqlite {
            expectClash(
                store, node,
                naming: ["the _node table of Spot's .rtree index on [x]", "the table of the model Spot_rtree_x_node"])
            try expectOpens(store, index, saving: Clashes.Spot_index_x(size: 1))
        } else {
            expectClash(
                store, index,
                naming: ["an index that stands for Spot's .rtree indexes", "the table of the model Spot_index_x"])
            try expectOpens(store, node, saving: Clashes.Spot_rtree_x_node(size: 1))
        }
    }

    @Test(arguments: StoreKind.all) func aModelNamedAfterTheStoresOwnTable(store: StoreKind) throws {
        expectClash(
            store, [Clashes._swiftdata_history.self],
            naming: ["the store's own table _swiftdata_history", "the table of the model _swiftdata_history"])
        let error = #expect(throws: SwiftDataError.self) {
            _ = try store.location().container(Clashes._swiftdata_history.self)
        }
        #expect(
            error?.suggestion == "Give it another name: rename the model _swiftdata_history",
            "the store's own table has no other name")
        if store == .sqlite {
            try expectOpens(store, [Clashes._swiftdata_external.self], saving: Clashes._swiftdata_external(size: 1))
        } else {
            expectClash(store, [Clashes._swiftdata_external.self], naming: ["_swiftdata_external"])
        }
    }

    /// PostgreSQL names the index of a table's primary key `<table>_pkey`.
    @Test(arguments: StoreKind.all) func aModelNamedAfterAPrimaryKeysIndex(store: StoreKind) throws {
        let types: [any PersistentModel.Type] = [Clashes.Peg.self, Clashes.Peg_pkey.self]
        if store == .sqlite {
            try expectOpens(store, types, saving: Clashes.Peg_pkey(size: 1))
        } else {
            expectClash(
                store, types, naming: ["the primary key index of the table of the model Peg", "model Peg_pkey"])
        }
    }

    /// A store made when `Peg_pkey`'s table came before `Peg`'s: PostgreSQL named `Peg`'s primary key index
    /// `Peg_pkey1`, and the store worked, so it opens. `Peg_pkey` added beside an existing `Peg`, whose primary key
    /// index has that name, is still refused.
    @Test(arguments: StoreKind.all) func aPrimaryKeysNameTakenByAnEarlierTable(store: StoreKind) throws {
        let types: [any PersistentModel.Type] = [Clashes.Peg.self, Clashes.Peg_pkey.self]
        let location = store.location()
        do {
            let context = ModelContext(try location.container(Clashes.Peg_pkey.self))
            context.insert(Clashes.Peg_pkey(size: 1))
            try context.save()
        }
        for _ in 0..<2 {
            let container = try location.container(Schema(types))
            let context = ModelContext(container)
            context.insert(Clashes.Peg(size: 2))
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Clashes.Peg_pkey>()) == 1)
        }
        #expect(try ModelContext(location.container(Schema(types))).fetchCount(FetchDescriptor<Clashes.Peg>()) == 2)

        let later = store.location()
        _ = try later.container(Clashes.Peg.self)
        if store == .sqlite {
            _ = try later.container(Schema(types))
        } else {
            let error = #expect(throws: SwiftDataError.self) { _ = try later.container(Schema(types)) }
            #expect(error?.reason?.contains("the primary key index of the table of the model Peg") == true)
            #expect(error?.reason?.contains("share one set of names") == true)
        }
    }

    /// A store with a model `Bin__migrating` beside `Bin` opens; the migration that rebuilds `Bin`'s table (on SQLite,
    /// in a table of that name) refuses with an error that names both models, and leaves the store as it was.
    @Test(arguments: StoreKind.all) func aModelNamedAfterTheTableAMigrationRebuildsIn(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(Clashes.Bin.self, Clashes.Bin__migrating.self))
            context.insert(Clashes.Bin(size: 1))
            context.insert(Clashes.Bin__migrating(size: 2))
            try context.save()
        }
        let migrated: [any PersistentModel.Type] = [StoreNameClashesMigrated.Bin.self, Clashes.Bin__migrating.self]
        if store == .sqlite {
            let error = #expect(throws: SwiftDataError.self) { _ = try location.container(Schema(migrated)) }
            #expect(error == .loadIssueModelContainer)
            #expect(error?.modelName == "Bin")
            #expect(
                error?.reason?.contains("rebuilds its table in a table named Bin__migrating") == true,
                "\(error?.reason ?? "")")
            #expect(error?.reason?.contains("the table of the model Bin__migrating") == true)
            #expect(error?.suggestion?.contains("rename the model Bin__migrating, or the model Bin") == true)
            let context = ModelContext(try location.container(Clashes.Bin.self, Clashes.Bin__migrating.self))
            #expect(try context.fetch(FetchDescriptor<Clashes.Bin>()).map(\.size) == [1])
        } else {
            let context = ModelContext(try location.container(Schema(migrated)))
            let bins = try context.fetch(FetchDescriptor<StoreNameClashesMigrated.Bin>())
            #expect(bins.map(\.size) == [1])
            #expect(bins.map(\.label) == [nil])
        }
    }

    /// PostgreSQL keeps 63 bytes of a name; SQLite keeps it whole.
    @Test(arguments: StoreKind.all) func twoModelsWhoseNamesBeginWithTheSame63Bytes(store: StoreKind) throws {
        typealias A = Clashes.Shelf_with_a_name_long_enough_to_run_past_what_PostgreSQL_keeps_A
        typealias B = Clashes.Shelf_with_a_name_long_enough_to_run_past_what_PostgreSQL_keeps_B
        #expect(String(describing: A.self).utf8.count > 63)
        if store == .sqlite {
            try expectOpens(store, [A.self, B.self], saving: B(size: 1))
        } else {
            expectClash(store, [A.self, B.self], naming: ["which the store takes for one name"])
        }
    }

    @Test func aModelNamedAsSQLiteNamesItsOwnTables() throws {
        let error = #expect(throws: SwiftDataError.self) {
            _ = try StoreKind.sqlite.location().container(Clashes.sqlite_shelf.self)
        }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.reason?.contains("SQLite keeps names beginning with sqlite_ for itself") == true)
        #expect(error?.modelName == "sqlite_shelf")
    }
}
