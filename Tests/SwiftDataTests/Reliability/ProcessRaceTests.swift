import Foundation
import SharedTestModels
import SwiftData
import TestProcessSupport
import Testing

/// Processes that create, migrate, clean up and write one store at the same time lose nothing and all succeed.
/// The races are made to happen: a child pauses at a known point (inside a save after writing a file, or inside
/// the transaction that creates or migrates the tables) while another process opens the store.
/// `SWIFTDATA_STRESS_ROUNDS` repeats the free-running races (default 2).
@Suite struct ProcessRaceTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["SWIFTDATA_STRESS_ROUNDS"] ?? "") ?? 2

    /// A running child process of the test helper program.
    final class Child {
        private let running: RunningChild
        var process: ChildProcess { running.process }

        /// Starts the test program with `arguments`; with `signalingLockWait`, it creates `<store>.waiting` once it
        /// waits for another process's lock on the store.
        init(_ arguments: [String], signalingLockWait: Bool = false) throws {
            let process = ChildProcess()
            if signalingLockWait {
                process.environment = ProcessInfo.processInfo.environment.merging(
                    ["SWIFTDATA_SIGNAL_LOCK_WAIT": "1"], uniquingKeysWith: { $1 })
            }
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("TestChildProcess")
            process.arguments = arguments
            running = try RunningChild(process)
        }

        /// Waits for the child to end; its status, standard output and standard error. A child that does not end
        /// in time is killed, and the error has its output.
        func finish() throws -> (status: Int32, output: String, errors: String) {
            try running.finish()
        }
    }

    /// Waits until a child paused at its hook wrote `<store>.paused`.
    func waitForPause(_ store: URL) throws {
        try waitForFile(store.path + ".paused")
    }

    /// Waits until a child started with `signalingLockWait` waits for the store's lock.
    func waitForLockWait(_ store: URL) throws {
        try waitForFile(store.path + ".waiting")
    }

    /// Waits (at most a minute) until a child process created the file at `path`.
    private func waitForFile(_ path: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: path) {
            guard Date() < deadline else { throw CancellationError() }
            usleep(10_000)
        }
    }

    func release(_ store: URL) {
        _ = FileManager.default.createFile(atPath: store.path + ".go", contents: nil)
    }

    @Test func openingTheStoreKeepsTheFileOfASaveInFlight() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(try Child(["attach-many", store.path, "old", "1"]).finish().status == 0)
        let writer = try Child(["attach-paused", store.path, "new"])
        try waitForPause(store)
        // The writer has written its file and not committed: opening the store must leave that file alone.
        let opener = try Child(["open-attachments", store.path, "-", "1"]).finish()
        #expect(opener.status == 0, "\(opener.errors)")
        release(store)
        let written = try writer.finish()
        #expect(written.status == 0, "\(written.errors)")
        let read = try Child(["read-attachments", store.path]).finish()
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output == "new 4096\nold-0 2048\n")
    }

    @Test func filesOfSavesStayWhileOtherProcessesOpenTheStore() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let saves = 20 * Self.rounds
        #expect(try Child(["attach-many", store.path, "seed", "1"]).finish().status == 0)
        let writer = try Child(["attach-many", store.path, "w", "\(saves)"])
        var openers = 0
        while !writer.process.hasEnded {
            #expect(try Child(["open-attachments", store.path, "-", "3"]).finish().status == 0)
            openers += 1
        }
        let written = try writer.finish()
        #expect(written.status == 0, "\(written.errors)")
        let read = try Child(["read-attachments", store.path]).finish()
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.split(separator: "\n").count == saves + 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.path + ".external")
        #expect(files.count == saves + 1)
    }

    @Test func aRowWhoseFileIsMissingIsAnErrorNotACrash() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(try Child(["attach-many", store.path, "a", "2"]).finish().status == 0)
        // Files removed after the fetch: the values read as empty, and the program goes on.
        let late = try Child(["read-after-delete", store.path]).finish()
        #expect(late.status == 0, "\(late.errors)")
        #expect(late.output == "a-0 0\na-1 0\n")
        #expect(late.errors.contains("Attachment.bytes reads as empty"), "\(late.errors)")
        // Files missing before the fetch: the fetch throws, naming the model, the property and the file.
        let read = try Child(["read-attachments", store.path]).finish()
        #expect(read.status != 0)
        #expect(read.errors.contains("is missing"), "\(read.errors)")
        #expect(read.errors.contains("model Attachment, property bytes"), "\(read.errors)")
        #expect(read.errors.contains(store.path + ".external/"))
    }

    @Test func processesCreatingAStoreAtOnceAllSucceed() throws {
        for round in 0..<Self.rounds {
            let directory = TemporaryDirectory()
            let store = directory.store()
            let names = (0..<6).map { "p\($0)" }
            let children = try names.map { try Child(["insert-and-save", store.path, $0]) }
            for (name, child) in zip(names, children) {
                let result = try child.finish()
                #expect(result.status == 0, "round \(round), \(name): \(result.errors)")
            }
            #expect(try Child(["list", store.path]).finish().output == names.joined(separator: "\n") + "\n")
        }
    }

    @Test func aProcessCreatingAStoreWaitsForAnotherCreatingIt() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let first = try Child(["create-paused", store.path, "first"])
        try waitForPause(store)
        let second = try Child(["insert-and-save", store.path, "second"], signalingLockWait: true)
        try waitForLockWait(store)
        release(store)
        let results = try [first.finish(), second.finish()]
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.errors))")
        #expect(try Child(["list", store.path]).finish().output == "first\nsecond\n")
    }

    @Test func aProcessOpeningAStoreWaitsForAnotherMigratingIt() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(try Child(["tally-v1", store.path, "-", "100"]).finish().status == 0)
        let first = try Child(["tally-v2", store.path, "paused"])
        try waitForPause(store)
        let second = try Child(["tally-v2", store.path, "waiting"], signalingLockWait: true)
        try waitForLockWait(store)
        release(store)
        let results = try [first.finish(), second.finish()]
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.errors))")
        #expect(results.map(\.output) == ["100 700 100 labels\n", "100 700 100 labels\n"])
    }

    @Test func processesMigratingAStoreAtOnceAllSucceed() throws {
        for _ in 0..<Self.rounds {
            let directory = TemporaryDirectory()
            let store = directory.store()
            #expect(try Child(["tally-v1", store.path, "-", "1000"]).finish().status == 0)
            let children = try (0..<5).map { _ in try Child(["tally-v2", store.path, "free"]) }
            for child in children {
                let result = try child.finish()
                #expect(result.status == 0, "\(result.errors)")
                #expect(result.output == "1000 7000 1000 labels\n")
            }
        }
    }
}
