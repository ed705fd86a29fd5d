import Foundation
import SwiftData
import Testing

@testable import ExampleModels

/// The seeds' models used as their apps use them, checked through a fresh container.
@Suite struct SeedModelTests {
    @Test func todoAppAddsSortsTogglesAndDeletes() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(ToDoItem.self, in: directory))
            for index in 0..<10 {
                context.insert(ToDoItem(name: "To do item #\(index)"))
            }
            context.insert(ToDoItem(name: "Urgent", priority: .high))
            context.insert(ToDoItem(name: "Someday", priority: .low))
            try context.save()
        }
        do {
            let context = ModelContext(try makeContainer(ToDoItem.self, in: directory))
            // The seed's @Query(sort: \ToDoItem.priorityNum, order: .reverse).
            let items = try context.fetch(
                FetchDescriptor<ToDoItem>(sortBy: [SortDescriptor(\ToDoItem.priorityNum, order: .reverse)]))
            #expect(items.count == 12)
            #expect(items.first?.name == "Urgent")
            #expect(items.last?.name == "Someday")
            #expect(items[1].name == "To do item #0", "equal priorities keep the order they were added in")
            items[1].isComplete.toggle()
            context.delete(items.last!)
            try context.save()
        }
        let context = ModelContext(try makeContainer(ToDoItem.self, in: directory))
        let items = try context.fetch(
            FetchDescriptor<ToDoItem>(sortBy: [SortDescriptor(\ToDoItem.priorityNum, order: .reverse)]))
        #expect(items.count == 11)
        #expect(items.filter(\.isComplete).map(\.name) == ["To do item #0"])
        #expect(Set(items.map(\.id)).count == 11)
    }

    @Test func foodPinRatingsAndFavouritesPersist() throws {
        let directory = TemporaryDirectory()
        let picture = Data((0..<1000).map { UInt8($0 % 256) })
        do {
            let context = ModelContext(try makeContainer(Restaurant.self, in: directory))
            let cafe = Restaurant(
                name: "Cafe Deadend", type: "Coffee & Tea Shop",
                location: "G/F, 72 Po Hing Fong, Sheung Wan, Hong Kong",
                phone: "232-923423", description: "Searching for great breakfast eateries and coffee?")
            cafe.imageData = picture
            context.insert(cafe)
            context.insert(
                Restaurant(
                    name: "Homei", type: "Cafe", location: "Hong Kong", phone: "348-233423", description: "A little gem"
                ))
            try context.save()
            cafe.rating = .awesome
            cafe.isFavorite = true
            try context.save()
        }
        let context = ModelContext(try makeContainer(Restaurant.self, in: directory))
        let restaurants = try context.fetch(FetchDescriptor<Restaurant>(sortBy: [SortDescriptor(\.name)]))
        #expect(restaurants.map(\.name) == ["Cafe Deadend", "Homei"])
        #expect(restaurants[0].rating == .awesome)
        #expect(restaurants[0].ratingText == "awesome")
        #expect(restaurants[0].isFavorite)
        #expect(restaurants[0].imageData == picture)
        #expect(restaurants[0].summary == "Searching for great breakfast eateries and coffee?")
        #expect(restaurants[1].rating == nil)
        #expect(restaurants[1].imageData == Data())
        let favourites = try context.fetch(FetchDescriptor<Restaurant>(predicate: #Predicate { $0.isFavorite }))
        #expect(favourites.map(\.name) == ["Cafe Deadend"])
    }

    @Test func userCRUD() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try makeContainer(User.self, in: directory))
        let user = User(name: "Taylor", email: "taylor@example.com")
        context.insert(user)
        try context.save()
        user.email = "taylor@example.org"
        try context.save()
        let reloaded = ModelContext(try makeContainer(User.self, in: directory))
        let users = try reloaded.fetch(FetchDescriptor<User>())
        #expect(users.map(\.email) == ["taylor@example.org"])
        reloaded.delete(users[0])
        try reloaded.save()
        #expect(try ModelContext(try makeContainer(User.self, in: directory)).fetchCount(FetchDescriptor<User>()) == 0)
    }
}
