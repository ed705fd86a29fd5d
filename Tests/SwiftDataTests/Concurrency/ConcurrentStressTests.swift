import Foundation
import SharedTestModels
import SwiftData
import TestProcessSupport
import Testing

/// Many model actors write to one file store while other contexts read: writers wait for each other instead of
/// failing, readers never see an error, and every saved change is there afterwards.
/// `SWIFTDATA_STRESS_CHANGES` sets the changes each writer saves (2,000 by default).
@Suite struct ConcurrentStressTests {
    static let changesPerWriter =
        ProcessInfo.processInfo.environment["SWIFTDATA_STRESS_CHANGES"].flatMap(Int.init) ?? 2_000
    static let writers = 8

    @ModelActor actor Writer {
        /// Inserts counters in small saves, then increments every other one, saving after each few.
        func run(name: String, changes: Int) throws {
            let inserts = changes * 3 / 4
            var counters: [Counter] = []
            for start in stride(from: 0, to: inserts, by: 25) {
                for index in start..<min(start + 25, inserts) {
                    let counter = Counter(label: "\(name)-\(index)")
                    modelContext.insert(counter)
                    counters.append(counter)
                }
                try modelContext.save()
            }
            for (offset, counter) in counters.enumerated() where offset % 3 == 0 && offset / 3 < changes - inserts {
                counter.value = offset
                if offset % 30 == 0 { try modelContext.save() }
            }
            try modelContext.save()
        }
    }

    @ModelActor actor Reader {
        /// Reads until told to stop, returning how many reads it made.
        func run(until done: Flag) throws -> Int {
            var reads = 0
            while !done.isSet {
                let all = try modelContext.fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label)]))
                _ = all.reduce(0) { $0 + $1.value }
                _ = try modelContext.fetchCount(FetchDescriptor<Counter>(predicate: #Predicate { $0.value > 10 }))
                reads += 1
            }
            return reads
        }
    }

    @Test func eightWritersAndTwoReadersLoseNothing() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Counter.self, in: directory)
        let changes = Self.changesPerWriter
        let done = Flag()
        let readers = (0..<2).map { _ in Reader(modelContainer: container) }
        async let reads = withThrowingTaskGroup(of: Int.self) { group in
            for reader in readers { group.addTask { try await reader.run(until: done) } }
            return try await group.reduce(0, +)
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<Self.writers {
                    group.addTask {
                        try await Writer(modelContainer: container).run(name: "w\(writer)", changes: changes)
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            done.set()
            _ = try? await reads
            throw error
        }
        done.set()
        #expect(try await reads > 0)

        let context = ModelContext(container)
        let inserts = changes * 3 / 4
        let updates = changes - inserts
        let all = try context.fetch(FetchDescriptor<Counter>())
        #expect(all.count == Self.writers * inserts)
        for writer in 0..<Self.writers {
            let prefix = "w\(writer)-"
            let mine = all.filter { $0.label.hasPrefix(prefix) }
            #expect(mine.count == inserts)
            let changed = mine.filter { $0.value != 0 }.count
            // Offset 0 is set to 0, so one update leaves no trace.
            #expect(changed == updates - 1, "writer \(writer) saved every update")
        }
    }

    @Test func processesWritingAtOnceWaitForEachOther() async throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store))
        let perProcess = max(Self.changesPerWriter / 10, 20)
        let children = try (0..<3).map { index in
            let child = ChildProcess()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("TestChildProcess")
            child.arguments = ["insert-many", store.path, "child\(index)", "\(perProcess)"]
            child.environment = RunningChild.environment()
            try child.run()
            return child
        }
        let context = ModelContext(container)
        for index in 0..<perProcess {
            context.insert(Visit(name: "parent-\(index)"))
            try context.save()
        }
        for child in children {
            #expect(try child.wait() == 0)
        }
        #expect(try context.fetchCount(FetchDescriptor<Visit>()) == 4 * perProcess)
    }
}
