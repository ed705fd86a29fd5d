import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore

/// What `@Model` generates, seen from the running program.
@Suite struct ModelRuntimeTests {
    @Test func modelsAreObservable() throws {
        let counter = Counter(label: "watched")
        let fired = Flag()
        withObservationTracking {
            _ = counter.value
        } onChange: {
            fired.set()
        }
        counter.label = "not observed"
        #expect(!fired.isSet, "only the properties read while tracking are observed")
        counter.value = 1
        #expect(fired.isSet)

        let context = ModelContext(try makeMemoryContainer(Counter.self))
        context.insert(counter)
        try context.save()
        let loaded = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Counter>()).first)
        let firedAfterLoad = Flag()
        withObservationTracking {
            _ = loaded.label
        } onChange: {
            firedAfterLoad.set()
        }
        loaded.label = "changed"
        #expect(firedAfterLoad.isSet, "models loaded from a store are observable too")
    }

    @Test func transientPropertiesResetWhenLoaded() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Counter.self, in: directory))
            let counter = Counter(label: "t")
            counter.lastRead = 99
            context.insert(counter)
            try context.save()
        }
        let loaded = try #require(
            try ModelContext(try makeContainer(Counter.self, in: directory)).fetch(FetchDescriptor<Counter>()).first)
        #expect(loaded.lastRead == -1)
        let entity = try #require(Schema([Counter.self]).entitiesByName["Counter"])
        #expect(entity.orderedAttributes.map(\.name) == ["label", "value"], "@Transient properties are not stored")
    }

    @Test func initialValuesAreTheSchemasDefaultsAndApplyToNewModels() throws {
        let entity = try #require(Schema([Restaurant.self]).entitiesByName["Restaurant"])
        #expect(entity.attributesByName["name"]?.defaultValue as? String == "")
        #expect(entity.attributesByName["isFavorite"]?.defaultValue as? Bool == false)
        #expect(entity.attributesByName["imageData"]?.defaultValue as? Data == Data())
        #expect(
            entity.attributesByName["imageData"]?.valueType == Data.self,
            "an untyped property's type comes from its initial value")
        #expect(entity.attributesByName["imageData"]?.options == [.externalStorage])
        #expect(entity.attributesByName["ratingText"]?.originalName == "rating")
        #expect(entity.attributesByName["ratingText"]?.isOptional == true)
        #expect(entity.attributesByName["rating"] == nil && entity.attributesByName["image"] == nil)
        let counter = Counter(label: "x")
        #expect(counter.value == 0)
    }

    @Test func todoSeedInitializerAssignsAComputedPropertyFirst() throws {
        // The seed's init sets `priority` (computed, backed by `priorityNum`) before `isComplete`.
        let item = ToDoItem(name: "Buy milk", priority: .high)
        #expect(item.priorityNum == 2)
        #expect(item.priority == .high)
        #expect(item.isComplete == false)
        let entity = try #require(Schema([ToDoItem.self]).entitiesByName["ToDoItem"])
        #expect(entity.orderedAttributes.map(\.name) == ["id", "name", "priorityNum", "isComplete"])
        #expect(entity.attributesByName["priorityNum"]?.originalName == "priority")
        #expect(entity.attributesByName["id"]?.valueType == UUID.self, "the class's own id is an ordinary attribute")
    }

    @Test func modelsUseTheirOwnIdentifiableID() throws {
        let item = ToDoItem(name: "has its own id")
        let id: UUID = item.id
        #expect(id == item.id)
        let user = User(name: "u", email: "")
        let userID: PersistentIdentifier = user.id
        #expect(userID == user.persistentModelID, "without an own id, Identifiable uses the persistent identifier")
    }

    @Test func equalityAndHashingAreIdentity() {
        let a = User(name: "same", email: "")
        let b = User(name: "same", email: "")
        #expect(a != b)
        #expect(a == a)
        #expect(Set([a, b, a]).count == 2)
    }

    @Test func changeTrackingRecordsEachPropertyOnce() throws {
        let context = ModelContext(try makeMemoryContainer(Counter.self))
        let counter = Counter(label: "tracked")
        context.insert(counter)
        try context.save()
        for value in 1...100 { counter.value = value }
        #expect(counter._$persistentState.changes.indexes == [1])
        #expect(context.registry.changed.count == 1)
        try context.save()
        #expect(counter._$persistentState.changes.isEmpty)
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Counter>()).first?.value == 100)
    }
}
