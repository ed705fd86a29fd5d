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
        #expect(writer.finish().status != 0)
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

    @Test func aReaderKilledAndRestartedCopiesTheWriterExactly() throws {
        let directory = TemporaryDirectory()
        let source = directory.store("source")
        let copy = directory.store("copy")
        let tokenFile = directory.url.appendingPathComponent("reader.token")
        let saves = 60 * ProcessRaceTests.rounds
        let writer = try Child(["sync-writer", source.path, "7", String(saves)])
        var kills = 0
        var random = SystemRandomNumberGenerator()
        let deadline = Date().addingTimeInterval(120)
        while writer.process.isRunning, Date() < deadline {
            let reader = try Child(["sync-reader", source.path, copy.path, tokenFile.path])
            usleep(UInt32.random(in: 100_000...400_000, using: &random))
            if reader.process.isRunning {
                kill(reader.process.processIdentifier, SIGKILL)
                kills += 1
            }
            let result = reader.finish()
            #expect(result.status == 0 || result.status == SIGKILL, "\(result.errors)")
        }
        let written = writer.finish()
        try #require(written.status == 0, "\(written.errors)")
        let last = try Child(["sync-reader", source.path, copy.path, tokenFile.path]).finish()
        #expect(last.status == 0, "\(last.errors)")
        #expect(kills >= 2, "the reader was killed while the writer wrote")

        func items(_ url: URL) throws -> [String] {
            let container = try ModelContainer(for: SyncItem.self, configurations: ModelConfiguration(url: url))
            return try ModelContext(container).fetch(FetchDescriptor<SyncItem>(sortBy: [SortDescriptor(\.key)]))
                .map { "\($0.key)=\($0.value) \($0.label)" }
        }
        let expected = try items(source)
        #expect(expected.count > 20)
        #expect(try items(copy) == expected)
        let writes = try history(
            try ModelContainer(for: SyncItem.self, configurations: ModelConfiguration(url: source)))
        #expect(writes.count == saves)
        #expect(writes.allSatisfy { $0.author == "writer" })
    }
}
