import Foundation
import SharedTestModels
import SwiftData
import TestProcessSupport
import Testing

/// What one process writes, another reads; and autosave keeps what a program never saved explicitly.
@Suite struct ProcessTests {
    /// Runs the test helper program and returns its standard output.
    @discardableResult
    func child(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess")
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let result = try RunningChild(process).finish()
        return (result.status, result.output)
    }

    @Test func storeWrittenByOneProcessIsReadByAnother() throws {
        let directory = TemporaryDirectory()
        let store = directory.store().path
        #expect(try child(["insert-and-save", store, "first"]).status == 0)
        #expect(try child(["insert-and-save", store, "second"]).status == 0)
        #expect(try child(["list", store]).output == "first\nsecond\n")
        let context = ModelContext(
            try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: directory.store())))
        #expect(try context.fetch(FetchDescriptor<Visit>()).map(\.name).sorted() == ["first", "second"])
    }

    @Test func autosaveKeepsUnsavedInsertsWhenTheProgramReturns() throws {
        let directory = TemporaryDirectory()
        let store = directory.store().path
        #expect(try child(["insert-and-return", store, "kept"]).status == 0)
        #expect(try child(["list", store]).output == "kept\n")
    }

    @Test func autosaveKeepsUnsavedInsertsWhenTheProgramCallsExit() throws {
        let directory = TemporaryDirectory()
        let store = directory.store().path
        #expect(try child(["insert-and-exit", store, "kept at exit"]).status == 0)
        #expect(try child(["list", store]).output == "kept at exit\n")
    }

    @Test func autosaveRunsShortlyAfterAChange() throws {
        let directory = TemporaryDirectory()
        let store = directory.store().path
        let result = try child(["insert-wait-and-kill", store, "saved before the crash"])
        #expect(result.status != 0, "the child was killed")
        #expect(try child(["list", store]).output == "saved before the crash\n")
    }

    @Test func defaultStoreIsInTheDataHomeOfTheExecutable() throws {
        let directory = TemporaryDirectory()
        #expect(try child(["insert-and-save"], environment: ["XDG_DATA_HOME": directory.url.path]).status == 0)
        let expected = directory.url.appendingPathComponent("TestChildProcess/default.store")
        #expect(FileManager.default.fileExists(atPath: expected.path))
    }
}
