import Foundation
import SwiftData

/// The models of the tool's tests: a shelf's books in order (an ordered to-many), books with tags (many-to-many),
/// values of every kind the stores keep, and a cover kept in external storage.
@Model final class ToolShelf {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \ToolBook.shelf) var books: [ToolBook] = []

    init(name: String) { self.name = name }
}

@Model final class ToolBook {
    var title: String
    var isbn: UUID
    var published: Date
    var price: Decimal
    var rating: Double
    var pages: Int
    var serial: UInt64
    var link: URL?
    var genre: ToolGenre
    var details: ToolDetails
    var subtitle: String?
    var isLent: Bool
    @Attribute(.externalStorage) var cover: Data
    var shelf: ToolShelf?
    @Relationship(inverse: \ToolTag.books) var tags: [ToolTag] = []

    init(title: String, isbn: UUID, published: Date, price: Decimal, rating: Double, pages: Int, serial: UInt64) {
        self.title = title
        self.isbn = isbn
        self.published = published
        self.price = price
        self.rating = rating
        self.pages = pages
        self.serial = serial
        genre = .fiction
        details = ToolDetails(language: "en", editions: [1])
        isLent = false
        cover = Data()
    }
}

@Model final class ToolTag {
    @Attribute(.unique) var name: String
    var books: [ToolBook] = []

    init(name: String) { self.name = name }
}

enum ToolGenre: String, Codable, CaseIterable {
    case fiction, poetry, history, science
}

struct ToolDetails: Codable, Equatable {
    var language: String
    var editions: [Int]
    var note: String?
}

/// A store of the tool's models, filled with `books` pseudo-random books (the same for the same seed).
enum ToolLibrary {
    static var types: [any PersistentModel.Type] { [ToolShelf.self, ToolBook.self, ToolTag.self] }

    /// How many books the large tests copy: `SWIFTDATA_TOOL_ROWS` (100000 for the full-size run), 5,000 by default.
    static var rows: Int { ProcessInfo.processInfo.environment["SWIFTDATA_TOOL_ROWS"].flatMap(Int.init) ?? 5_000 }

    /// How many rows a store of `books` books holds: the books, 20 tags, and a shelf per hundred books.
    static func rowCount(books: Int) -> Int { books + 20 + 1 + books / 100 }

    static func fill(_ container: ModelContainer, books count: Int, seed: UInt64 = 38) throws {
        var random = SeededRandom(seed: seed)
        let context = ModelContext(container)
        context.autosaveEnabled = false
        let tags = (0..<20).map { ToolTag(name: "tag \($0)") }
        tags.forEach(context.insert)
        var shelf = ToolShelf(name: "shelf 0")
        context.insert(shelf)
        for number in 0..<count {
            if number % 100 == 99 {
                try context.save()
                shelf = ToolShelf(name: "shelf \(number / 100 + 1)")
                context.insert(shelf)
            }
            let book = ToolBook(
                title: "Book \(number) \(random.next() % 1000)", isbn: UUID(),
                published: Date(timeIntervalSinceReferenceDate: Double(random.next() % 1_000_000_000) / 7),
                price: Decimal(Int(random.next() % 100_000)) / 100,
                rating: number == 3 ? -0.0 : number == 4 ? .nan : Double(random.next() % 1000) / 3,
                pages: Int(random.next() % 2000) - 5, serial: random.next())
            book.link = number % 3 == 0 ? URL(string: "https://example.com/books/\(number)?a=b") : nil
            book.genre = ToolGenre.allCases[Int(random.next() % 4)]
            book.details = ToolDetails(
                language: ["en", "fr", "de/ch"][number % 3], editions: (0..<Int(random.next() % 4)).map { $0 * 2 },
                note: number % 5 == 0 ? "note \"\(number)\"" : nil)
            book.subtitle = number % 2 == 0 ? "Ünïcödé \(number)" : nil
            book.isLent = random.next() % 2 == 0
            if number % 10 == 0 {
                book.cover = Data((0..<Int(100 + random.next() % 1900)).map { _ in UInt8(random.next() % 256) })
            }
            context.insert(book)
            // Books join their shelf in an order unlike their keys, so that the copy must keep the order.
            if random.next() % 2 == 0 { shelf.books.append(book) } else { shelf.books.insert(book, at: 0) }
            book.tags = (0..<Int(random.next() % 4)).map { _ in tags[Int(random.next() % 20)] }
                .reduce(into: [ToolTag]()) { list, tag in if !list.contains(where: { $0 === tag }) { list.append(tag) }
                }
        }
        try context.save()
    }

