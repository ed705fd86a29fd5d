import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Renames and index changes leave a store with the indexes a new store of the models has, no stale ones, and
/// relationships that read as they did.
@Suite struct RenameMigrationTests {
    /// The indexes of every table of the store, by name, with their definitions (the store's own schema name left
    /// out), to compare a migrated store with a new one.
    func allIndexes(_ location: StoreLocation, _ container: ModelContainer) throws -> [String: String] {
        let sql =
            location.kind == .sqlite
            ? "SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL"
            : "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = '\(location.postgresSchema)'"
        return Dictionary(
            try location.rows(sql, container: container).map {
                ($0[0], $0[1].replacingOccurrences(of: location.postgresSchema, with: "schema"))
            }, uniquingKeysWith: { $1 })
    }

    /// Checks that the migrated store at `location` has the indexes a new store of `schema` has.
    func expectIndexesOfANewStore(
        _ location: StoreLocation, _ container: ModelContainer, _ schema: Schema,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fresh = location.kind.location()
        let freshIndexes = try allIndexes(fresh, try fresh.container(schema))
        let indexes = try allIndexes(location, container)
        for name in Set(freshIndexes.keys).union(indexes.keys).sorted() where freshIndexes[name] != indexes[name] {
            Issue.record(
                "index \(name): migrated \(indexes[name] ?? "missing"), new \(freshIndexes[name] ?? "missing")",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreKind.all) func renamedToOneRelationshipsLeaveNoStaleIndex(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(ShelvesV1.Shelf.self))
            let shelf = ShelvesV1.Shelf(name: "fiction")
            shelf.volumes = [ShelvesV1.Volume(title: "Dune")]
            context.insert(shelf)
            try context.save()
        }
        let container = try location.container(ShelvesV2.Shelf.self)
        try expectIndexesOfANewStore(location, container, Schema([ShelvesV2.Shelf.self]))
    }

    @Test(arguments: StoreKind.all) func catalogMigrationsLeaveTheIndexesOfANewStore(store: StoreKind) throws {
        for version in [CatalogV2.self, CatalogV3.self, CatalogV4.self] as [any VersionedSchema.Type] {
            let location = store.location()
            try MigrationIndexTests().catalogStore(location)
            let container = try location.container(Schema(versionedSchema: version))
            try expectIndexesOfANewStore(location, container, Schema(versionedSchema: version))
        }
    }

    @Test(arguments: StoreKind.all) func aRemovedUniqueConstraintOfALongNamedModelIsGone(store: StoreKind) throws {
        typealias Old = LongNameV1.SubscriptionRenewalNotificationPreference
        typealias New = LongNameV2.SubscriptionRenewalNotificationPreference
        let location = store.location()
        do {
            let context = ModelContext(try location.container(Old.self))
            context.insert(Old(account: "ann", channel: "mail"))
            try context.save()
        }
        let container = try location.container(New.self)
        try expectIndexesOfANewStore(location, container, Schema([New.self]))
        // Two preferences with the same account and channel are now two models.
        let context = ModelContext(container)
        context.insert(New(account: "ann", channel: "mail"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<New>()) == 2)
    }

    @Test(arguments: StoreKind.all) func aRenameThatMovesAJoinTableToTheOtherSideKeepsItsDirection(store: StoreKind)
        throws
    {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(FollowV1.Person.self))
            let (ann, bob, cy) = (
                FollowV1.Person(name: "ann"), FollowV1.Person(name: "bob"), FollowV1.Person(name: "cy")
            )
            for person in [ann, bob, cy] { context.insert(person) }
            ann.following = [cy, bob]
            bob.following = [cy]
            try context.save()
        }
        let container = try location.container(FollowV2.Person.self)
        let people = try ModelContext(container).fetch(FetchDescriptor<FollowV2.Person>(sortBy: [.init(\.name)]))
        let following = people.map { "\($0.name): \($0.following.map(\.name).joined(separator: " "))" }
        #expect(following == ["ann: cy bob", "bob: cy", "cy: "])
        let watchers = people.map { "\($0.name): \($0.watchers.map(\.name).sorted().joined(separator: " "))" }
        #expect(watchers == ["ann: ", "bob: ann", "cy: ann bob"])
        try expectIndexesOfANewStore(location, container, Schema([FollowV2.Person.self]))
    }
}

extension RenameMigrationTests {
    @Test(arguments: StoreKind.all) func aRenamedJoinTableLeavesItsOldNameFree(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(BoardV1.Card.self))
            let card = BoardV1.Card(title: "plan")
            card.tags = [BoardV1.Tag(name: "b"), BoardV1.Tag(name: "a")]
            context.insert(card)
            try context.save()
        }
        do {
            let container = try location.container(BoardV2.Card.self)
            let card = try #require(try ModelContext(container).fetch(FetchDescriptor<BoardV2.Card>()).first)
            #expect(card.labels.map(\.name) == ["b", "a"])
            try expectIndexesOfANewStore(location, container, Schema([BoardV2.Card.self]))
        }
        let container = try location.container(BoardV3.Card.self, BoardV3.Topic.self)
        let context = ModelContext(container)
        let card = try #require(try context.fetch(FetchDescriptor<BoardV3.Card>()).first)
        #expect(card.labels.map(\.name) == ["b", "a"])
        card.tags = [BoardV3.Topic(name: "work")]
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<BoardV3.Card>()).first?.tags.map(\.name) == ["work"])
        try expectIndexesOfANewStore(location, container, Schema([BoardV3.Card.self, BoardV3.Topic.self]))
    }

    /// Apple's API renames properties, not models: a renamed class is a new model with a table of its own, and the
    /// old class's table and models stay for a version that still has it.
    @Test(arguments: StoreKind.all) func aRenamedModelClassIsANewModelAndTheOldTableStays(store: StoreKind) throws {
        let location = store.location()
        do {
            let context = ModelContext(try location.container(RenamedClassV1.Memo.self))
            context.insert(RenamedClassV1.Memo(text: "keep"))
            try context.save()
        }
        let renamed = try location.container(RenamedClassV2.Note.self)
        #expect(try ModelContext(renamed).fetchCount(FetchDescriptor<RenamedClassV2.Note>()) == 0)
        let old = try location.container(RenamedClassV1.Memo.self)
        #expect(try ModelContext(old).fetch(FetchDescriptor<RenamedClassV1.Memo>()).map(\.text) == ["keep"])
    }
}
