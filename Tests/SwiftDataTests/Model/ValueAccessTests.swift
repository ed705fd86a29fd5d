import Foundation
import Observation
import SwiftData
import Synchronization
import Testing

/// A model with a property that cannot be set.
@Model final class Headline {
    var title: String
    var shout: String { title.uppercased() }
    init(title: String) { self.title = title }
}

/// `getValue(forKey:)` / `setValue(forKey:to:)` and their transformable forms, on models and on their backing
/// data, behave as the properties do: they load, record changes, keep inverses in step and are saved.
@Suite struct ValueAccessTests {
    @Test func attributesReadAndWriteLikeTheirProperties() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(User.self, in: directory)
        let context = ModelContext(container)
        let user = User(name: "Ada", email: "ada@example.com")
        context.insert(user)
        try context.save()

        #expect(user.getValue(forKey: \.name) == "Ada")
        user.setValue(forKey: \.name, to: "Grace")
        #expect(user.name == "Grace")
        #expect(user.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        try context.save()

        let reader = ModelContext(container)
        let reloaded = try reader.fetch(FetchDescriptor<User>())
        #expect(reloaded.map { $0.getValue(forKey: \.name) } == ["Grace"])
    }

    @Test func toOneRelationshipsKeepTheirInversesInStep() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Person.self, Message.self, in: directory)
        let context = ModelContext(container)
        let ada = Person(name: "Ada")
        let grace = Person(name: "Grace")
        let message = Message(text: "hello")
        context.insert(ada)
        context.insert(grace)

        message.setValue(forKey: \.sender, to: ada)
        #expect(message.modelContext === context, "a new related model joins its owner's context")
        #expect(ada.sent.map(\.text) == ["hello"])
        #expect(message.getValue(forKey: \.sender) === ada)
        message.setValue(forKey: \.sender, to: grace)
        #expect(ada.sent.isEmpty)
        #expect(grace.sent.map(\.text) == ["hello"])
        try context.save()

        let reader = ModelContext(container)
        let fetched = try reader.fetch(FetchDescriptor<Message>())
        #expect(fetched.first?.getValue(forKey: \.sender)?.name == "Grace")
        let first = try #require(fetched.first)
        first.setValue(forKey: \.sender, to: nil)
        #expect(first.hasChanges)
        try reader.save()
        let checker = ModelContext(container)
        #expect(try checker.fetch(FetchDescriptor<Person>()).allSatisfy { $0.sent.isEmpty })
    }

    @Test func toManyRelationshipsKeepTheirInversesInStep() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Person.self, Message.self, in: directory)
        let context = ModelContext(container)
        let ada = Person(name: "Ada")
        context.insert(ada)
        let first = Message(text: "one")
        let second = Message(text: "two")

        ada.setValue(forKey: \.received, to: [first, second])
        #expect(first.recipient === ada && second.recipient === ada)
        #expect(ada.getValue(forKey: \.received).map(\.text) == ["one", "two"])
        ada.setValue(forKey: \.received, to: [second])
        #expect(first.recipient == nil)
        try context.save()

        let reader = ModelContext(container)
        let person = try #require(try reader.fetch(FetchDescriptor<Person>()).first)
        #expect(person.getValue(forKey: \.received).map(\.text) == ["two"])
    }

    @Test func transformableValues() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Palette.self, in: directory)
        let context = ModelContext(container)
        let palette = Palette(name: "warm", hue: Hue(degrees: 30))
        context.insert(palette)
        try context.save()
        #expect(palette.getTransformableValue(forKey: \.hue) == Hue(degrees: 30))
        palette.setTransformableValue(forKey: \.accent, to: Hue(degrees: 200))
        #expect(palette.hasChanges)
        try context.save()
        let reader = ModelContext(container)
        let reloaded = try #require(try reader.fetch(FetchDescriptor<Palette>()).first)
        #expect(reloaded.getTransformableValue(forKey: \.accent) == Hue(degrees: 200))
    }

    @Test func backingDataIsAViewOfTheModel() throws {
        let context = ModelContext(try makeMemoryContainer(Person.self, Message.self))
        let ada = Person(name: "Ada")
        context.insert(ada)
        try context.save()
        let backingData = ada.persistentBackingData
        #expect(backingData.persistentModelID == ada.persistentModelID)
        #expect(backingData.getValue(forKey: \.name) == "Ada")
        backingData.setValue(forKey: \.name, to: "Grace")
        #expect(ada.name == "Grace")
        #expect(context.changedModelsArray.count == 1)

        let message = Message(text: "hi")
        message.persistentBackingData.setValue(forKey: \.recipient, to: ada)
        #expect(backingData.getValue(forKey: \.received).map(\.text) == ["hi"])
    }

    @Test func writesAreObservedAndUndoable() throws {
        let context = ModelContext(try makeMemoryContainer(User.self))
        context.undoManager = UndoManager()
        let user = User(name: "Ada", email: "ada@example.com")
        context.insert(user)
        try context.save()
        let changed = Mutex(false)
        withObservationTracking {
            _ = user.name
        } onChange: {
            changed.withLock { $0 = true }
        }
        user.setValue(forKey: \.name, to: "Grace")
        #expect(changed.withLock { $0 })
        context.undoManager?.undo()
        #expect(user.name == "Ada")
    }

    @Test func aPropertyThatCannotBeSetIsLeftAlone() throws {
        let (_, log) = try capturingLog {
            let context = ModelContext(try makeMemoryContainer(Headline.self))
            let headline = Headline(title: "news")
            context.insert(headline)
            try context.save()
            #expect(headline.getValue(forKey: \.shout) == "NEWS")
            headline.setValue(forKey: \.shout, to: "quiet")
            #expect(headline.title == "news")
            #expect(!headline.hasChanges)
        }
        #expect(
            log.count == 1 && log[0].hasPrefix("SwiftData error: setValue(forKey:to:) cannot set \\Headline."), "\(log)"
        )
        #expect(
            log.first?.hasSuffix("of Headline, which is not a settable property; nothing was changed") == true, "\(log)"
        )
    }
}
