import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Type tests, casts and inherited attributes in predicates and sorts: all in SQL, selecting what
/// `Predicate.evaluate` selects (`fetchInSQL` checks both), on every store (`StoreKind`).
@Suite("Model inheritance: predicates and sorting")
struct InheritancePredicateTests {
    /// A context over a store with models of every class, reviews of some and a shelf of others.
    private func filledContext(_ store: StoreKind) throws -> ModelContext {
        let container = try store.location().container(Schema(mediaModels), inMemory: true)
        let context = ModelContext(container)
        let radio = Media(title: "Radio", year: 1920)
        let heat = Movie(title: "Heat", year: 1995, director: "Mann")
        let planet = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: "nature")
        let talk = Podcast(title: "Talk", year: 2020)
        let sting = Feature(title: "Sting", year: 1973, director: "Hill", studio: Studio(name: "Universal"))
        for model in [radio, heat, planet, talk, sting] as [Media] { context.insert(model) }
        context.insert(Review(text: "Loud", media: radio))
        context.insert(Review(text: "Tense", media: heat))
        context.insert(Review(text: "Stunning", media: planet))
        context.insert(Review(text: "Nothing"))
        let shelf = MediaShelf(name: "Mixed")
        shelf.items = [radio, talk]
        let films = MediaShelf(name: "Films")
        films.items = [sting]
        context.insert(shelf)
        context.insert(films)
        try context.save()
        return ModelContext(container)
    }

    @Test(arguments: StoreKind.all) func typeTests(store: StoreKind) throws {
        let context = try filledContext(store)
        let movies = try fetchInSQL(#Predicate<Media> { $0 is Movie }, context, store: store)
        #expect(Set(movies.map(\.title)) == ["Heat", "Planet", "Sting"])
        #expect(
            try fetchInSQL(#Predicate<Media> { $0 is Documentary }, context, store: store).map(\.title) == ["Planet"])
        #expect(
            try fetchInSQL(#Predicate<Media> { !($0 is Movie) }, context, store: store).map(\.title) == [
                "Radio", "Talk",
            ])
        // Written out, as the compiler already knows the answers of `$0 is Media` and `$0 is Podcast` for a movie.
        let upcast = Predicate<Movie> { PredicateExpressions.TypeCheck<_, Media>($0) }
        #expect(try fetchInSQL(upcast, context, store: store).count == 3, "an upcast always holds")
        let sibling = Predicate<Movie> { PredicateExpressions.TypeCheck<_, Podcast>($0) }
        #expect(try fetchInSQL(sibling, context, store: store).isEmpty, "a sibling class is never a subclass's")
    }

    @Test(arguments: StoreKind.all) func conditionalCasts(store: StoreKind) throws {
        let context = try filledContext(store)
        let name = "Mann"
        #expect(
            try fetchInSQL(#Predicate<Media> { ($0 as? Movie)?.director == name }, context, store: store).map(\.title)
                == ["Heat"])
        let ifLet = #Predicate<Media> { media in
            if let movie = media as? Movie { movie.director != name } else { false }
        }
        #expect(Set(try fetchInSQL(ifLet, context, store: store).map(\.title)) == ["Planet", "Sting"])
        #expect(
            try fetchInSQL(#Predicate<Media> { ($0 as? Documentary)?.subject == nil }, context, store: store).count
                == 4,
            "nil for every model that is not a documentary")
        #expect(
            try fetchInSQL(#Predicate<Media> { ($0 as? Podcast)?.episodes ?? -1 == 0 }, context, store: store).map(
                \.title)
                == ["Talk"])
    }

    @Test(arguments: StoreKind.all) func inheritedAttributesOfASubclass(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let context = try filledContext(store)
            #expect(
                Set(try fetchInSQL(#Predicate<Movie> { $0.year > 1980 }, context, store: store).map(\.title)) == [
                    "Heat", "Planet",
                ])
            let planet = #Predicate<Documentary> { $0.title.contains("lan") && $0.director == "Fothergill" }
            if store == .sqlite {
                #expect(try fetchInSQL(planet, context, store: store).count == 1)
            } else {
                // PostgreSQL runs `contains` in memory (see the README's differences from SQLite), with the same result.
                #expect(try context.fetch(FetchDescriptor(predicate: planet)).map(\.title) == ["Planet"])
            }
            #expect(
                try fetchInSQL(
                    #Predicate<Documentary> { $0.title == "Planet" && $0.director == "Fothergill" }, context,
                    store: store
                )
                .count == 1)
            #expect(
                try fetchInSQL(#Predicate<Feature> { $0.studio?.name == "Universal" }, context, store: store).map(
                    \.title)
                    == ["Sting"])
        }
        #expect(
            log.allSatisfy {
                $0.hasPrefix(
                    "SwiftData warning: part of a predicate on Documentary is evaluated in memory (PostgreSQL compares strings by code points"
                )
            }, "\(log)")
        #expect(store == .sqlite ? log.isEmpty : log.count == 1, "\(log)")
    }

    @Test(arguments: StoreKind.all) func castsOfRelatedModels(store: StoreKind) throws {
        let context = try filledContext(store)
        // Loading a review's media, a model of any class of the hierarchy, looks the class up in a second query.
        let documentaryReviews = try fetchInSQL(
            #Predicate<Review> { $0.media is Documentary }, context, store: store, classLookup: true)
        #expect(documentaryReviews.map(\.text) == ["Stunning"])
        let byMann = try fetchInSQL(
            #Predicate<Review> { ($0.media as? Movie)?.director == "Mann" }, context, store: store, classLookup: true)
        #expect(byMann.map(\.text) == ["Tense"])
        let films = try fetchInSQL(#Predicate<MediaShelf> { $0.items.contains { $0 is Movie } }, context, store: store)
        #expect(films.map(\.name) == ["Films"])
        let podcasts = try fetchInSQL(
            #Predicate<MediaShelf> { $0.items.filter { $0 is Podcast }.count == 1 }, context, store: store)
        #expect(podcasts.map(\.name) == ["Mixed"])
    }

    @Test(arguments: StoreKind.all) func sortingByInheritedAttributes(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let context = try filledContext(store)
            let rowStore = try #require(context.container.stores.first)
            let entity = try #require(context.container.binding(for: Movie.self)).entity
            let sort = [SortDescriptor(\Movie.year, order: .reverse)]
            var request = FetchRequest<Movie>(entity: entity, properties: [])
            request.sortBy = sort
            #expect(rowStore.prepare(request).coverage.sort, "sorted in SQL")
            #expect(try context.fetch(FetchDescriptor(sortBy: sort)).map(\.title) == ["Planet", "Heat", "Sting"])
            let all = try context.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.title)]))
            #expect(all.map(\.title) == ["Heat", "Planet", "Radio", "Sting", "Talk"])
            let reviews = try context.fetch(FetchDescriptor<Review>(sortBy: [SortDescriptor(\.media?.year)]))
            #expect(reviews.map(\.text) == ["Nothing", "Loud", "Tense", "Stunning"])
        }
        #expect(
            log.count == 1
                && log.allSatisfy {
                    $0.hasPrefix("SwiftData warning: sorting Review happens in memory: sorting by")
                        && $0.hasSuffix("which is not a stored attribute of Review or of a related model")
                }, "\(log)")
    }

    @Test(arguments: StoreKind.all) func typeTestsMeetUnsavedChanges(store: StoreKind) throws {
        let context = try filledContext(store)
        context.insert(Movie(title: "Ran", year: 1985, director: "Kurosawa"))
        context.insert(Podcast(title: "Late", year: 2021))
        let movies = try context.fetch(FetchDescriptor<Media>(predicate: #Predicate { $0 is Movie }))
        #expect(Set(movies.map(\.title)) == ["Heat", "Planet", "Sting", "Ran"])
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 4)
        #expect(try context.fetchCount(FetchDescriptor<Media>()) == 7)
    }
}
