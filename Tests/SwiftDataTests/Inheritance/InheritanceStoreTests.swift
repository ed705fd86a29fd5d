import Foundation
import SwiftData
import Testing

/// Saving and fetching a model hierarchy as an app does: one table per hierarchy, models of their own classes; on
/// every store (`StoreKind`).
@Suite("Model inheritance: store")
struct InheritanceStoreTests {
    /// A store at `location` with one model of each class, saved.
    private func filledStore(_ location: StoreLocation) throws -> ModelContainer {
        let container = try location.container(Schema(mediaModels))
        let context = ModelContext(container)
        context.insert(Media(title: "Radio", year: 1920))
        context.insert(Movie(title: "Heat", year: 1995, director: "Mann"))
        context.insert(Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: "nature"))
        let podcast = Podcast(title: "Talk", year: 2020)
        podcast.host = "Sam"
        podcast.episodes = 12
        context.insert(podcast)
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func fetchingTheRootReturnsEveryClassInOneQuery(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        // The statement log watches SQLite stores only.
        let log = StatementLog(container)
        let all = try context.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)]))
        #expect(store == .postgres || log.selects.count == 1)
        #expect(all.map { String(describing: type(of: $0)) } == ["Media", "Movie", "Documentary", "Podcast"])
        #expect(all.map(\.title) == ["Radio", "Heat", "Planet", "Talk"])
        let movie = try #require(all[1] as? Movie)
        let documentary = try #require(all[2] as? Documentary)
        let podcast = try #require(all[3] as? Podcast)
        #expect(movie.director == "Mann" && movie.runtime == 0)
        #expect(documentary.director == "Fothergill" && documentary.subject == "nature")
        #expect(podcast.host == "Sam" && podcast.episodes == 12)
        #expect(store == .postgres || log.selects.count == 1, "every class's values came with the one query")
    }

    @Test(arguments: StoreKind.all) func fetchingASubclassReturnsOnlyItsModels(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let movies = try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(movies.map(\.title) == ["Heat", "Planet"])
        #expect(movies.last is Documentary)
        #expect(try context.fetch(FetchDescriptor<Documentary>()).map(\.title) == ["Planet"])
        #expect(try context.fetch(FetchDescriptor<Podcast>()).map(\.host) == ["Sam"])
        #expect(try context.fetchCount(FetchDescriptor<Media>()) == 4)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Podcast>()) == 1)
    }

    /// Each row of a hierarchy's table becomes a model of the class its entity column names, in the rows' order;
    /// a row whose entity column names a class the container lacks (written by another program) loads as the
    /// fetched class.
    @Test(arguments: StoreKind.all) func eachRowLoadsAsTheClassItsEntityNames(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)]))
        #expect(all.map { String(describing: type(of: $0)) } == ["Media", "Movie", "Documentary", "Podcast"])
        #expect(all.map(\.persistentModelID.entityName) == ["Media", "Movie", "Documentary", "Podcast"])

        _ = try location.rows(
            "UPDATE \"Media\" SET \"_entity\" = 'Vinyl' WHERE \"title\" = 'Radio'", container: container)
        let other = ModelContext(container)
        let again = try other.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)]))
        #expect(again.map { String(describing: type(of: $0)) } == ["Media", "Movie", "Documentary", "Podcast"])
        #expect(again.map(\.title) == ["Radio", "Heat", "Planet", "Talk"])
        let movies = try other.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(movies.map { String(describing: type(of: $0)) } == ["Movie", "Documentary"])
        #expect(movies.first === again[1] && movies.last === again[2])
    }

    @Test(arguments: StoreKind.all) func oneRowIsOneObjectWhateverTypeFetchesIt(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let media = try context.fetch(FetchDescriptor<Media>(predicate: #Predicate { $0.title == "Planet" }))
        let documentaries = try context.fetch(FetchDescriptor<Documentary>())
        #expect(media.count == 1 && documentaries.count == 1)
        #expect(media[0] === documentaries[0])
        #expect(context.model(for: media[0].persistentModelID) === documentaries[0])
    }

    @Test(arguments: StoreKind.all) func identifiersNameTheModelsOwnEntity(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)]))
        #expect(identifiers.map(\.entityName) == ["Media", "Movie", "Documentary", "Podcast"])
        let fresh = ModelContext(container)
        let model = fresh.model(for: identifiers[2])
        #expect((model as? Documentary)?.subject == "nature")
        #expect(fresh.registeredModel(for: identifiers[2]) as Movie? === model)
    }

    @Test(arguments: StoreKind.all) func batchedFetchesAndEnumerationGiveEveryClassAndLetGo(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)])
        let batched = try context.fetch(descriptor, batchSize: 2)
        #expect(batched.map { String(describing: type(of: $0)) } == ["Media", "Movie", "Documentary", "Podcast"])
        #expect((batched[2] as? Documentary)?.subject == "nature")
        let fresh = ModelContext(container)
        var directors: [String] = []
        try fresh.enumerate(descriptor, batchSize: 2) { media in
            if let movie = media as? Movie { directors.append(movie.director) }
        }
        #expect(directors == ["Mann", "Fothergill"])
        let identifiers = try fresh.fetchIdentifiers(descriptor)
        #expect(identifiers.allSatisfy { fresh.registeredModel(for: $0) as Media? == nil }, "each batch was let go")
    }

    @Test(arguments: StoreKind.all) func keysAreUniqueAcrossTheHierarchy(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let keys = try context.fetch(FetchDescriptor<Media>()).map { $0.persistentModelID.primaryKey }
        #expect(Set(keys).count == 4)
    }

    @Test(arguments: StoreKind.all) func aHierarchyIsOneTableWithAnEntityColumn(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let tables = try location.tableNames(container: container)
        #expect(tables.contains("Media"))
        #expect(!tables.contains("Movie") && !tables.contains("Documentary") && !tables.contains("Podcast"))
        let rows = try location.rows(
            "SELECT \"_entity\", \"title\", \"director\", \"host\" FROM \"Media\" ORDER BY \"_pk\"",
            container: container)
        #expect(rows.map { $0[0] } == ["Media", "Movie", "Documentary", "Podcast"])
        #expect(rows[0][2] == "NULL" && rows[1][2] == "Mann" && rows[3][3] == "Sam")
    }

    @Test(arguments: StoreKind.all) func changesToEveryLevelAreSaved(store: StoreKind) throws {
        let location = store.location()
        let container = try filledStore(location)
        let context = ModelContext(container)
        let documentary = try #require(try context.fetch(FetchDescriptor<Documentary>()).first)
        documentary.title = "Planet Earth"
        documentary.director = "Attenborough"
        documentary.subject = nil
        try context.save()
        let fresh = try #require(
            try ModelContext(container).fetch(
                FetchDescriptor<Media>(
                    predicate: #Predicate { $0.year == 2006 })
            ).first as? Documentary)
        #expect(fresh.title == "Planet Earth" && fresh.director == "Attenborough" && fresh.subject == nil)
    }

    @Test(arguments: StoreKind.all) func relationshipsToTheRootHoldModelsOfEveryClass(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Schema(mediaModels))
        let context = ModelContext(container)
        let shelf = MediaShelf(name: "Favourites")
        let documentary = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: nil)
        shelf.items = [
            Movie(title: "Heat", year: 1995, director: "Mann"), documentary, Podcast(title: "Talk", year: 2020),
        ]
        context.insert(shelf)
        context.insert(Review(text: "Stunning", media: documentary))
        try context.save()

        let fresh = ModelContext(container)
        let loaded = try #require(try fresh.fetch(FetchDescriptor<MediaShelf>()).first)
        #expect(loaded.items.map { String(describing: type(of: $0)) } == ["Movie", "Documentary", "Podcast"])
        #expect((loaded.items[0] as? Movie)?.director == "Mann")
        #expect(loaded.items[1].shelf === loaded)

        let other = ModelContext(container)
        let review = try #require(try other.fetch(FetchDescriptor<Review>()).first)
        let media = try #require(review.media as? Documentary, "a to-one to the root holds the subclass")
        #expect(media.director == "Fothergill")
        #expect(media.reviews.map(\.text) == ["Stunning"])
    }

    @Test(arguments: StoreKind.all) func aRelatedModelLoadedAgainIsOfItsOwnClass(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Schema(mediaModels))
        let context = ModelContext(container)
        let heat = Movie(title: "Heat", year: 1995, director: "Mann")
        context.insert(Review(text: "Tense", media: heat))
        context.insert(Review(text: "Long", media: heat))
        try context.save()

        let fresh = ModelContext(container)
        weak var movie: Movie?
        var reviews: [Review] = []
        do {
            // The movie holds its reviews, which refer back to it without holding it.
            let loaded = try #require(try fresh.fetch(FetchDescriptor<Media>()).first as? Movie)
            reviews = loaded.reviews
            movie = loaded
        }
        try #require(movie == nil, "nothing holds the movie any more")
        let media = try #require(reviews.first?.media)
        #expect(media is Movie, "loaded again as the class its row names")
        #expect((media as? Movie)?.director == "Mann")
        #expect(reviews.last?.media === media)
    }

    @Test(arguments: StoreKind.all) func relationshipsAssignedBeforeSuperInitGetTheirInverses(store: StoreKind) throws {
        let container = try store.location().container(Schema(mediaModels), inMemory: true)
        let context = ModelContext(container)
        let studio = Studio(name: "Warner")
        let feature = Feature(title: "Heat", year: 1995, director: "Mann", studio: studio)
        #expect(studio.features.isEmpty, "no setter ran before super.init")
        context.insert(feature)
        #expect(studio.features.map(\.title) == ["Heat"], "inserting brings the inverse in step")
        #expect(studio.modelContext === context)
        try context.save()
        let fresh = ModelContext(container)
        let loaded = try #require(try fresh.fetch(FetchDescriptor<Studio>()).first)
        #expect(loaded.features.map(\.director) == ["Mann"])
    }

    @Test(arguments: StoreKind.all) func subclassRelationshipsAreSaved(store: StoreKind) throws {
        let container = try store.location().container(Schema(mediaModels), inMemory: true)
        let context = ModelContext(container)
        let documentary = Documentary(title: "Planet", year: 2006, director: "F", subject: nil)
        documentary.clips = [Clip(seconds: 30), Clip(seconds: 45)]
        let review = Review(text: "Good", media: documentary)
        context.insert(review)
        #expect(documentary.modelContext === context, "inserted with the review that refers to it")
        #expect(documentary.reviews.map(\.text) == ["Good"])
        try context.save()
        let fresh = ModelContext(container)
        let loaded = try #require(try fresh.fetch(FetchDescriptor<Documentary>()).first)
        #expect(loaded.clips.map(\.seconds).sorted() == [30, 45])
    }
}
