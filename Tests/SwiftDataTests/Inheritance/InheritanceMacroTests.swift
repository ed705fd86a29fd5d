import Foundation
import SwiftData
import Testing

/// What `@Model` generates for subclasses, seen at run time: numbering, metadata, initializers.
@Suite("Model inheritance: generated code")
struct InheritanceMacroTests {
    @Test func subclassMetadataAddsToTheParents() {
        #expect(Media.schemaMetadata.map(\.name) == ["title", "year", "reviews", "shelf"])
        #expect(Movie.schemaMetadata.map(\.name) == ["title", "year", "reviews", "shelf", "director", "runtime"])
        #expect(Documentary.schemaMetadata.map(\.name).suffix(2) == ["subject", "clips"])
        #expect(Documentary.schemaMetadata.count == 8)
        #expect(Podcast.schemaMetadata.map(\.name).suffix(2) == ["host", "episodes"])
    }

    @Test func metadataKeyPathsAreRootedAtTheClassAsked() {
        #expect(Movie.schemaMetadata[0].keyPath == \Movie.title)
        #expect(Documentary.schemaMetadata[4].keyPath == \Documentary.director)
        #expect(Media.schemaMetadata[0].keyPath == \Media.title)
    }

    @Test func initializersAssignEveryLevel() {
        let documentary = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: "nature")
        #expect(documentary.title == "Planet")
        #expect(documentary.year == 2006)
        #expect(documentary.director == "Fothergill")
        #expect(documentary.subject == "nature")
        #expect(documentary.runtime == 0)
        let podcast = Podcast(title: "Talk", year: 2020)
        #expect(podcast.host == "")
        podcast.host = "Sam"
        #expect(podcast.host == "Sam")
    }

    @Test func propertyFunctionsReachEveryLevel() throws {
        let documentary = Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: nil)
        #expect(documentary._$get(0).value as? String == "Planet")
        #expect(documentary._$get(4).value as? String == "Fothergill")
        #expect(documentary._$get(6).isLoaded && documentary._$get(6).value == nil, "loaded, and nil")
        try documentary._$set(4, .loaded("Attenborough"))
        #expect(documentary.director == "Attenborough")
        try documentary._$set(0, .loaded("Blue Planet"))
        #expect(documentary.title == "Blue Planet")
        #expect(!documentary._$get(99).isLoaded)
        #expect(throws: SwiftDataError.modelValidationFailure) { try documentary._$set(4, .loaded(42)) }
        #expect(documentary.director == "Attenborough", "a value of the wrong type changes nothing")
    }

    @Test func modelsAreObservableOnEveryLevel() {
        let movie = Movie(title: "Heat", year: 1995, director: "Mann")
        let ownFired = Flag()
        withObservationTracking {
            _ = movie.director
        } onChange: {
            ownFired.set()
        }
        let inheritedFired = Flag()
        withObservationTracking {
            _ = movie.title
        } onChange: {
            inheritedFired.set()
        }
        movie.director = "Michael Mann"
        movie.title = "Heat (1995)"
        #expect(ownFired.isSet)
        #expect(inheritedFired.isSet)
    }
}
