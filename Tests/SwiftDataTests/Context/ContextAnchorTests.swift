import SwiftData
import Testing

@testable import SwiftDataCore

/// Holds an object weakly, to tell whether anything else still holds it.
private final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

/// The anchor a model holds (read outside `#expect`, which cannot take the noncopyable state apart).
private func anchor(of model: some PersistentModel) -> ContextAnchor? { model._$persistentState.anchor }

/// A context's models keep it alive through one shared anchor, which goes away with the last of them and releases
/// the context; a model registered after that gets a new anchor that keeps the context alive again.
@Suite struct ContextAnchorTests {
    private func container() throws -> ModelContainer {
        let container = try ModelContainer(
            for: Pupil.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for name in ["Ann", "Bob"] { context.insert(Pupil(name: name)) }
        try context.save()
        return container
    }

    @Test func aContextsModelsShareOneAnchorThatKeepsTheContextAlive() throws {
        let container = try container()
        var pupils: [Pupil] = []
        let context = Weak<ModelContext>(nil)
        do {
            let fetching = ModelContext(container)
            context.object = fetching
            pupils = try fetching.fetch(FetchDescriptor<Pupil>(sortBy: [SortDescriptor(\.name)]))
        }
        #expect(pupils.count == 2)
        let shared = anchor(of: pupils[0])
        #expect(shared != nil && shared === anchor(of: pupils[1]))
        #expect(context.object != nil && shared?.context === context.object)
        #expect(pupils.allSatisfy { $0.modelContext === context.object })
        // One model left holds the context alive; with none, the context and its anchor go away.
        pupils.removeFirst()
        #expect(context.object != nil && pupils[0].modelContext === context.object)
        let weakAnchor = Weak<ContextAnchor>(shared)
        _ = consume shared
        pupils.removeAll()
        #expect(weakAnchor.object == nil)
        #expect(context.object == nil)
    }

    @Test func aModelRegisteredAfterTheAnchorWentAwayGetsANewOne() throws {
        let container = try container()
        let context = ModelContext(container)
        let first = Weak<ContextAnchor>(nil)
        do {
            let pupils = try context.fetch(FetchDescriptor<Pupil>())
            first.object = pupils.first.map(anchor(of:)) ?? nil
            #expect(first.object != nil)
        }
        // The models went away, and their anchor with them; the context stays, held by this test.
        #expect(first.object == nil)
        let again = try context.fetch(FetchDescriptor<Pupil>())
        let shared = try #require(again.first.map(anchor(of:)) ?? nil)
        #expect(shared.context === context)
        #expect(again.allSatisfy { anchor(of: $0) === shared })
        // A model inserted now shares it, and one removed from the context holds none.
        let carl = Pupil(name: "Carl")
        context.insert(carl)
        #expect(anchor(of: carl) === shared)
        context.delete(carl)
        try context.save()
        #expect(anchor(of: carl) == nil && carl.modelContext == nil)
    }
}
