import Foundation
import SwiftData

// A model hierarchy as Apple's iOS 26 SwiftData declares one: `@Model` on every level.

/// The root of the hierarchy: its properties, relationships and index are every subclass's too.
@Model class Media {
    #Index<Media>([\.year])

    var title: String
    var year: Int
    @Relationship(deleteRule: .cascade, inverse: \Review.media) var reviews: [Review] = []
    var shelf: MediaShelf?

    init(title: String, year: Int) {
        self.title = title
        self.year = year
    }
}

/// A subclass with an initializer of its own, which assigns its properties before `super.init`.
@Model class Movie: Media {
    var director: String
    var runtime: Int = 0

    init(title: String, year: Int, director: String) {
        self.director = director
        super.init(title: title, year: year)
    }
}

/// A final leaf three levels deep, with a to-many relationship of its own.
@Model final class Documentary: Movie {
    var subject: String?
    @Relationship(deleteRule: .cascade) var clips: [Clip] = []

    init(title: String, year: Int, director: String, subject: String?) {
        self.subject = subject
        super.init(title: title, year: year, director: director)
    }
}

/// A subclass without an initializer: it inherits `Media`'s.
@Model final class Podcast: Media {
    var host: String = ""
    var episodes: Int = 0
}

/// A subclass whose initializer assigns a relationship before `super.init`, when no setter can run yet.
@Model final class Feature: Movie {
    var studio: Studio?

    init(title: String, year: Int, director: String, studio: Studio) {
        self.studio = studio
        super.init(title: title, year: year, director: director)
    }
}

/// The other side of a subclass's relationship.
@Model final class Studio {
    var name: String
    @Relationship(inverse: \Feature.studio) var features: [Feature] = []

    init(name: String) { self.name = name }
}

/// Refers to the root type; its media may be any subclass.
@Model final class Review {
    var text: String
    var media: Media?

    init(text: String, media: Media? = nil) {
        self.text = text
        self.media = media
    }
}

/// Holds models of the root type, of any class.
@Model final class MediaShelf {
    var name: String
    @Relationship(inverse: \Media.shelf) var items: [Media] = []

    init(name: String) { self.name = name }
}

/// A model that only a subclass relates to.
@Model final class Clip {
    var seconds: Int
    init(seconds: Int) { self.seconds = seconds }
}

/// Every model of the hierarchy tests, for containers.
var mediaModels: [any PersistentModel.Type] {
    [Media.self, Movie.self, Documentary.self, Podcast.self, Feature.self, Review.self, MediaShelf.self, Clip.self]
}

// A second hierarchy, for unique constraints and indexes on every level.

/// A root with a unique attribute: no two accounts of any class share a handle.
@Model class Account {
    @Attribute(.unique) var handle: String
    var region: String = ""

    init(handle: String, region: String = "") {
        self.handle = handle
        self.region = region
    }
}

/// A subclass with a unique attribute of its own, and an index.
@Model final class Business: Account {
    #Unique<Business>([\.taxID])
    #Index<Business>([\.taxID, \.handle])
    var taxID: String

    init(handle: String, taxID: String) {
        self.taxID = taxID
        super.init(handle: handle)
    }
}

/// A subclass whose constraint is on an inherited attribute: one team per region, whatever other accounts do.
@Model final class Team: Account {
    #Unique<Team>([\.region])
    var members: Int = 0
}

/// A subclass without constraints of its own.
@Model final class Personal: Account {
    var nickname: String?
}

/// The models of the accounts hierarchy.
var accountModels: [any PersistentModel.Type] { [Account.self, Business.self, Team.self, Personal.self] }
