import Foundation
import SwiftData
import Testing

/// A chore with a unique code, for batch updates.
@Model final class BatchChore {
    @Attribute(.unique) var code: String
    var title: String
    var isDone: Bool
    var priority: Int
    init(code: String, title: String, isDone: Bool = false, priority: Int) {
        self.code = code
        self.title = title
        self.isDone = isDone
        self.priority = priority
    }
}

/// `ModelContext.update(model:where:...)` changes the rows a predicate selects in one statement, without loading the
/// models, on every store (`StoreKind`).
@Suite struct BatchUpdateTests {
    private func chores(_ container: ModelContainer) throws -> ModelContext {
        let context = ModelContext(container)
        for index in 0..<6 {
            context.insert(
                BatchChore(code: "c\(index)", title: index % 2 == 0 ? "sweep \(index)" : "dust", priority: index))
        }
        try context.save()
        return context
    }

    private func done(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<BatchChore>(predicate: #Predicate { $0.isDone })).map(\.code).sorted()
    }

    @Test(arguments: StoreKind.all) func updatesTheSelectedRowsAndTellsEveryContext(store: StoreKind) throws {
        let container = try store.makeContainer(BatchChore.self)
        let context = try chores(container)
        let held = try #require(
            try context.fetch(FetchDescriptor<BatchChore>(predicate: #Predicate { $0.code == "c4" })).first)
        let other = ModelContext(container)
        let otherHeld = try #require(
            try other.fetch(FetchDescriptor<BatchChore>(predicate: #Predicate { $0.code == "c5" })).first)
        let observer = try ResultsObserver(
            filterBy: #Predicate<BatchChore> { $0.isDone }, sortBy: [SortDescriptor(\.code)],
            modelContext: ModelContext(container))
        #expect(observer.results.isEmpty)

        let count = try context.update(
            model: BatchChore.self, where: #Predicate { $0.priority >= 3 }, set: \.isDone, to: true)
        #expect(count == 3)
        #expect(held.isDone, "a model the context holds takes the new value")
        #expect(!context.hasChanges)
        #expect(try done(other) == ["c3", "c4", "c5"])
        #expect(otherHeld.isDone, "another context's model takes it when that context catches up")
        #expect(observer.results.map(\.code) == ["c3", "c4", "c5"])

        let both = try context.update(
            model: BatchChore.self, where: #Predicate { $0.priority < 2 },
            [.set(\.isDone, to: true), .set(\.title, to: "done")])
        #expect(both == 2)
        #expect(try done(context) == ["c0", "c1", "c3", "c4", "c5"])
        let titles = try context.fetch(FetchDescriptor<BatchChore>(predicate: #Predicate { $0.title == "done" }))
        #expect(titles.map(\.code).sorted() == ["c0", "c1"])
    }

    /// A predicate part of which runs in memory (PostgreSQL cannot run `contains`) selects the rows first.
    @Test(arguments: StoreKind.all) func aPredicatePartlyInMemoryUpdatesTheRowsItSelects(store: StoreKind) throws {
        let container = try store.makeContainer(BatchChore.self)
        let context = try chores(container)
        let (count, _) = try capturingLog {
            try context.update(
                model: BatchChore.self, where: #Predicate { $0.title.contains("sweep") && $0.priority > 0 },
                set: \.isDone, to: true)
        }
        #expect(count == 2)
        #expect(try done(context) == ["c2", "c4"])
    }

    @Test func sqliteRunsOneUpdateStatement() throws {
        let container = try makeMemoryContainer(BatchChore.self)
        let context = try chores(container)
        let log = StatementLog(container)
        try context.update(model: BatchChore.self, set: \.priority, to: 9)
        #expect(log.statements.filter { $0.hasPrefix("UPDATE") }.count == 1, "\(log.statements)")
        #expect(log.selects.isEmpty, "no model is loaded")
    }

    /// Giving two models the same unique value throws, naming the constraint, and changes nothing.
    @Test(arguments: StoreKind.all) func aUniqueViolationThrowsAndChangesNothing(store: StoreKind) throws {
        let container = try store.makeContainer(BatchChore.self)
        let context = try chores(container)
        #expect {
            try context.update(
                model: BatchChore.self, where: #Predicate { $0.priority > 3 },
                [.set(\.isDone, to: true), .set(\.code, to: "same")])
        } throws: { error in
            "\(error)".contains("code") && "\(error)".contains("BatchChore") && "\(error)".contains("unique")
        }
        #expect(try done(context).isEmpty)
        let codes = try context.fetch(FetchDescriptor<BatchChore>()).map(\.code).sorted()
        #expect(codes == ["c0", "c1", "c2", "c3", "c4", "c5"])
    }

    /// The store's history records the update as one transaction of updates.
    @Test(arguments: StoreKind.all) func historyRecordsTheUpdates(store: StoreKind) throws {
        let container = try store.makeContainer(BatchChore.self)
        let context = try chores(container)
        context.author = "sweeper"
        try context.update(model: BatchChore.self, where: #Predicate { $0.priority < 2 }, set: \.isDone, to: true)
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        #expect(last.author == "sweeper")
        let updated = last.changes.compactMap { change -> [AnyKeyPath]? in
            guard case .update(let update as DefaultHistoryUpdate<BatchChore>) = change else { return nil }
            return update.updatedAttributes.map { $0 as AnyKeyPath }
        }
        #expect(updated == [[\BatchChore.isDone], [\BatchChore.isDone]])
    }

    /// Unsaved changes of the type, an undo manager, and a relationship or unknown key path are refused.
    @Test func refusesWhatItCannotDoSafely() throws {
        let container = try makeMemoryContainer(BatchChore.self)
        let context = try chores(container)
        context.insert(BatchChore(code: "new", title: "new", priority: 1))
        #expect {
            try context.update(model: BatchChore.self, set: \.isDone, to: true)
        } throws: { "\($0)".contains("Save or roll back") }
        context.rollback()
        context.undoManager = UndoManager()
        #expect {
            try context.update(model: BatchChore.self, set: \.isDone, to: true)
        } throws: { "\($0)".contains("undo") }
        context.undoManager = nil
        #expect(try context.update(model: BatchChore.self, set: \.isDone, to: true) == 6)
    }
}
