import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// Relationships load lazily, in batches: never one query per model.
@Suite struct RelationshipLoadingTests {
    /// A store with `count` categories of 5 animals each.
    func zoo(_ count: Int) throws -> ModelContainer {
        let container = try makeMemoryContainer(AnimalCategory.self)
        let context = ModelContext(container)
        for index in 0..<count {
            let category = AnimalCategory(name: "category \(index)")
            category.animals = (0..<5).map { Animal(name: "animal \(index)-\($0)", diet: .omnivorous) }
            context.insert(category)
        }
        try context.save()
        return container
    }

    @Test func walkingToManyCostsAConstantNumberOfQueries() throws {
        for count in [3, 30] {
            let container = try zoo(count)
            let context = ModelContext(container)
            let log = StatementLog(container)
            var names: [String] = []
            for category in try context.fetch(FetchDescriptor<AnimalCategory>()) {
                names += category.animals.map(\.name)
            }
            #expect(names.count == count * 5)
            #expect(log.selects.count == 2, "\(count) categories: \(log.selects)")
        }
    }

    /// One query loads the members of every owner: each owner gets its own members, and only those, when the
    /// members' rows of different owners interleave.
    @Test func batchedToManyLoadKeepsEachOwnersMembers() throws {
        let container = try makeMemoryContainer(AnimalCategory.self)
        let writer = ModelContext(container)
        let categories = (0..<4).map { AnimalCategory(name: "category \($0)") }
        for category in categories { writer.insert(category) }
        for index in 0..<20 {
            // Round robin, so that consecutive rows belong to different owners; one category keeps none.
            let animal = Animal(name: "animal \(index)", diet: .omnivorous)
            writer.insert(animal)
            animal.category = categories[index % 3]
        }
        try writer.save()

        let context = ModelContext(container)
        let log = StatementLog(container)
        let fetched = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)]))
        for (number, category) in fetched.enumerated() {
            let expected = number == 3 ? [] : (0..<20).filter { $0 % 3 == number }.map { "animal \($0)" }
            #expect(category.animals.map(\.name).sorted() == expected.sorted(), "\(category.name)")
            #expect(category.animals.allSatisfy { $0.category === category })
        }
        #expect(log.selects.count == 2, "\(log.selects)")
    }

    @Test func walkingToOneCostsAConstantNumberOfQueries() throws {
        for count in [3, 30] {
            let container = try zoo(count)
            let context = ModelContext(container)
            let log = StatementLog(container)
            let animals = try context.fetch(FetchDescriptor<Animal>())
            #expect(Set(animals.compactMap { $0.category?.name }).count == count)
            #expect(log.selects.count == 2, "\(count) categories: \(log.selects)")
        }
    }

    @Test func prefetchingLoadsWithTheFetch() throws {
        let container = try zoo(10)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<AnimalCategory>()
        descriptor.relationshipKeyPathsForPrefetching = [\.animals]
        let categories = try context.fetch(descriptor)
        let log = StatementLog(container)
        #expect(categories.flatMap(\.animals).count == 50)
        #expect(log.selects.isEmpty, "everything was loaded by the fetch")

        var animalsDescriptor = FetchDescriptor<Animal>()
        animalsDescriptor.relationshipKeyPathsForPrefetching = [\.category]
        let other = ModelContext(container)
        let animals = try other.fetch(animalsDescriptor)
        let otherLog = StatementLog(container)
        #expect(Set(animals.compactMap { $0.category?.name }).count == 10)
        #expect(otherLog.selects.isEmpty)
    }

    @Test(arguments: StoreKind.all) func modelsInACycleAreFreedWithTheirContext(store: StoreKind) throws {
        weak var weakParent: Node?
        weak var weakChild: Node?
        weak var weakContainer: ModelContainer?
        do {
            let container = try store.makeContainer(Node.self)
            weakContainer = container
            do {
                let context = ModelContext(container)
                let parent = Node(name: "parent")
                context.insert(parent)
                _ = Node(name: "child", parent: parent)
                try context.save()
            }
            let context = ModelContext(container)
            let parent = try #require(
                try context.fetch(FetchDescriptor<Node>(predicate: #Predicate { $0.name == "parent" })).first)
            let child = try #require(parent.children.first)
            #expect(child.parent === parent)
            weakParent = parent
            weakChild = child
        }
        #expect(weakParent == nil)
        #expect(weakChild == nil)
        #expect(weakContainer == nil)
    }
}
