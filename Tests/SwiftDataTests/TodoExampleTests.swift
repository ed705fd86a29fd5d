import Foundation
import PostgresTestSupport
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
        #expect(try todo("toggle", "abc").errors.hasPrefix("todo: 'abc' is not an item number"), "an, not a")
    }

    /// A number names the item the last list showed under it, even after another process added an item that sorts
    /// before it; an item deleted since is refused, never replaced by its neighbour.
    @Test func numbersNameWhatTheListShowed() throws {
        let store = dataHome.url.appendingPathComponent("shared.store").path
        let other = ExampleRunner(program: "todo")
        #expect(try todo("--store", store, "add", "Walk the dog").output == "1 ○ Walk the dog (normal)\n")
        #expect(try other.run("--store", store, "add", "Buy milk", "--priority", "high").status == 0)
        let toggled = try todo("--store", store, "toggle", "1")
        #expect(toggled.output == "1 ○ Buy milk (high)\n2 ✓ Walk the dog (normal)\n", "\(toggled.errors)")

        #expect(try other.run("--store", store, "list").status == 0)
        #expect(try todo("--store", store, "delete", "2").status == 0)
        let gone = try other.run("--store", store, "delete", "2")
        #expect(gone.status == 1)
        #expect(
            gone.errors
                == "todo: the item that `todo list` showed as 2 is gone: it was deleted since; run `todo list` to see "
                + "the list as it is now\n")
        #expect(try todo("--store", store, "list").output == "1 ○ Buy milk (high)\n")
    }

    /// `--store` takes the path of an SQLite file or a PostgreSQL URL, and says so when given anything else; a
    /// store that cannot be opened is reported in words, without the error's code.
    @Test func storeOptionTakesAPathOrAPostgreSQLURL() throws {
        let file = dataHome.url.appendingPathComponent("mine.store")
        #expect(try todo("--store", file.path, "add", "Paint").status == 0)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try todo("--store=\(file.path)", "list").output == "1 ○ Paint (normal)\n")
        #expect(try todo("list").output.hasPrefix("Nothing to do"), "the default store is another")
        #expect(
            try example.run(arguments: ["list"], environment: ["SWIFTDATA_STORE": file.path]).output
                == "1 ○ Paint (normal)\n")

        let unknown = try todo("--store", "mysql://localhost/todo", "list")
        #expect(unknown.status == 2)
        #expect(
            unknown.errors.hasPrefix("todo: --store 'mysql://localhost/todo' is neither a file nor a PostgreSQL URL"))

        let damaged = dataHome.url.appendingPathComponent("damaged.store")
        try Data(repeating: 0x41, count: 4096).write(to: damaged)
        let refused = try todo("--store", damaged.path, "list")
        #expect(refused.status == 1)
        #expect(refused.errors.hasPrefix("todo: cannot open the store: "), "\(refused.errors)")
        #expect(!refused.errors.contains("SwiftDataError"), "\(refused.errors)")
        #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
    }

    /// Two users of one store, through `--store` with a file path or a PostgreSQL URL, see each other's items.
    @Test(arguments: StoreKind.all) func twoUsersShareAStore(kind: StoreKind) throws {
        let store: String
        switch kind {
        case .sqlite: store = dataHome.url.appendingPathComponent("shared.store").path
        case .postgres, .pooled:
            let server = try PostgresTestServer.shared()
            let database = "todo_" + UUID().uuidString.prefix(8).lowercased()
            try server.psql("CREATE DATABASE \(database) OWNER \(server.user)", database: "postgres")
            store = server.url(database: database)
        }
        let other = ExampleRunner(program: "todo")
        let added = try todo("--store", store, "add", "Walk the dog")
        #expect(added.status == 0, "\(added.errors)")
        #expect(try other.run("--store", store, "add", "Buy milk", "-p", "high").status == 0)
        #expect(try todo("--store", store, "list").output == "1 ○ Buy milk (high)\n2 ○ Walk the dog (normal)\n")
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