    /// Every model of a container, described by its identifier and values, related models by their identifiers
    /// in order: what two stores must agree on, row by row.
    static func describe(_ container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        func id(_ model: some PersistentModel) -> String { String(describing: model.persistentModelID) }
        var lines: [String] = []
        for shelf in try context.fetch(FetchDescriptor<ToolShelf>()) {
            lines.append("\(id(shelf)) \(shelf.name) [\(shelf.books.map(id).joined(separator: ","))]")
        }
        for book in try context.fetch(FetchDescriptor<ToolBook>()) {
            let values: [Any?] = [
                book.title, book.isbn, book.published.timeIntervalSinceReferenceDate, book.price,
                book.rating.bitPattern, book.pages, book.serial, book.link, book.genre, book.details, book.subtitle,
                book.isLent, book.cover, book.shelf.map(id), book.tags.map(id),
            ]
            lines.append("\(id(book)) \(values.map { String(describing: $0) }.joined(separator: "|"))")
        }
        for tag in try context.fetch(FetchDescriptor<ToolTag>()) {
            lines.append("\(id(tag)) \(tag.name) [\(tag.books.map(id).sorted().joined(separator: ","))]")
        }
        return lines.sorted()
    }
}

/// A store of the model hierarchies of the inheritance tests, with a model of every class.
enum ToolHierarchy {
    static func fill(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let shelf = MediaShelf(name: "favourites")
        let studio = Studio(name: "Pinewood")
        let plain = Media(title: "Untitled", year: 1990)
        let movie = Movie(title: "Alien", year: 1979, director: "Ridley Scott")
        movie.runtime = 117
        let documentary = Documentary(title: "Koyaanisqatsi", year: 1982, director: "Godfrey Reggio", subject: nil)
        documentary.clips = [Clip(seconds: 30), Clip(seconds: 12)]
        let podcast = Podcast(title: "Talks", year: 2020)
        podcast.host = "Ada"
        podcast.episodes = 42
        let feature = Feature(title: "Brazil", year: 1985, director: "Terry Gilliam", studio: studio)
        for media in [plain, movie, documentary, podcast, feature] { context.insert(media) }
        shelf.items = [feature, plain, documentary]
        context.insert(Review(text: "classic", media: movie))
        context.insert(Review(text: "long", media: documentary))
        context.insert(Review(text: "odd", media: feature))
        let business = Business(handle: "acme", taxID: "DE-1")
        business.region = "north"
        for account in [Account(handle: "root"), business, Team(handle: "blues", region: "north")] {
            context.insert(account)
        }
        context.insert(Personal(handle: "sam", region: "south"))
        try context.save()
    }

    /// Every model, by its class, identifier and values, related models by their identifiers.
    static func describe(_ container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        func id(_ model: (some PersistentModel)?) -> String { model.map { "\($0.persistentModelID)" } ?? "-" }
        var lines: [String] = []
        for media in try context.fetch(FetchDescriptor<Media>()) {
            var values: [Any?] = [media.title, media.year, media.reviews.map(id).sorted(), id(media.shelf)]
            if let movie = media as? Movie { values += [movie.director, movie.runtime] }
            if let documentary = media as? Documentary {
                values += [documentary.subject, documentary.clips.map(id).sorted()]
            }
            if let feature = media as? Feature { values.append(id(feature.studio)) }
            if let podcast = media as? Podcast { values += [podcast.host, podcast.episodes] }
            lines.append("\(type(of: media)) \(id(media)) \(values.map { String(describing: $0) })")
        }
        for shelf in try context.fetch(FetchDescriptor<MediaShelf>()) {
            lines.append("MediaShelf \(id(shelf)) \(shelf.name) \(shelf.items.map(id).sorted())")
        }
        for studio in try context.fetch(FetchDescriptor<Studio>()) {
            lines.append("Studio \(id(studio)) \(studio.name) \(studio.features.map(id))")
        }
        for review in try context.fetch(FetchDescriptor<Review>()) {
            lines.append("Review \(id(review)) \(review.text) \(id(review.media))")
        }
        for clip in try context.fetch(FetchDescriptor<Clip>()) { lines.append("Clip \(id(clip)) \(clip.seconds)") }
        for account in try context.fetch(FetchDescriptor<Account>()) {
            var values: [Any?] = [account.handle, account.region]
            if let business = account as? Business { values.append(business.taxID) }
            if let team = account as? Team { values.append(team.members) }
            if let personal = account as? Personal { values.append(personal.nickname) }
            lines.append("\(type(of: account)) \(id(account)) \(values.map { String(describing: $0) })")
        }
        return lines.sorted()
    }
}

/// The root of a hierarchy whose subclass `ToolTruck` adds no property.
@Model class ToolVehicle {
    var plate: String
    init(plate: String) { self.plate = plate }
}

/// A subclass with a unique constraint on an inherited attribute and no property of its own.
@Model final class ToolTruck: ToolVehicle {
    #Unique<ToolTruck>([\.plate])
}

/// A subclass with a property of its own.
@Model final class ToolVan: ToolVehicle {
    var seats: Int = 0
}
