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
