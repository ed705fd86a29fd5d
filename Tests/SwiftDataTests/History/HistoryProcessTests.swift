import Foundation
import SharedTestModels
import SwiftData
import Testing

/// History across processes: a save's changes and its history commit together, and a reader in another process
/// that keeps its last token copies a writer's store exactly, however often it is killed and restarted.
@Suite struct HistoryProcessTests {
    typealias Child = ProcessRaceTests.Child

    @Test func aSaveKilledAfterRecordingItsHistoryLeavesNeitherChangesNorHistory() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(try Child(["insert-and-save", store.path, "kept"]).finish().status == 0)
        let writer = try Child(["history-paused", store.path, "lost"])
        try ProcessRaceTests().waitForPause(store)
        kill(writer.process.processIdentifier, SIGKILL)
        #expect(try writer.finish().status != 0)
        let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Visit>()).map(\.name) == ["kept"])
        #expect(try history(container).map(\.changes.count) == [1])
        // The next save takes the next number: the lost transaction left no trace.
        let context = ModelContext(container)
        context.insert(Visit(name: "after"))
        try context.save()
        let numbers = try history(container).map(\.transactionIdentifier)
        #expect(numbers.count == 2 && numbers[1] > numbers[0])
    }

    /// A writer process saves to the store (SQLite or PostgreSQL) while a reader process, killed and restarted
    /// again and again, copies it into an SQLite store through its history since the token it saved last.
    @Test(arguments: StoreKind.all) func aReaderKilledAndRestartedCopiesTheWriterExactly(store: StoreKind) throws {
        let location = store.location()
        let directory = TemporaryDirectory()
        let copy = directory.store("copy")
        let tokenFile = directory.url.appendingPathComponent("reader.token")
        let done = directory.url.appendingPathComponent("writer.done")
        let saves = 60 * ProcessRaceTests.rounds
        let writer = try location.runChild(["sync-writer", "7", String(saves), done.path])
        var kills = 0
        var random = SystemRandomNumberGenerator()
        let deadline = Date().addingTimeInterval(120)
        while !writer.hasEnded, Date() < deadline {
            let reader = try location.runChild(["sync-reader", copy.path, tokenFile.path, done.path])
            usleep(UInt32.random(in: 100_000...400_000, using: &random))
            if !reader.hasEnded {
                kill(reader.processIdentifier, SIGKILL)
                kills += 1
            }
            let status = try reader.wait()
            #expect(status == 0 || status == SIGKILL)
        }
        try #require(try writer.wait() == 0)
        let last = try location.runChild(["sync-reader", copy.path, tokenFile.path, done.path])
        #expect(try last.wait() == 0)
        #expect(kills >= 2, "the reader was killed while the writer wrote")

        func items(_ container: ModelContainer) throws -> [String] {
            try ModelContext(container).fetch(FetchDescriptor<SyncItem>(sortBy: [SortDescriptor(\.key)]))
                .map { "\($0.key)=\($0.value) \($0.label)" }
        }
        let source = try location.container(SyncItem.self)
        let expected = try items(source)
        #expect(expected.count > 20)
        #expect(
            try items(try ModelContainer(for: SyncItem.self, configurations: ModelConfiguration(url: copy)))
                == expected)
        let writes = try history(source)
        #expect(writes.count == saves)
        #expect(writes.allSatisfy { $0.author == "writer" })
    }
}
