import Foundation
import PostgresTestSupport
import SwiftDataPostgres
import Testing

/// The `todo`, `foodpin` and `animals` examples on a PostgreSQL database of their own, chosen with `--store URL` or
/// `SWIFTDATA_STORE`: what one run saves, the next run (another process) sees.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresExampleTests {
    /// The URL of a new, empty database of the test server.
    func newDatabase() throws -> String {
        let server = try PostgresTestServer.shared()
        let name = "example_" + UUID().uuidString.prefix(8).lowercased()
        let connection = try PostgresConnection(server.superuserConnectionString)
        try connection.execute("CREATE DATABASE \(name) OWNER \(server.user)")
        return server.url(database: name)
    }

    @Test func todoKeepsItsListInTheDatabase() throws {
        let url = try newDatabase()
        let todo = ExampleRunner(program: "todo")
        #expect(try todo.run("add", "Walk the dog", "--store", url).status == 0)
        #expect(try todo.run("add", "--store", url, "Buy milk", "--priority", "high").status == 0)
        let list = try todo.run(arguments: ["list"], environment: ["SWIFTDATA_STORE": url])
        #expect(list.output == "1 ○ Buy milk (high)\n2 ○ Walk the dog (normal)\n", "\(list.errors)")
        #expect(try todo.run("list").output.hasPrefix("Nothing to do"), "without --store: the default store")
        #expect(try todo.run("add", "x", "--store").status == 2, "--store needs a URL")
    }

    /// A libpq multi-host URL, as a failover setup gives: the examples connect to whichever host accepts writes
    /// (here the second; nothing listens on the first).
    @Test func todoTakesAMultiHostURL() throws {
        let server = try PostgresTestServer.shared()
        let single = try newDatabase()
        let database = String(single.split(separator: "/").last ?? "")
        let url =
            "postgresql://\(server.user):\(server.password)@127.0.0.1:1,127.0.0.1:\(server.port)/\(database)"
            + "?target_session_attrs=read-write"
        let todo = ExampleRunner(program: "todo")
        let added = try todo.run("add", "Fail over", "--store", url)
        #expect(added.status == 0, "\(added.errors)")
        #expect(try todo.run("list", "--store", single).output == "1 ○ Fail over (normal)\n")
    }

    @Test func foodPinInsertsItsSamplesIntoANewDatabase() throws {
        let url = try newDatabase()
        let foodpin = ExampleRunner(program: "foodpin")
        let first = try foodpin.run("--store", url)
        #expect(first.output.hasPrefix(" 1   Cafe Deadend — Coffee & Tea Shop"), "\(first.errors)")
        #expect(try foodpin.run("favorite", "1", "--store", url).status == 0)
        #expect(try foodpin.run("list", "--store", url).output.split(separator: "\n").count == 6)
    }

    @Test func animalsSampleDataLivesInTheDatabase() throws {
        let url = try newDatabase()
        let animals = ExampleRunner(program: "animals")
        let inserted = try animals.run("insert-sample-data", "--store", url)
        #expect(inserted.output == "Inserted 6 categories and 11 animals.\n", "\(inserted.errors)")
        let categories = try animals.run(arguments: ["categories"], environment: ["SWIFTDATA_STORE": url])
        #expect(categories.output.contains("Mammal — 4 animals"))
        #expect(try animals.run("delete-category", "Mammal", "--store", url).status == 0)
        #expect(try animals.run("list", "--none", "--store", url).status == 0)
        #expect(!(try animals.run("categories", "--store", url).output.contains("Mammal")))
    }
}
