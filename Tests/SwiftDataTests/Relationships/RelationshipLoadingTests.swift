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
