import Foundation
import SwiftData
import Testing

/// `ResultsObserver` over a hierarchy: saves of any class's models reach observers of any class they are, on every
/// store (`StoreKind`).
@Suite("Model inheritance: results observers")
struct InheritanceObserverTests {
    @Test(arguments: StoreKind.all) func savesOfSubclassModelsReachObserversOfTheirSuperclasses(store: StoreKind) throws
    {
        let container = try store.location().container(Schema(mediaModels), inMemory: true)
        let writer = ModelContext(container)
        writer.insert(Media(title: "Radio", year: 1920))
        try writer.save()
        let all = try ResultsObserver(
            filterBy: #Predicate<Media> { $0.year > 1900 }, sortBy: [SortDescriptor(\.year)],
            modelContext: ModelContext(container))
        let movies = try ResultsObserver(
            filterBy: #Predicate<Movie> { $0.director != "" }, sortBy: [SortDescriptor(\.year)],
            modelContext: ModelContext(container))
        let films = try ResultsObserver(
            filterBy: #Predicate<Media> { $0 is Movie }, sortBy: [SortDescriptor(\.title)],
            modelContext: ModelContext(container))
        #expect(all.results.map(\.title) == ["Radio"])
        #expect(movies.results.isEmpty && films.results.isEmpty)

        let planet = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: nil)
        writer.insert(planet)
        writer.insert(Podcast(title: "Talk", year: 2020))
        try writer.save()
        #expect(all.results.map(\.title) == ["Radio", "Planet", "Talk"])
        #expect(all.results[1] is Documentary)
        #expect(movies.results.map(\.title) == ["Planet"])
        #expect(films.results.map(\.title) == ["Planet"])

        planet.director = ""
        try writer.save()
        #expect(movies.results.isEmpty, "a change of a subclass's own property")

        try writer.delete(model: Media.self, where: #Predicate { $0.year > 2000 })
        try writer.save()
        #expect(all.results.map(\.title) == ["Radio"], "a batch delete of the superclass")
        #expect(films.results.isEmpty)
    }
}
