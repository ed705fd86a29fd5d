import Foundation
import SwiftData
import Testing

/// A note-taking app's model.
@Model final class Memo {
    var text: String
    init(text: String) { self.text = text }
}

/// A model actor whose context autosaves, as a background importer might be written.
@ModelActor actor MemoImporter {
    func importMemo(_ text: String) {
        modelContext.autosaveEnabled = true
        modelContext.insert(Memo(text: text))
    }
}

/// Returns once the main queue has run what was queued on it before this call: an autosave that a change on the main
/// thread scheduled has run then, and one that was not scheduled never will. A wait on the event, not on time.
@MainActor func mainQueueCaughtUp() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

/// `autosaveEnabled = true` works on any context, as Apple documents it: the context saves after changes by itself.
/// The default stays `false`.
@Suite(.timeLimit(.minutes(1))) struct AutosaveTests {
    private func storedTexts(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Memo>(sortBy: [SortDescriptor(\.text)])).map(\.text)
    }

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    @MainActor @Test func aContextOnTheMainThreadSavesByItself() async throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled, "off by default, as in Apple's SwiftData")
        context.insert(Memo(text: "not saved"))
        await mainQueueCaughtUp()
        #expect(try storedTexts(container).isEmpty)
        context.rollback()

        context.autosaveEnabled = true
        context.insert(Memo(text: "saved"))
        await mainQueueCaughtUp()
        #expect(try storedTexts(container) == ["saved"])
        #expect(!context.hasChanges)
        let memo = try #require(try context.fetch(FetchDescriptor<Memo>()).first)
        memo.text = "changed"
        await mainQueueCaughtUp()
        #expect(try storedTexts(container) == ["changed"])
    }

    @MainActor @Test func aContextDroppedWithUnsavedChangesStillAutosaves() async throws {
        let container = try makeContainer()
        weak var dropped: ModelContext?
        do {
            let context = ModelContext(container)
            context.autosaveEnabled = true
            context.insert(Memo(text: "kept"))
            dropped = context
        }
        await mainQueueCaughtUp()
        #expect(try storedTexts(container) == ["kept"])
        #expect(dropped == nil, "once saved, the context and its model are freed")
    }

    @Test func aModelActorsContextSavesOnItsQueue() async throws {
        let container = try makeContainer()
        let importer = MemoImporter(modelContainer: container)
        // The actor's context saves on the actor's queue, after `importMemo` returned: wait for its `didSave`.
        let (saves, saved) = AsyncStream<Void>.makeStream()
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) {
            if ($0.object as? ModelContext)?.container === container { saved.yield() }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        await importer.importMemo("imported")
        for await _ in saves { break }
        #expect(try storedTexts(container) == ["imported"])
    }

    @Test func anyOtherContextSavesAtItsNextFetch() async throws {
        let container = try makeContainer()
        let saved = try await Task.detached {
            let context = ModelContext(container)
            context.autosaveEnabled = true
            context.insert(Memo(text: "waiting"))
            let before = try ModelContext(container).fetchCount(FetchDescriptor<Memo>())
            _ = try context.fetchCount(FetchDescriptor<Memo>())
            return (before, context.hasChanges)
        }.value
        #expect(saved.0 == 0 && !saved.1)
        #expect(try storedTexts(container) == ["waiting"])
    }
}
