import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Deleting, delete rules, unique constraints and indexes across a hierarchy, on every store (`StoreKind`).
@Suite("Model inheritance: deletes and constraints")
struct InheritanceLifecycleTests {
    private func mediaContainer(_ store: StoreKind) throws -> ModelContainer {
        try store.location().container(Schema(mediaModels), inMemory: true)
    }

    /// Saves one model of each class, the documentary with clips, and a review of each model.
    private func fill(_ context: ModelContext) throws {
        let planet = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: nil)
        planet.clips = [Clip(seconds: 10), Clip(seconds: 20)]
        let models: [Media] = [
            Media(title: "Radio", year: 1920), Movie(title: "Heat", year: 1995, director: "Mann"), planet,
            Podcast(title: "Talk", year: 2020),
        ]
        for model in models {
            context.insert(model)
            context.insert(Review(text: "on \(model.title)", media: model))
        }
        try context.save()
    }

    /// The number of externally stored values in the store at `location` (SQLite: files beside the store;
    /// PostgreSQL: rows of its side table).
    private func externalValueCount(_ location: StoreLocation, container: ModelContainer) throws -> Int {
        switch location.kind {
        case .sqlite:
            let directory = location.store().path + ".external"
            guard FileManager.default.fileExists(atPath: directory) else { return 0 }
            return try FileManager.default.contentsOfDirectory(atPath: directory).count
        case .postgres, .pooled:
            let rows = try location.rows("SELECT count(*) FROM _swiftdata_external", container: container)
            return Int(rows.first?.first ?? "") ?? -1
        }
    }

    @Test(arguments: StoreKind.all) func externalValuesOfASubclassGoWithTheirRows(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(StoredAsset.self, StoredPicture.self)
        let context = ModelContext(container)
        let picture = StoredPicture(name: "sky")
        picture.pixels = Data(repeating: 7, count: 300)
        context.insert(picture)
        context.insert(StoredAsset(name: "plain"))
        try context.save()
        #expect(try externalValueCount(location, container: container) == 1)
        let loaded = try ModelContext(container).fetch(FetchDescriptor<StoredAsset>(sortBy: [SortDescriptor(\.name)]))
        #expect((loaded.last as? StoredPicture)?.pixels == Data(repeating: 7, count: 300))
        // A delete through the root reaches the subclass's externally stored value.
        try context.delete(model: StoredAsset.self)
        try context.save()
        #expect(try externalValueCount(location, container: container) == 0, "the subclass's value went with its row")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<StoredAsset>()) == 0)
        withExtendedLifetime(location) {}
    }

    @Test(arguments: StoreKind.all) func deleteRulesOfEveryLevelApply(store: StoreKind) throws {
        let container = try mediaContainer(store)
        let context = ModelContext(container)
        try fill(context)
        let planet = try #require(try context.fetch(FetchDescriptor<Documentary>()).first)
        context.delete(planet)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Clip>()) == 0, "its own relationship cascades")
        #expect(
            try fresh.fetch(FetchDescriptor<Review>()).map(\.text).sorted() == ["on Heat", "on Radio", "on Talk"],
            "the inherited relationship cascades")
        #expect(try fresh.fetchCount(FetchDescriptor<Media>()) == 3)
    }

    @Test(arguments: StoreKind.all) func batchDeleteOfTheRootReachesSubclassesAndTheirRules(store: StoreKind) throws {
        let container = try mediaContainer(store)
        let context = ModelContext(container)
        try fill(context)
        let heat = try #require(
            try context.fetch(FetchDescriptor<Movie>(predicate: #Predicate { $0.title == "Heat" })).first)
        try context.delete(model: Media.self, where: #Predicate { $0.year > 2000 })
        #expect(try context.fetch(FetchDescriptor<Media>()).map(\.title).sorted() == ["Heat", "Radio"])
        try context.save()
        #expect(heat.modelContext === context)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Media>()).map(\.title).sorted() == ["Heat", "Radio"])
        #expect(try fresh.fetchCount(FetchDescriptor<Clip>()) == 0, "a subclass's own cascade applies")
        #expect(try fresh.fetch(FetchDescriptor<Review>()).map(\.text).sorted() == ["on Heat", "on Radio"])
    }

    @Test(arguments: StoreKind.all) func batchDeleteHonoursIncludeSubclasses(store: StoreKind) throws {
        let container = try mediaContainer(store)
        let context = ModelContext(container)
        try fill(context)
        let registered = try context.fetch(FetchDescriptor<Movie>())
        try context.delete(model: Movie.self, includeSubclasses: false)
        #expect(registered.filter(\.isDeleted).map(\.title) == ["Heat"])
        #expect(try context.fetch(FetchDescriptor<Movie>()).map(\.title) == ["Planet"])
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Media>()).map(\.title).sorted() == ["Planet", "Radio", "Talk"])

        try fresh.delete(model: Media.self)
        try fresh.save()
        #expect(
            try ModelContext(container).fetchCount(FetchDescriptor<Media>()) == 0,
            "includeSubclasses is true by default")
    }

    @Test(arguments: StoreKind.all) func deletingOneClassOfRowsNoModelStandsFor(store: StoreKind) throws {
        let container = try mediaContainer(store)
        try fill(ModelContext(container))
        let context = ModelContext(container)
        try context.delete(model: Movie.self, includeSubclasses: false)
        #expect(
            try context.fetch(FetchDescriptor<Media>()).map(\.title).sorted() == ["Planet", "Radio", "Talk"],
            "before the save, as the context sees it")
        #expect(try context.fetch(FetchDescriptor<Review>()).count == 3, "the cascade reached Heat's review at once")
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Media>()).map(\.title).sorted() == ["Planet", "Radio", "Talk"])
        #expect(
            try fresh.fetch(FetchDescriptor<Review>()).map(\.text).sorted() == ["on Planet", "on Radio", "on Talk"])
        #expect(try fresh.fetchCount(FetchDescriptor<Clip>()) == 2, "the documentary and its clips stay")
    }

    @Test(arguments: StoreKind.all) func deletedModelsLeaveRelationshipsToTheRoot(store: StoreKind) throws {
        let container = try mediaContainer(store)
        let context = ModelContext(container)
        let shelf = MediaShelf(name: "Mixed")
        let talk = Podcast(title: "Talk", year: 2020)
        shelf.items = [Movie(title: "Heat", year: 1995, director: "Mann"), talk]
        context.insert(shelf)
        try context.save()
        #expect(shelf.items.count == 2)
        try context.delete(model: Podcast.self)
        try context.save()
        #expect(shelf.items.map(\.title) == ["Heat"])
        #expect(talk.modelContext == nil)
    }

    @Test(arguments: StoreKind.all) func uniqueConstraintsSpanTheirEntitysModels(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Schema(accountModels))
        let context = ModelContext(container)
        context.insert(Business(handle: "acme", taxID: "1"))
        context.insert(Personal(handle: "ann", region: "EU"))
        context.insert(Personal(handle: "bob", region: "EU"))
        context.insert(Team(handle: "reds", region: "EU"))
        try context.save()

        // A subclass's constraint: a new business with a stored tax ID takes its row (Apple's upsert).
        context.insert(Business(handle: "acme-corp", taxID: "1"))
        try context.save()
        let businesses = try ModelContext(container).fetch(FetchDescriptor<Business>())
        #expect(businesses.map(\.handle) == ["acme-corp"])

        // A constraint on an inherited attribute spans its own class only: personal accounts share a region.
        context.insert(Team(handle: "blues", region: "EU"))
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Team>()).map(\.handle) == ["blues"])
        #expect(try fresh.fetchCount(FetchDescriptor<Personal>()) == 2)

        // The root's constraint spans every class; a model cannot take a row of another class.
        context.insert(Personal(handle: "acme-corp"))
        #expect(throws: SwiftDataError.self) { try context.save() }
        context.rollback()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Account>()) == 4)
    }

    @Test(arguments: StoreKind.all) func constraintsAndIndexesAreTheTablesIndexes(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Schema(accountModels))
        let byName = try location.indexes(of: "Account", container: container)
        // A subclass's unique index is partial: over the rows of its entity (each catalog writes it its own way).
        func limited(_ index: String, to entity: String) -> Bool {
            guard let definition = byName[index], let clause = definition.range(of: "WHERE") else { return false }
            return definition[clause.upperBound...].contains("_entity")
                && definition.hasSuffix(
                    store == .sqlite ? "IN ('\(entity)')" : "= '\(entity)'::text)")
        }
        #expect(byName["Account_unique_handle"]?.contains("WHERE") == false)
        #expect(limited("Business_unique_taxID", to: "Business"), "\(byName)")
        #expect(limited("Team_unique_region", to: "Team"), "\(byName)")
        #expect(byName["Account_index_taxID_handle"] != nil)
        // The root's index serves a subclass's fetch (on PostgreSQL: `PostgresStoreTests.aModelHierarchyRoundTrips`).
        guard store == .sqlite else { return }
        let mediaLocation = store.location()
        let media = try mediaLocation.container(Schema(mediaModels))
        let mediaStore = try sqliteStore(media)
        let entity = try #require(media.binding(for: Movie.self)).entity
        let request = FetchRequest<Movie>(entity: entity, predicate: #Predicate { $0.year == 2000 }, properties: [])
        let select = try #require(try mediaStore.selectStatements(request).first)
        let plan = try mediaStore.withDatabase { try $0.rows("EXPLAIN QUERY PLAN " + select.sql, select.parameters) }
        #expect(plan.contains { $0.contains { "\($0)".contains("INDEX Media_index_year") } }, "\(plan)")
    }
}
