import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// What a walk of a to-many relationship leaves behind: members whose inverse is a link to the walked owner, read
/// without another query, and, once the program lets the members go, an identity map that no longer lists them.
@Suite struct WalkedMemberTests {
    /// A store with three categories of four animals each.
    private func zoo() throws -> ModelContainer {
        let container = try makeMemoryContainer(AnimalCategory.self)
        let context = ModelContext(container)
        for index in 0..<3 {
            let category = AnimalCategory(name: "category \(index)")
            category.animals = (0..<4).map { Animal(name: "animal \(index)-\($0)", diet: .omnivorous) }
            context.insert(category)
        }
        try context.save()
        return container
    }

    @Test func walkedMembersReadTheirOwnerWithoutAQuery() throws {
        let container = try zoo()
        let context = ModelContext(container)
        let categories = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
        let members = categories.map(\.animals)
        let log = StatementLog(container)
        for (category, animals) in zip(categories, members) {
            #expect(animals.count == 4)
            for animal in animals {
                #expect(animal.category === category)
                #expect(animal.name.hasPrefix("animal \(category.name.dropFirst("category ".count))-"))
            }
        }
        #expect(log.selects.isEmpty, "the members' owner is linked by the walk: \(log.selects)")
        #expect(members.joined().allSatisfy { !$0.hasChanges })
    }

    /// A member whose row loads in one call and whose only reference is the walked owner's inverse links to the owner
    /// as it registers: it reads its owner without a query, the owner is linked (not held), and its values load.
    @Test func aPlainMemberLinksItsOwnerAsItRegisters() throws {
        let container = try makeMemoryContainer(WalkedShelf.self, WalkedBook.self)
        let writer = ModelContext(container)
        for index in 0..<3 {
            let shelf = WalkedShelf(name: "shelf \(index)")
            shelf.books = (0..<4).map { WalkedBook(title: "book \(index)-\($0)", pages: 10 * index + $0) }
            writer.insert(shelf)
        }
        try writer.save()
        let context = ModelContext(container)
        let shelves = try context.fetch(FetchDescriptor<WalkedShelf>(sortBy: [SortDescriptor(\.name)]))
        let books = shelves.map(\.books)
        let log = StatementLog(container)
        for (index, (shelf, members)) in zip(shelves, books).enumerated() {
            #expect(members.map(\.title) == (0..<4).map { "book \(index)-\($0)" })
            #expect(members.map(\.pages) == (0..<4).map { 10 * index + $0 })
            for book in members {
                #expect(book.shelf === shelf)
                #expect(book._$persistentState.linkedKey(2) == shelf._$persistentState.key, "linked, not held")
            }
        }
        #expect(log.selects.isEmpty, "the members' owner is linked by the walk: \(log.selects)")
        #expect(books.joined().allSatisfy { !$0.hasChanges })
    }

    @Test func walkedMembersLeaveTheIdentityMapWhenTheyGoAway() throws {
        let container = try zoo()
        let context = ModelContext(container)
        let animals = context.registry.map(for: ObjectIdentifier(Animal.self))
        var identifiers: [PersistentIdentifier] = []
        weak var gone: Animal?
        do {
            let categories = try context.fetch(FetchDescriptor<AnimalCategory>())
            for category in categories { identifiers += category.animals.map(\.persistentModelID) }
            gone = categories.first?.animals.first
            #expect(animals.count == 12)
        }
        #expect(gone == nil, "nothing but the program held the walked models")
        #expect(animals.count == 0, "every walked model left the identity map as it went away")
        #expect(identifiers.allSatisfy { context.registeredModel(for: $0) as Animal? == nil })
        // A second walk makes new models, registered again, with the same values.
        let names = try context.fetch(FetchDescriptor<AnimalCategory>()).flatMap { $0.animals.map(\.name) }
        #expect(names.sorted() == (0..<3).flatMap { index in (0..<4).map { "animal \(index)-\($0)" } })
    }
}

/// An owner whose members have plain attributes and no reference but their owner (see
/// `aPlainMemberLinksItsOwnerAsItRegisters`).
@Model final class WalkedShelf {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \WalkedBook.shelf) var books: [WalkedBook] = []

    init(name: String) { self.name = name }
}

/// A member of `WalkedShelf`.
@Model final class WalkedBook {
    var title: String
    var pages: Int
    var shelf: WalkedShelf?

    init(title: String, pages: Int) {
        self.title = title
        self.pages = pages
    }
}
