import Foundation
import Testing

/// The `todo` example, run as a user runs it, on a default store in a temporary data home.
@Suite struct TodoExampleTests {
    let example = ExampleRunner(program: "todo")
    var dataHome: TemporaryDirectory { example.dataHome }

    func todo(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        try example.run(arguments: arguments)
    }

    func todo(arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try example.run(arguments: arguments)
    }

    @Test func addListToggleDelete() throws {
        #expect(try todo().output == "Nothing to do. Add something with: todo add \"Buy milk\"\n")
        #expect(try todo("add", "Walk the dog").status == 0)
        #expect(try todo("add", "Buy milk", "--priority", "high").status == 0)
        #expect(try todo("add", "Read", "-p", "low").status == 0)
        #expect(try todo("toggle", "2").output == "1 ○ Buy milk (high)\n2 ✓ Walk the dog (normal)\n3 ○ Read (low)\n")
        #expect(try todo("delete", "1").status == 0)
        #expect(try todo("list").output == "1 ✓ Walk the dog (normal)\n2 ○ Read (low)\n")
        let store = dataHome.url.appendingPathComponent("todo/default.store")
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test func badArgumentsGetUsageAndNonZeroExit() throws {
        for arguments in [
            ["bogus"], ["add"], ["add", "x", "--priority", "urgent"], ["toggle"], ["toggle", "abc"],
            ["delete", "1", "2"],
        ] {
            let result = try todo(arguments: arguments)
            #expect(result.status == 2, "todo \(arguments.joined(separator: " ")) exits with 2")
            #expect(result.errors.contains("usage: todo"), "todo \(arguments.joined(separator: " ")) prints the usage")
        }
        let missing = try todo("toggle", "7")
        #expect(missing.status == 1)
        #expect(missing.errors == "todo: there is no item 7; the list has 0 items\n")
    }
}

/// A save that fails is reported once, not again by the autosave at exit.
@Suite struct TodoFailedSaveTests {
    @Test func aFailedSaveIsReportedOnce() throws {
        let example = ExampleRunner(program: "todo")
        #expect(try example.run("add", "first").status == 0)
        let store = example.dataHome.url.appendingPathComponent("todo/default.store")
        _ = try sqlite(
            store, "CREATE TRIGGER refuse BEFORE INSERT ON ToDoItem BEGIN SELECT RAISE(ABORT, 'inserts refused'); END")
        let result = try example.run("add", "second")
        #expect(result.status == 1)
        #expect(result.errors.components(separatedBy: "inserts refused").count - 1 == 1, "\(result.errors)")
        #expect(try example.run("list").output.contains("first"))
    }
}
