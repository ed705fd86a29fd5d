import Foundation
import PostgresTestSupport
import SwiftData
import SwiftDataPostgres
import Testing

@testable import ExampleModels

/// `swiftdata copy` and `swiftdata check`: a store copied from SQLite to PostgreSQL and back, compared row by row
/// through the app's models and by its dump; the example apps' stores; a failed copy; problems `check` finds; and
/// that no command writes to its source.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct ToolCopyTests {
    /// `ToolLibrary.rows` books (`SWIFTDATA_TOOL_ROWS`), with relationships and external data, from SQLite to
    /// PostgreSQL and back to SQLite: the app finds the same models, identifiers and order in all three, the dumps
    /// are the same text, `check` passes, the source's bytes are unchanged, and new models get new keys.
    @Test func copiesALargeStoreToPostgresAndBackExactly() throws {
        let source = StoreKind.sqlite.location()
        let schema = Schema(ToolLibrary.types)
        try ToolLibrary.fill(source.container(schema), books: ToolLibrary.rows)
        let before = try storeFiles(source.store())
        let postgres = StoreKind.postgres.location()
        let back = StoreKind.sqlite.location()
        let there = swiftdata("copy", try source.toolAddress(), try postgres.toolAddress())
        #expect(there.status == 0, "\(there.errors)")
        #expect(
            there.output.hasPrefix("Copied \(ToolLibrary.rowCount(books: ToolLibrary.rows)) rows, "), "\(there.output)")
        let again = swiftdata("copy", try postgres.toolAddress(), try back.toolAddress())
        #expect(again.status == 0, "\(again.errors)")
        #expect(try storeFiles(source.store()) == before, "the source was written to")

        let original = try ToolLibrary.describe(source.container(schema))
        #expect(original.count == ToolLibrary.rowCount(books: ToolLibrary.rows))
        #expect(try ToolLibrary.describe(postgres.container(schema)) == original)
        #expect(try ToolLibrary.describe(back.container(schema)) == original)
        let dump = swiftdata("dump", try source.toolAddress()).output
        #expect(swiftdata("dump", try postgres.toolAddress()).output == dump)
        #expect(swiftdata("dump", try back.toolAddress()).output == dump)
        for location in [postgres, back] {
            let check = swiftdata("check", try location.toolAddress())
            #expect(check.status == 0, "\(check.output)")
            // The app's usual configuration opens the copy and saves into it: new models get keys of their own.
            let context = ModelContext(try location.container(schema))
            let tag = ToolTag(name: "new")
            context.insert(tag)
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<ToolTag>()) == 21)
            #expect(!original.contains { $0.hasPrefix("\(tag.persistentModelID) ") })
        }
    }

    /// The example apps' stores (Animals, FoodPin with an image in external storage, ToDo), each copied to the
    /// other kind of store: the app opens the copy with its usual configuration and finds everything.
    @Test(arguments: StoreKind.all) func copiesTheExampleAppsStores(_ sourceKind: StoreKind) throws {
        let targetKind: StoreKind = sourceKind == .sqlite ? .postgres : .sqlite
        let schema = Schema([Animal.self, AnimalCategory.self, Restaurant.self, ToDoItem.self])
        let source = sourceKind.location()
        let context = ModelContext(try source.container(schema))
        AnimalCategory.insertSampleData(modelContext: context)
        for (number, restaurant) in Restaurant.samples.enumerated() {
            restaurant.imageData = Data(repeating: UInt8(number), count: 3000 + number)
            context.insert(restaurant)
        }
        context.insert(ToDoItem(name: "Walk the dog", priority: .high))
        try context.save()
        let target = targetKind.location()
        let copy = swiftdata("copy", try source.toolAddress(), try target.toolAddress())
        #expect(copy.status == 0, "\(copy.errors)")

        func describe(_ container: ModelContainer) throws -> [String] {
            let context = ModelContext(container)
            let categories = try context.fetch(FetchDescriptor<AnimalCategory>(sortBy: [SortDescriptor(\.name)])).map {
                "\($0.persistentModelID) \($0.name): \($0.animals.map { "\($0.name) \($0.diet)" })"
            }
            let restaurants = try context.fetch(FetchDescriptor<Restaurant>(sortBy: [SortDescriptor(\.name)])).map {
                "\($0.persistentModelID) \($0.name) \($0.type) \($0.isFavorite) \($0.ratingText ?? "-") \($0.imageData)"
            }
            let items = try context.fetch(FetchDescriptor<ToDoItem>()).map {
                "\($0.persistentModelID) \($0.id) \($0.name) \($0.priority)"
            }
            return categories + restaurants + items
        }
        let original = try describe(source.container(schema))
        #expect(original.count == 6 + Restaurant.samples.count + 1)
        #expect(try describe(target.container(schema)) == original)
        // Each app's own configuration, with only its models.
        let animals = ModelContext(try target.container(Schema([Animal.self, AnimalCategory.self])))
        #expect(try animals.fetchCount(FetchDescriptor<Animal>()) == 11)
        let todo = ModelContext(try target.container(Schema([ToDoItem.self])))
        #expect(try todo.fetch(FetchDescriptor<ToDoItem>()).first?.priority == .high)
    }

    /// A copy that fails half-way leaves nothing: no SQLite file, no tables in the PostgreSQL schema.
    @Test(arguments: StoreKind.all) func aFailedCopyLeavesTheTargetAsItWas(_ targetKind: StoreKind) throws {
        let source = StoreKind.sqlite.location()
        try ToolLibrary.fill(source.container(Schema(ToolLibrary.types)), books: 40)
        let external = source.store().path + ".external"
        let files = try FileManager.default.contentsOfDirectory(atPath: external).sorted()
        try FileManager.default.removeItem(atPath: external + "/" + files[files.count - 1])
        let target = targetKind.location()
        let copy = swiftdata("copy", try source.toolAddress(), try target.toolAddress())
        #expect(copy.status == 3)
        #expect(copy.errors.contains("cannot be read"), "\(copy.errors)")
        switch targetKind {
        case .sqlite:
            #expect(!FileManager.default.fileExists(atPath: target.store().path))
            #expect(!FileManager.default.fileExists(atPath: target.store().path + ".external"))
        case .postgres, .pooled:
            let again = swiftdata("inspect", try target.toolAddress())
            #expect(again.status == 3 && again.errors.contains("not a store of OpenSwiftData"), "\(again.errors)")
        }
    }

    /// An empty store copies too; its column of a `Codable` type, which holds no value to tell JSON from a raw value
    /// by, is taken for text, and the app's first opening of the PostgreSQL copy migrates it.
    @Test func anEmptyStoreCopiesAndTheAppOpensIt() throws {
        let source = StoreKind.sqlite.location()
        let schema = Schema(ToolLibrary.types)
        try ToolLibrary.fill(source.container(schema), books: 0)
        let target = StoreKind.postgres.location()
        let copy = swiftdata("copy", try source.toolAddress(), try target.toolAddress())
        #expect(copy.status == 0, "\(copy.errors)")
        let context = ModelContext(try target.container(schema))
        let book = ToolBook(
            title: "New", isbn: UUID(), published: .now, price: 1, rating: 2, pages: 3, serial: 4)
        book.details = ToolDetails(language: "en", editions: [2], note: "kept")
        context.insert(book)
        try context.save()
        let again = ModelContext(try target.container(schema))
        #expect(try again.fetch(FetchDescriptor<ToolBook>()).map(\.details) == [book.details])
        #expect(try again.fetchCount(FetchDescriptor<ToolTag>()) == 20)
    }

    /// Two model hierarchies (one three levels deep, with relationships on every level; one with unique
    /// constraints on its subentities) from SQLite to PostgreSQL and back: the app finds every model of its own
    /// class with the same identifier, values and relationships, the dumps agree, `check` passes, and the copies
    /// keep each subentity's unique constraint to its own rows; `inspect` lists a subentity's join table once.
    @Test func copiesAModelHierarchyToPostgresAndBack() throws {
        let schema = Schema(mediaModels + accountModels)
        let source = StoreKind.sqlite.location()
        try ToolHierarchy.fill(source.container(schema))
        let postgres = StoreKind.postgres.location()
        let back = StoreKind.sqlite.location()
        let there = swiftdata("copy", try source.toolAddress(), try postgres.toolAddress())
        #expect(there.status == 0, "\(there.errors)")
        let again = swiftdata("copy", try postgres.toolAddress(), try back.toolAddress())
        #expect(again.status == 0, "\(again.errors)")

        let original = try ToolHierarchy.describe(source.container(schema))
        #expect(original.count == 16)
        // A join table of a subentity is listed once, as its own.
        let inspect = swiftdata("inspect", try source.toolAddress()).output
        #expect(inspect.components(separatedBy: "Documentary_clips (join table").count == 2, "\(inspect)")
        #expect(inspect.contains("Documentary_clips (join table of Documentary.clips): 2 rows"), "\(inspect)")
        let dump = swiftdata("dump", try source.toolAddress()).output
        for location in [postgres, back] {
            #expect(try ToolHierarchy.describe(location.container(schema)) == original)
            #expect(swiftdata("dump", try location.toolAddress()).output == dump)
            let check = swiftdata("check", try location.toolAddress())
            #expect(check.status == 0, "\(check.output)")
            // One team per region (a new team takes the old one's row), but other accounts may share a team's
            // region; no two accounts of any class share a handle.
            let context = ModelContext(try location.container(schema))
            context.insert(Team(handle: "rivals", region: "north"))
            let personal = Personal(handle: "walker", region: "north")
            context.insert(personal)
            try context.save()
            let fresh = ModelContext(try location.container(schema))
            #expect(try fresh.fetch(FetchDescriptor<Team>()).map(\.handle) == ["rivals"])
            #expect(try fresh.fetchCount(FetchDescriptor<Account>()) == 5)
            context.insert(Personal(handle: "acme"))
            #expect(throws: SwiftDataError.self) { try context.save() }
            #expect(!original.contains { $0.contains("\(personal.persistentModelID) ") })
        }
    }

    /// A subclass that adds no property is recorded as its superclass is, so a sibling's superclass cannot be told
    /// from it; when that decides the rows a unique constraint covers, the copy refuses, naming both, and writes
    /// nothing. `inspect` still reads the store.
    @Test func aHierarchyWhoseShapeTheStoreDoesNotTellIsNotCopied() throws {
        let source = StoreKind.sqlite.location()
        let context = ModelContext(try source.container(ToolVehicle.self, ToolTruck.self, ToolVan.self))
        context.insert(ToolTruck(plate: "T-1"))
        context.insert(ToolVan(plate: "V-1"))
        try context.save()
        #expect(swiftdata("inspect", try source.toolAddress()).output.contains("  subentity ToolVan"))
        let target = StoreKind.sqlite.location()
        let copy = swiftdata("copy", try source.toolAddress(), try target.toolAddress())
        #expect(copy.status == 3)
        #expect(
            copy.errors.contains(
                "the store does not tell whether ToolVan is a subentity of ToolVehicle or ToolTruck, which decides the rows ToolTruck's unique constraint covers"
            ), "\(copy.errors)")
        #expect(!FileManager.default.fileExists(atPath: target.store().path))
    }

    /// `check` passes a sound store and names each problem of a damaged one: a reference to a row that does not
    /// exist, a missing and a left-over external value, and a key sequence behind the keys.
    @Test(arguments: StoreKind.all) func checkFindsDamage(_ kind: StoreKind) throws {
        let location = kind.location()
        try ToolLibrary.fill(location.container(Schema(ToolLibrary.types)), books: 25)
        let sound = swiftdata("check", try location.toolAddress())
        #expect(sound.status == 0, "\(sound.output)")
        #expect(sound.output.hasSuffix(": all is well\n"))
        switch kind {
        case .sqlite:
            let store = location.store()
            try sqlite(
                store,
                "UPDATE ToolBook SET shelf = 9999 WHERE _pk = 2; UPDATE _swiftdata_sequence SET last_key = 3 WHERE entity = 'ToolBook'"
            )
            let external = store.path + ".external"
            let files = try FileManager.default.contentsOfDirectory(atPath: external).sorted()
            try FileManager.default.removeItem(atPath: external + "/" + files[0])
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: external + "/left-over"))
        case .postgres, .pooled:
            let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
            let schema = location.postgresSchema
            try connection.execute(
                """
                SET search_path TO "\(schema)"; UPDATE "ToolBook" SET shelf = 9999 WHERE _pk = 2;
                UPDATE _swiftdata_sequence SET last_key = 3 WHERE entity = 'ToolBook';
                DELETE FROM _swiftdata_external WHERE id = (SELECT min(id) FROM _swiftdata_external);
                INSERT INTO _swiftdata_external VALUES ('left-over', '\\x010203')
                """)
        }
        let damaged = swiftdata("check", try location.toolAddress())
        #expect(damaged.status == 1)
        let problems = damaged.output.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
        #expect(problems.count == 4, "\(damaged.output)")
        #expect(damaged.output.contains("1 row(s) of ToolBook refer through shelf to ToolShelf rows that do not exist"))
        #expect(damaged.output.contains("ToolBook's key sequence is at 3, below its highest key 25"))
        #expect(damaged.output.contains("1 externally stored value(s) that rows name are missing"))
        #expect(damaged.output.contains("1 externally stored value(s) no row names: left-over"))
    }

    /// Clear errors, and the exit codes `swiftdata --help` documents.
    @Test func errorsSayWhatIsWrong() throws {
        let directory = TemporaryDirectory()
        let missing = swiftdata("inspect", directory.store("missing").path)
        #expect(missing.status == 3 && missing.errors.contains("there is no store at"), "\(missing.errors)")
        let text = directory.url.appendingPathComponent("notes.txt")
        try Data("not a database at all".utf8).write(to: text)
        let notSQLite = swiftdata("check", text.path)
        #expect(notSQLite.status == 3 && notSQLite.errors.contains("is not an SQLite store"), "\(notSQLite.errors)")
        let foreign = directory.store("foreign")
        try sqlite(foreign, "CREATE TABLE notes (body TEXT)", creating: true)
        let notOurs = swiftdata("dump", foreign.path)
        #expect(notOurs.status == 3 && notOurs.errors.contains("is not a store of OpenSwiftData"), "\(notOurs.errors)")
        let unreachable = swiftdata("inspect", "postgresql://someone:secret@127.0.0.1:1/nothing")
        #expect(unreachable.status == 3 && unreachable.errors.contains("cannot be opened"), "\(unreachable.errors)")
        #expect(!unreachable.errors.contains("secret"))

        let source = StoreKind.sqlite.location()
        try ToolLibrary.fill(source.container(Schema(ToolLibrary.types)), books: 3)
        let occupied = StoreKind.sqlite.location()
        try ToolLibrary.fill(occupied.container(Schema(ToolLibrary.types)), books: 1)
        let before = try storeFiles(occupied.store())
        let notEmpty = swiftdata("copy", try source.toolAddress(), try occupied.toolAddress())
        #expect(notEmpty.status == 3 && notEmpty.errors.contains("is not empty"), "\(notEmpty.errors)")
        #expect(try storeFiles(occupied.store()) == before)

        #expect(swiftdata("frobnicate").status == 2)
        #expect(swiftdata().status == 2)
        #expect(swiftdata("copy", "only-one").status == 2)
        #expect(swiftdata("inspect", "a", "--verbose").status == 2)
        #expect(swiftdata("--help").output.contains("EXIT CODES"))
        for command in ["inspect", "dump", "copy", "check"] {
            let help = swiftdata(command, "--help")
            #expect(help.status == 0 && help.output.contains("USAGE: swiftdata \(command) "), "\(command)")
        }
    }

    /// `inspect`, `dump` and `check` only read: the source's bytes stay the same.
    @Test func readingCommandsNeverWriteToTheStore() throws {
        let location = StoreKind.sqlite.location()
        try ToolLibrary.fill(location.container(Schema(ToolLibrary.types)), books: 50)
        let before = try storeFiles(location.store())
        let address = try location.toolAddress()
        #expect(swiftdata("inspect", address).status == 0)
        #expect(swiftdata("dump", address, "--format", "csv").status == 0)
        #expect(swiftdata("check", address).status == 0)
        #expect(try storeFiles(location.store()) == before)
    }

    /// The built `swiftdata` program copies on a terminal with a progress line, and prints its summary.
    @Test func theProgramShowsProgressOnATerminal() throws {
        let source = StoreKind.sqlite.location()
        try ToolLibrary.fill(source.container(Schema(ToolLibrary.types)), books: 20)
        let target = StoreKind.sqlite.location()
        let run = try ExampleRunner(program: "swiftdata").runOnTerminal(
            arguments: ["copy", try source.toolAddress(), try target.toolAddress()])
        #expect(run.status == 0, "\(run.shown)")
        #expect(run.shown.contains("copying ToolBook: "), "\(run.shown)")
        #expect(run.shown.contains("Copied 41 rows, 2 external values and 1 history transaction from"), "\(run.shown)")
    }
}
