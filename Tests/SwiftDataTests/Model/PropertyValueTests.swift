import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// Turns tags into JSON, and JSON back into a number: a transformer that gives a property a value of another type.
final class TagsToNumberTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? [String]).flatMap { try? JSONEncoder().encode($0) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? { 42 }
}

@Model final class TaggedNote {
    var title: String
    @Attribute(.transformable(by: TagsToNumberTransformer.self)) var tags: [String] = []

    init(title: String, tags: [String]) {
        self.title = title
        self.tags = tags
    }
}

@Model final class Journey {
    var name: String
    @Relationship(inverse: \Stage.journey) var stages: [Stage] = []

    init(name: String) { self.name = name }
}

@Model final class Stage {
    var number: Int
    var journey: Journey

    init(number: Int, journey: Journey) {
        self.number = number
        self.journey = journey
    }
}

/// A model whose initializer forgets a property.
@Model final class ForgetfulNote {
    var title: String

    init() {}
}

/// How values reach a model's properties: a value of the wrong type is an error naming the model and the property,
/// never an emptied property, and the reads that have no value to return stop with a message that says what to do.
@Suite struct PropertyValueTests {
    @Test func aValueOfTheWrongTypeIsAnErrorNamingModelAndProperty() throws {
        let container = try makeMemoryContainer(TaggedNote.self)
        let writer = ModelContext(container)
        writer.insert(TaggedNote(title: "groceries", tags: ["food"]))
        try writer.save()
        let reader = ModelContext(container)
        let error = try #require(throws: SwiftDataError.self) { try reader.fetch(FetchDescriptor<TaggedNote>()) }
        #expect(error.modelName == "TaggedNote")
        #expect(error.propertyName == "tags")
        #expect(error.reason?.contains("Array<String>") == true && error.reason?.contains("Int") == true)
    }

    @Test func aCustomStoresValueOfTheWrongTypeIsAnErrorNamingModelAndProperty() throws {
        let box = SnapshotBox()
        let container = try ModelContainer(for: Counter.self, configurations: MemorySnapshotConfiguration(box: box))
        let writer = ModelContext(container)
        writer.insert(Counter(label: "steps"))
        try writer.save()
        for id in Array(box.snapshots.keys) { box.snapshots[id]?.values["value"] = .attribute(.string("seven")) }
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContext(container).fetch(FetchDescriptor<Counter>())
        }
        #expect(error.modelName == "Counter")
        #expect(error.propertyName == "value")
    }

    @Test func aRequiredToOneRelationshipOfADeletedModelKeepsItsTarget() throws {
        let container = try makeMemoryContainer(Journey.self, Stage.self)
        let writer = ModelContext(container)
        let journey = Journey(name: "Alps")
        writer.insert(journey)
        for number in 1...2 { writer.insert(Stage(number: number, journey: journey)) }
        try writer.save()

        let context = ModelContext(container)
        let fetched = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
        // Loading the inverse makes each stage find its journey through the context (a link), not hold it.
        let stages = fetched.stages.sorted { $0.number < $1.number }
        #expect(stages.count == 2)
        context.delete(stages[0])
        try context.save()
        #expect(stages[0].modelContext == nil)
        #expect(stages[0].journey.name == "Alps", "the model it related to when it left its context")
        #expect(fetched.stages.map(\.number) == [2])
    }

    @Test func readingAPropertyNeverAssignedStopsWithItsName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ForgetfulNote().title
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ForgetfulNote.title was read before it was given a value"))
        #expect(message.contains("assign it in the initializer or declare a default value"))
    }

    @Test func aBackingDataOfNoModelStopsWithWhatToUseInstead() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let data = DefaultBackingData(for: ForgetfulNote.self)
            _ = data.getValue(forKey: \ForgetfulNote.title)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("use the model's persistentBackingData"))
    }

    @Test func anIdentifierOfAnotherSchemaStopsWithWhatToDo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let notes = try makeMemoryContainer(ForgetfulNote.self)
            let journeys = try makeMemoryContainer(Journey.self)
            let context = ModelContext(journeys)
            let note = ForgetfulNote()
            note.title = "elsewhere"
            ModelContext(notes).insert(note)
            _ = context.model(for: note.persistentModelID)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ForgetfulNote, which is not in this container's schema"))
    }
}

extension PropertyValueTests {
    @Test func anAttributeWithNoEmptyValueNeverLoadedStopsWithWhatToDo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try makeMemoryContainer(Palette.self)
            let writer = ModelContext(container)
            writer.insert(Palette(name: "warm", hue: Hue(degrees: 30)))
            try writer.save()
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<Palette>()
            descriptor.propertiesToFetch = [\.name]
            for palette in try context.fetch(descriptor) {
                context.delete(palette)
                try context.save()
                _ = palette.hue
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Palette.hue has no value to read"))
        #expect(message.contains("read it before the model leaves its context, or make the property optional"))
    }
}
